// The HTML report (see report.h).
#include "report.h"

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <functional>
#include <map>
#include <set>
#include <sstream>

#include "graph/terms.h"
#include "html_parts.h"
#include "io_pages.h"
#include "lineage_dot.h"
#include "query/counting.h"
#include "query/questions.h"
#include "query/runs.h"

namespace provio::viz {
namespace {

using query::ActivityRecord;
using query::Table;

// µs since the epoch of an xsd:dateTime (the graph engine's parser, graph/terms.h); -1 if
// absent or malformed (the report's times all come after 1970).
long long time_us(const std::string& t) {
  return rdf::parse_datetime_us(t).value_or(-1);
}

// Rows: runs (an MPI job step is one row), or with `runs` null ranks when known, else program
// executions.
void timeline(std::ostringstream& out, query::View& v, const query::Runs* runs,
              const std::vector<ActivityRecord>& records) {
  struct Span {
    long long start, end;
    std::string label;
    bool write;
  };
  // "rank 2" before "rank 10": compare the text before the trailing number, then the number.
  struct Natural {
    bool operator()(const std::string& a, const std::string& b) const {
      auto split = [](const std::string& s) {
        std::size_t i = s.find_last_not_of("0123456789") + 1;
        return std::make_pair(s.substr(0, i), rdf::parse_u64(s.substr(i, 18)).value_or(0));
      };
      auto x = split(a), y = split(b);
      return x != y ? x < y : a < b;
    }
  };
  std::map<std::string, std::vector<Span>, Natural> rows;
  long long t0 = -1, t1 = -1;
  bool trace = false;
  for (const auto& r : records) {
    long long s = time_us(r.start), e = time_us(r.end);
    if (s < 0 || e < s) continue;
    std::string row = r.program.empty() ? "?"
                      : runs            ? runs->label(runs->run_of(r.program))
                      : !r.rank.empty() ? "rank " + r.rank
                                        : v.program_label(r.program);
    std::string what = r.api + " " + v.entity_label(r.entity, false) + " ×" + std::to_string(r.count) + ", " +
                       human_bytes(r.bytes);
    rows[row].push_back({s, e, what, r.op == "Write" || r.op == "Create"});
    if (t0 < 0 || s < t0) t0 = s;
    if (e > t1) t1 = e;
    // Trace-level activities are one call each: their IRI ends in /c<number>.
    auto slash = r.iri.rfind('/');
    if (slash != std::string::npos && r.iri.size() > slash + 2 && r.iri[slash + 1] == 'c' &&
        r.iri.find_first_not_of("0123456789", slash + 2) == std::string::npos)
      trace = true;
  }
  // A browser draws a few thousand rectangles comfortably; keep the longest spans beyond that.
  constexpr std::size_t kMaxBars = 5000;
  std::size_t total = 0;
  for (const auto& [row, spans] : rows) total += spans.size();
  std::size_t dropped = 0;
  if (total > kMaxBars) {
    std::vector<long long> durations;
    for (const auto& [row, spans] : rows)
      for (const auto& s : spans) durations.push_back(s.end - s.start);
    std::nth_element(durations.begin(), durations.begin() + (kMaxBars - 1), durations.end(),
                     std::greater<>());
    long long cut = durations[kMaxBars - 1];
    for (auto& [row, spans] : rows) {
      auto keep =
          std::remove_if(spans.begin(), spans.end(), [&](const Span& s) { return s.end - s.start < cut; });
      dropped += static_cast<std::size_t>(spans.end() - keep);
      spans.erase(keep, spans.end());
    }
  }
  out << "<h2 id=\"timeline\">Timeline</h2>\n";
  if (dropped)
    out << "<p class=\"note\">" << dropped << " of " << total
        << " activities are too short to draw and are left out.</p>\n";
  if (rows.empty()) {
    out << "<p class=\"none\">no timed activities</p>\n";
    return;
  }
  out << "<p class=\"note\">"
      << (trace ? "Trace-level provenance: one bar per call."
                : "Summary-level provenance: one bar per activity spans its first to last call "
                  "(record with PROVIO_LEVEL=trace for per-call bars).")
      << " Blue: reads and other uses; orange: writes. Hover a bar for details.</p>\n";
  const int label_w = 200, width = 760, row_h = 24;
  double span = static_cast<double>(std::max(1LL, t1 - t0));
  int h = static_cast<int>(rows.size()) * row_h + 24;
  out << "<svg xmlns=\"http://www.w3.org/2000/svg\" class=\"timeline\" width=\"" << label_w + width + 10
      << "\" height=\"" << h << "\" role=\"img\">";
  int y = 0;
  for (const auto& [row, spans] : rows) {
    out << "<text x=\"" << label_w - 6 << "\" y=\"" << y + 16 << "\" text-anchor=\"end\">" << html_escape(row)
        << "</text><line x1=\"" << label_w << "\" x2=\"" << label_w + width << "\" y1=\"" << y + 12
        << "\" y2=\"" << y + 12 << "\" stroke=\"#ddd\"/>";
    for (const auto& s : spans) {
      double x = label_w + width * (s.start - t0) / span;
      double w = std::max(2.0, width * (s.end - s.start) / span);
      char geo[96];
      std::snprintf(geo, sizeof geo, "x=\"%.1f\" y=\"%d\" width=\"%.1f\" height=\"16\"", x, y + 4, w);
      out << "<rect " << geo << " fill=\"" << (s.write ? "#F28E2B" : "#4E79A7")
          << "\" opacity=\"0.8\"><title>" << html_escape(s.label) << "</title></rect>";
    }
    y += row_h;
  }
  out << "<text x=\"" << label_w << "\" y=\"" << y + 14 << "\">0</text><text x=\"" << label_w + width
      << "\" y=\"" << y + 14 << "\" text-anchor=\"end\">" << html_escape(seconds_text(span / 1e6))
      << "</text></svg>\n";
}

constexpr const char* kStyle = R"(
body{font-family:Helvetica,Arial,sans-serif;margin:24px;color:#222;max-width:1200px}
h1{font-size:22px;margin-bottom:4px}h2{font-size:18px;margin-top:32px;border-bottom:1px solid #ccc}h3{font-size:15px}
.cards{display:flex;flex-wrap:wrap;gap:12px;margin:16px 0}
.card{background:#f4f6fa;border:1px solid #d8dde6;border-radius:6px;padding:10px 16px;min-width:120px}
.card b{display:block;font-size:20px}.card span{font-size:12px;color:#555}
table{border-collapse:collapse;font-size:13px;margin:8px 0}th,td{border:1px solid #ddd;padding:3px 8px;text-align:left}
th{background:#eef1f6;cursor:pointer;user-select:none}td.num{text-align:right;font-variant-numeric:tabular-nums}
.chart{display:inline-block;vertical-align:top;margin:8px 16px 8px 0}.chart svg text{font-size:12px}
figcaption{font-weight:bold;font-size:13px;margin-bottom:4px}.none,.note{color:#666;font-size:13px}
.warning{background:#fff3cd;border:1px solid #e0b400;padding:6px 10px;font-size:14px}
.timeline text{font-size:12px}.graph svg{max-width:100%;height:auto}
details{margin:4px 0}summary{cursor:pointer}
)";

// Click a column header to sort a table (numbers numerically).
constexpr const char* kScript = R"(
document.querySelectorAll('table.sortable th').forEach(function (th) {
  th.addEventListener('click', function () {
    var index = th.cellIndex;
    var body = th.closest('table').tBodies[0];
    var rows = Array.prototype.slice.call(body.rows);
    var desc = th.getAttribute('data-desc') !== 'true';
    th.setAttribute('data-desc', desc ? 'true' : 'false');
    rows.sort(function (a, b) {
      var x = a.cells[index].textContent, y = b.cells[index].textContent;
      var nx = parseFloat(x), ny = parseFloat(y);
      var c = (!isNaN(nx) && !isNaN(ny)) ? nx - ny : x.localeCompare(y);
      return desc ? -c : c;
    });
    rows.forEach(function (r) { body.appendChild(r); });
  });
});
)";

}  // namespace

rdf::Status write_report(query::View& v, const std::string& title, bool by_rank, std::string& html) {
  // Every figure below counts I/O as prov-query does (query/counting.h).
  auto records = query::counted(v.activities());
  query::Runs runs(v);
  auto programs = v.programs();
  std::set<std::string> ranks, threads, jobs;
  long long t0 = -1, t1 = -1;
  std::uint64_t read = 0, written = 0, calls = 0;
  for (const auto& p : programs) {
    const auto& info = v.program(p);
    if (!info.job.empty()) jobs.insert(info.job);
    long long s = time_us(info.start), e = time_us(info.end);
    if (s >= 0 && (t0 < 0 || s < t0)) t0 = s;
    if (e > t1) t1 = e;
  }
  for (const auto& r : records) {
    if (!r.rank.empty()) ranks.insert(r.rank);
    if (!r.thread.empty()) threads.insert(r.thread);
    if (r.op == "Read") read += r.bytes;
    if (r.op == "Write") written += r.bytes;
    calls += r.count;
  }
  std::ostringstream out;
  out << "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">"
         "<meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'none'; style-src "
         "'unsafe-inline'; "
         "script-src 'unsafe-inline'; img-src data:\">"
         "<title>provio report: "
      << html_escape(title) << "</title><style>" << kStyle << "</style></head><body>\n";
  out << "<h1>provio report</h1><p class=\"note\">" << html_escape(title) << "</p>\n";
  auto card = [&](const std::string& value, const char* what) {
    out << "<div class=\"card\"><b>" << html_escape(value) << "</b><span>" << what << "</span></div>";
  };
  out << "<div class=\"cards\">";
  std::string job_text;
  for (const auto& j : jobs) job_text += (job_text.empty() ? "" : ", ") + j;
  card(job_text.empty() ? "—" : job_text, "job");
  card(std::to_string(programs.size()), "program executions");
  card(std::to_string(ranks.size()), "ranks");
  card(std::to_string(threads.size()), "threads");
  card(t0 >= 0 && t1 >= t0 ? seconds_text(static_cast<double>(t1 - t0) / 1e6) : "—", "duration");
  card(std::to_string(calls), "I/O calls");
  card(human_bytes(read), "read");
  card(human_bytes(written), "written");
  out << "</div>\n";
  // Incomplete provenance is said first: every figure below may undercount.
  for (const auto& p : programs) {
    const auto& info = v.program(p);
    if (info.incomplete.empty()) continue;
    out << "<p class=\"warning\">Incomplete provenance: " << html_escape(v.program_label(p))
        << " lost events (" << html_escape(info.incomplete) << ").</p>\n";
  }

  out << "<h2 id=\"costs\">Top I/O costs</h2>\n";
  auto chart = [&](const std::string& by, const std::string& what, int col, const char* colour) {
    Table t;
    if (!query::stats(v, records, by, -1, t).ok) return;
    std::vector<std::pair<std::string, double>> items;
    for (const auto& row : t.rows)
      items.emplace_back(row[0].value, std::strtod(row[col].value.c_str(), nullptr));
    std::stable_sort(items.begin(), items.end(),
                     [](const auto& a, const auto& b) { return a.second > b.second; });
    if (items.size() > 10) items.resize(10);
    // Paths share their directories: show them from the first differing directory on.
    if (by == "file" || by == "object") {
      std::string common = items.empty() ? "" : items[0].first;
      for (const auto& [label, x] : items) {
        std::size_t n = 0;
        while (n < common.size() && n < label.size() && common[n] == label[n]) ++n;
        common.resize(n);
      }
      std::size_t cut = common.rfind('/');
      if (items.size() > 1 && cut != std::string::npos)
        for (auto& item : items) item.first = item.first.substr(cut + 1);
    }
    if (col == 3)
      bars(
          out, what, items, [](double x) { return seconds_text(x); }, colour);
    else
      bars(
          out, what, items, [](double x) { return human_bytes(static_cast<std::uint64_t>(x)); }, colour);
  };
  chart("file", "Time per file", 3, "#E15759");
  chart("file", "Bytes per file", 2, "#59A14F");
  chart("api", "Time per API", 3, "#E15759");
  chart("object", "Bytes per HDF5 object", 2, "#59A14F");
  if (by_rank && !ranks.empty()) {
    chart("rank", "Time per rank", 3, "#E15759");
  } else if (by_rank) {
    chart("program", "Time per program", 3, "#E15759");
  } else {
    // One bar per run: its ranks' time summed (prov-query stats --by rank keeps the breakdown).
    std::map<std::string, double> per_run;
    for (const auto& r : records)
      if (!r.program.empty())
        per_run[runs.label(runs.run_of(r.program))] += static_cast<double>(r.elapsed_ns) / 1e9;
    std::vector<std::pair<std::string, double>> items(per_run.begin(), per_run.end());
    std::stable_sort(items.begin(), items.end(),
                     [](const auto& a, const auto& b) { return a.second > b.second; });
    if (items.size() > 10) items.resize(10);
    bars(
        out, "Time per run", items, [](double x) { return seconds_text(x); }, "#E15759");
  }

  timeline(out, v, by_rank ? nullptr : &runs, records);
  rdf::Status io = io_pages(out, v, records);
  if (!io.ok) return io;

  // Outputs: files generated by some program and used by none.
  query::Lineage lin(v);
  std::set<std::string> generated, used;
  for (const auto& p : programs) {
    for (const auto& e : lin.generated(p))
      if (v.file_of(e) == e) generated.insert(e);
    for (const auto& e : lin.inputs(p)) used.insert(v.file_of(e));
  }
  std::vector<std::string> outputs;
  for (const auto& e : generated)
    if (!used.count(e)) outputs.push_back(e);
  out << "<h2 id=\"lineage\">Lineage of the outputs</h2>\n";
  if (outputs.empty()) {
    out << "<p class=\"none\">no output files</p>\n";
  } else {
    std::string names;
    for (const auto& o : outputs) names += (names.empty() ? "" : ", ") + v.entity_label(o, false);
    out << "<p class=\"note\">Outputs: " << html_escape(names)
        << ". Entities are yellow ellipses, activities blue boxes, program executions orange houses.</p>\n";
    DotOptions opt;
    opt.max_nodes = 150;
    opt.by_rank = by_rank;
    std::string dot = lineage_dot(v, records, outputs, opt);
    rdf::Status rendered = inline_svg(out, dot);
    if (!rendered.ok) return rendered;
  }
  // The reference tables come last: for big jobs they are long, the summary above is what people
  // read first. Long tables are folded; files beyond the top kMaxFiles are left to prov-query.
  constexpr std::size_t kMaxFiles = 200, kMaxObjectTables = 20;
  out << "<h2 id=\"programs\">Programs</h2>\n";
  folded(out, query::programs_table(v), {"iri", "executable"}, "programs-table", "program executions");
  out << "<h2 id=\"files\">Files and objects</h2>\n";
  Table files = query::files_table(v, records);
  std::stable_sort(files.rows.begin(), files.rows.end(), [](const auto& a, const auto& b) {
    auto total = [](const auto& r) {
      return rdf::parse_u64(r[1].value).value_or(0) + rdf::parse_u64(r[2].value).value_or(0);
    };
    return total(a) > total(b);
  });
  std::size_t all_files = files.rows.size();
  if (all_files > kMaxFiles) {
    files.rows.resize(kMaxFiles);
    out << "<p class=\"note\">The " << kMaxFiles << " files with the most bytes of " << all_files
        << " (all of them: <code>prov-query files</code>).</p>\n";
  }
  folded(out, files, {"iri"}, "files-table", "files");
  for (std::size_t i = 0; i < files.rows.size() && i < kMaxObjectTables; ++i) {
    const auto& row = files.rows[i];
    Table objs = query::objects_table(v, records, row.back().value);
    if (objs.rows.empty()) continue;
    out << "<details><summary>" << html_escape(row[0].value) << " — " << objs.rows.size()
        << " objects</summary>";
    table_html(out, objs);
    out << "</details>\n";
  }
  out << "<script>" << kScript << "</script>\n</body></html>\n";
  html = out.str();
  return rdf::Status::success();
}

}  // namespace provio::viz
