// Printing result tables (see table.h). JSON is the W3C "SPARQL 1.1 Query Results JSON Format";
// CSV follows RFC 4180 quoting; TSV escapes tab/newline/backslash as \t \n \\.
#include "query/table.h"

#include <algorithm>
#include <charconv>
#include <cstdio>
#include <cstdlib>

#include "cli/terminal.h"
#include "graph/vocabulary.h"

namespace provio::query {

void append_tsv_field(std::string& out, std::string_view text) {
  for (char ch : text) {
    if (ch == '\t')
      out += "\\t";
    else if (ch == '\n')
      out += "\\n";
    else if (ch == '\\')
      out += "\\\\";
    else
      out += ch;
  }
}

namespace {

// The table is for people: one row per line, and nothing a terminal would act on.
std::string display(const Cell& c) {
  switch (c.kind) {
    case Cell::Kind::kUnbound: return "";
    case Cell::Kind::kIri: return cli::escape_controls(abbreviate(c.value));
    case Cell::Kind::kBlank: return cli::escape_controls("_:" + c.value);
    case Cell::Kind::kLiteral: return cli::escape_controls(c.value);
  }
  return "";
}

// Display width in code points (UTF-8 continuation bytes do not count).
std::size_t width(std::string_view s) {
  return static_cast<std::size_t>(std::count_if(
      s.begin(), s.end(), [](char ch) { return (static_cast<unsigned char>(ch) & 0xC0) != 0x80; }));
}

// Control characters (C1 and DEL too, which JSON allows raw) as \uXXXX: exact data, and safe to
// print on a terminal.
void json_string(std::ostream& out, std::string_view s) {
  out << '"';
  for (std::size_t i = 0; i < s.size(); ++i) {
    char ch = s[i];
    auto c = static_cast<unsigned char>(ch);
    bool control = c < 0x20 || c == 0x7F;
    if (c == 0xC2 && i + 1 < s.size() && static_cast<unsigned char>(s[i + 1]) < 0xA0) {
      c = static_cast<unsigned char>(s[++i]);  // U+0080..U+009F, encoded C2 80..C2 9F
      control = true;
    }
    switch (c) {
      case '"': out << "\\\""; break;
      case '\\': out << "\\\\"; break;
      case '\n': out << "\\n"; break;
      case '\r': out << "\\r"; break;
      case '\t': out << "\\t"; break;
      default:
        if (control) {
          char buf[8];
          std::snprintf(buf, sizeof buf, "\\u%04x", c);
          out << buf;
        } else {
          out << ch;
        }
    }
  }
  out << '"';
}

void write_aligned(std::ostream& out, const Table& t) {
  std::vector<std::vector<std::string>> text;
  std::vector<std::size_t> w(t.columns.size());
  for (std::size_t i = 0; i < t.columns.size(); ++i) w[i] = width(t.columns[i]);
  text.reserve(t.rows.size());
  for (const auto& row : t.rows) {
    auto& line = text.emplace_back();
    for (std::size_t i = 0; i < t.columns.size(); ++i) {
      line.push_back(i < row.size() ? display(row[i]) : "");
      w[i] = std::max(w[i], width(line.back()));
    }
  }
  auto emit = [&](const std::vector<std::string>& cells) {
    std::string s;
    for (std::size_t i = 0; i < cells.size(); ++i) {
      s += cells[i];
      if (i + 1 < cells.size()) s.append(w[i] - width(cells[i]) + 2, ' ');
    }
    out << s << '\n';
  };
  emit(t.columns);
  std::vector<std::string> rule;
  for (std::size_t x : w) rule.emplace_back(x, '-');
  emit(rule);
  for (const auto& line : text) emit(line);
}

// Exact data, or on a terminal (`terminal`) the values with their controls escaped.
std::string value_text(std::string_view v, bool terminal) {
  return terminal ? cli::escape_controls(v) : std::string(v);
}

void write_csv(std::ostream& out, const Table& t, bool terminal) {
  auto field = [&](std::string_view raw) {
    std::string s = value_text(raw, terminal);
    if (s.find_first_of(",\"\r\n") == std::string_view::npos) {
      out << s;
      return;
    }
    out << '"';
    for (char ch : s) {
      if (ch == '"') out << '"';
      out << ch;
    }
    out << '"';
  };
  auto line = [&](auto&& cells, auto&& get) {
    for (std::size_t i = 0; i < cells.size(); ++i) {
      if (i) out << ',';
      field(get(cells[i]));
    }
    out << "\r\n";
  };
  line(t.columns, [](const std::string& s) -> std::string_view { return s; });
  for (const auto& row : t.rows) line(row, [](const Cell& c) -> std::string_view { return c.value; });
}

void write_tsv(std::ostream& out, const Table& t, bool terminal) {
  auto field = [&](std::string_view raw) {
    std::string text;
    append_tsv_field(text, value_text(raw, terminal));
    out << text;
  };
  for (std::size_t i = 0; i < t.columns.size(); ++i) out << (i ? "\t" : "") << t.columns[i];
  out << '\n';
  for (const auto& row : t.rows) {
    for (std::size_t i = 0; i < row.size(); ++i) {
      if (i) out << '\t';
      field(row[i].value);
    }
    out << '\n';
  }
}

void write_json(std::ostream& out, const Table& t) {
  out << "{\"head\":{\"vars\":[";
  for (std::size_t i = 0; i < t.columns.size(); ++i) {
    if (i) out << ',';
    json_string(out, t.columns[i]);
  }
  out << "]},\"results\":{\"bindings\":[";
  for (std::size_t r = 0; r < t.rows.size(); ++r) {
    out << (r ? ",\n" : "\n") << '{';
    bool first = true;
    for (std::size_t i = 0; i < t.rows[r].size() && i < t.columns.size(); ++i) {
      const Cell& c = t.rows[r][i];
      if (!c.bound()) continue;
      if (!first) out << ',';
      first = false;
      json_string(out, t.columns[i]);
      out << ":{\"type\":";
      out << (c.kind == Cell::Kind::kIri     ? "\"uri\""
              : c.kind == Cell::Kind::kBlank ? "\"bnode\""
                                             : "\"literal\"");
      out << ",\"value\":";
      json_string(out, c.value);
      if (!c.datatype.empty()) {
        out << ",\"datatype\":";
        json_string(out, c.datatype);
      }
      if (!c.lang.empty()) {
        out << ",\"xml:lang\":";
        json_string(out, c.lang);
      }
      out << '}';
    }
    out << '}';
  }
  out << "\n]}}\n";
}

}  // namespace

Cell Cell::integer(std::uint64_t v) {
  return {Kind::kLiteral, std::to_string(v), rdf::xsd("integer"), {}};
}

Cell Cell::number(double v) {
  char buf[64];
  auto r = std::to_chars(buf, buf + sizeof buf, v);
  return {Kind::kLiteral, std::string(buf, r.ptr), rdf::xsd("double"), {}};
}

Cell Cell::seconds(std::uint64_t ns) {
  char buf[48];
  std::snprintf(buf, sizeof buf, "%llu.%09llu", static_cast<unsigned long long>(ns / 1000000000u),
                static_cast<unsigned long long>(ns % 1000000000u));
  return {Kind::kLiteral, buf, rdf::xsd("double"), {}};
}

bool keep_columns(Table& t, const std::vector<std::string>& names, std::string& unknown) {
  std::vector<std::size_t> index;
  for (const auto& n : names) {
    auto it = std::find(t.columns.begin(), t.columns.end(), n);
    if (it == t.columns.end()) {
      unknown = n;
      return false;
    }
    index.push_back(static_cast<std::size_t>(it - t.columns.begin()));
  }
  for (auto& row : t.rows) {
    std::vector<Cell> kept;
    for (std::size_t i : index) kept.push_back(std::move(row[i]));
    row = std::move(kept);
  }
  t.columns = names;
  return true;
}

bool parse_format(std::string_view name, Format& out) {
  if (name == "table")
    out = Format::kTable;
  else if (name == "csv")
    out = Format::kCsv;
  else if (name == "tsv")
    out = Format::kTsv;
  else if (name == "json")
    out = Format::kJson;
  else
    return false;
  return true;
}

std::string abbreviate(std::string_view iri) {
  for (const auto& p : rdf::kPrefixes) {
    if (iri.substr(0, p.ns.size()) == p.ns)
      return std::string(p.name).append(":").append(iri.substr(p.ns.size()));
  }
  return std::string(iri);
}

bool write_table(std::ostream& out, const Table& t, Format format, bool terminal) {
  switch (format) {
    case Format::kTable: write_aligned(out, t); break;
    case Format::kCsv: write_csv(out, t, terminal); break;
    case Format::kTsv: write_tsv(out, t, terminal); break;
    case Format::kJson: write_json(out, t); break;
  }
  out.flush();
  return static_cast<bool>(out);
}

}  // namespace provio::query
