// HTML pieces of the report (see html_parts.h).
#include "html_parts.h"

#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>

#include "graph/terms.h"
#include "lineage_dot.h"

namespace provio::viz {

std::string html_escape(const std::string& s) {
  std::string out;
  out.reserve(s.size());
  for (char c : s) {
    switch (c) {
      case '&': out += "&amp;"; break;
      case '<': out += "&lt;"; break;
      case '>': out += "&gt;"; break;
      case '"': out += "&quot;"; break;
      case '\'': out += "&#39;"; break;
      default: out += c;
    }
  }
  return out;
}

std::string seconds_text(double s) {
  char buf[32];
  if (s < 1e-3)
    std::snprintf(buf, sizeof buf, "%.1f µs", s * 1e6);
  else if (s < 1)
    std::snprintf(buf, sizeof buf, "%.2f ms", s * 1e3);
  else
    std::snprintf(buf, sizeof buf, "%.2f s", s);
  return buf;
}

void table_html(std::ostringstream& out, const query::Table& t, const std::vector<std::string>& skip,
                const std::string& id) {
  out << "<table class=\"sortable\"";
  if (!id.empty()) out << " id=\"" << html_escape(id) << "\"";
  out << "><thead><tr>";
  std::vector<std::size_t> cols;
  for (std::size_t i = 0; i < t.columns.size(); ++i) {
    if (std::find(skip.begin(), skip.end(), t.columns[i]) != skip.end()) continue;
    cols.push_back(i);
    out << "<th>" << html_escape(t.columns[i]) << "</th>";
  }
  out << "</tr></thead><tbody>\n";
  for (const auto& row : t.rows) {
    out << "<tr>";
    for (std::size_t i : cols) {
      const auto& c = row[i];
      bool num = !c.datatype.empty();
      out << (num ? "<td class=\"num\">" : "<td>") << html_escape(c.value) << "</td>";
    }
    out << "</tr>\n";
  }
  out << "</tbody></table>\n";
}

void bars(std::ostringstream& out, const std::string& title,
          const std::vector<std::pair<std::string, double>>& items,
          const std::function<std::string(double)>& fmt, const char* colour) {
  out << "<figure class=\"chart\"><figcaption>" << html_escape(title) << "</figcaption>";
  if (items.empty()) {
    out << "<p class=\"none\">no data</p></figure>\n";
    return;
  }
  double max = 0;
  for (const auto& [l, x] : items) max = std::max(max, x);
  const int row_h = 22, label_w = 260, bar_w = 360, h = static_cast<int>(items.size()) * row_h + 4;
  out << "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"" << label_w + bar_w + 110 << "\" height=\"" << h
      << "\" role=\"img\">";
  int y = 2;
  for (const auto& [label, x] : items) {
    int w = max > 0 ? static_cast<int>(bar_w * x / max + 0.5) : 0;
    // The end of a long label (a path's file name), cut between characters.
    std::string_view tail = rdf::utf8_tail(label, 40);
    std::string shown = tail.size() < label.size() ? "…" + std::string(rdf::utf8_tail(label, 39)) : label;
    out << "<g><title>" << html_escape(label) << ": " << html_escape(fmt(x)) << "</title>"
        << "<text x=\"" << label_w - 6 << "\" y=\"" << y + 15 << "\" text-anchor=\"end\">"
        << html_escape(shown) << "</text><rect x=\"" << label_w << "\" y=\"" << y + 3 << "\" width=\""
        << std::max(w, 1) << "\" height=\"16\" fill=\"" << colour << "\"/><text x=\""
        << label_w + std::max(w, 1) + 6 << "\" y=\"" << y + 15 << "\">" << html_escape(fmt(x))
        << "</text></g>";
    y += row_h;
  }
  out << "</svg></figure>\n";
}

void folded(std::ostringstream& out, const query::Table& t, const std::vector<std::string>& skip,
            const std::string& id, const std::string& what) {
  constexpr std::size_t kFold = 30;
  if (t.rows.size() <= kFold) return table_html(out, t, skip, id);
  out << "<details><summary>" << t.rows.size() << " " << html_escape(what) << "</summary>";
  table_html(out, t, skip, id);
  out << "</details>\n";
}

rdf::Status inline_svg(std::ostringstream& out, const std::string& dot) {
  char tmpl[] = "/tmp/prov-viz-svg-XXXXXX";
  int fd = mkstemp(tmpl);
  if (fd < 0)
    return rdf::Status::error(std::string("cannot create a temporary file: ") + std::strerror(errno));
  ::close(fd);
  rdf::Status rendered = render(dot, "svg", tmpl);
  std::ifstream in(tmpl);
  std::stringstream svg;
  svg << in.rdbuf();
  ::unlink(tmpl);
  if (!rendered.ok) return rendered;
  std::string s = svg.str();
  auto start = s.find("<svg");  // drop the XML prolog and DOCTYPE: the SVG goes inline
  out << "<div class=\"graph\">" << (start == std::string::npos ? "" : s.substr(start)) << "</div>\n";
  return rdf::Status::success();
}

}  // namespace provio::viz
