// Result tables: what every prov-query question returns, and the four ways to print one.
// Hard rule: every format is exact. CSV/TSV/JSON carry full IRIs and literal values; only the
// aligned table (for people) abbreviates IRIs with the well-known prefixes and escapes control
// characters (cli/terminal.h), as CSV and TSV do when they go to a terminal. JSON writes every
// control character as \uXXXX, so it is exact and safe on a terminal.
#pragma once

#include <cstdint>
#include <ostream>
#include <string>
#include <string_view>
#include <vector>

namespace provio::query {

// One value: an IRI, a literal (with optional datatype IRI or language), a blank node, or unbound.
struct Cell {
  enum class Kind : std::uint8_t { kUnbound, kIri, kLiteral, kBlank };
  Kind kind = Kind::kUnbound;
  std::string value;
  std::string datatype;  // literals only; empty = plain
  std::string lang;      // literals only

  static Cell iri(std::string v) { return {Kind::kIri, std::move(v), {}, {}}; }
  static Cell text(std::string v) { return {Kind::kLiteral, std::move(v), {}, {}}; }
  static Cell integer(std::uint64_t v);
  static Cell number(double v);           // xsd:double, shortest exact form
  static Cell seconds(std::uint64_t ns);  // xsd:double written with 9 decimals (exact to the ns)
  static Cell unbound() { return {}; }
  bool bound() const { return kind != Kind::kUnbound; }
};

struct Table {
  std::vector<std::string> columns;
  std::vector<std::vector<Cell>> rows;
};

enum class Format : std::uint8_t { kTable, kCsv, kTsv, kJson };

// Appends `text` as one TSV field: tab, newline and backslash as \t \n \\. The one TSV escaper
// (prov-query's output, the store's activity cache).
void append_tsv_field(std::string& out, std::string_view text);

// Keeps only the columns `names`, in that order; false (and `unknown` the first name `t` does
// not have) leaves `t` unchanged.
[[nodiscard]] bool keep_columns(Table& t, const std::vector<std::string>& names, std::string& unknown);

// Parses "table", "csv", "tsv", "json"; false if unknown.
[[nodiscard]] bool parse_format(std::string_view name, Format& out);

// Prints `t` in `format`; `terminal`: `out` is a terminal. Returns false if the stream failed.
[[nodiscard]] bool write_table(std::ostream& out, const Table& t, Format format, bool terminal = false);

// "prov:used" for a well-known namespace, else the IRI unchanged.
std::string abbreviate(std::string_view iri);

}  // namespace provio::query
