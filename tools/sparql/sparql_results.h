// SPARQL Query Results XML Format (W3C), read into terms: what a SPARQL server answers to SELECT
// and ASK. XML rather than JSON: every SPARQL server writes it, and Virtuoso 7 writes it five
// times faster than JSON (0.9 s against 4.8 s for 11,600 rows).
//
// Hard rule: every term comes back exactly as the server sent it (IRI, blank node, literal with
// datatype or language); a malformed document is an error naming where it breaks, never a
// shorter result.
#pragma once

#include <array>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace provio::sparql {

struct Term {
  enum class Kind : unsigned char { kIri, kBlank, kLiteral };
  Kind kind = Kind::kIri;
  std::string value;
  std::string datatype;  // literals: datatype IRI, empty for a plain literal
  std::string lang;      // literals: language tag
};

using Row = std::vector<std::optional<Term>>;  // one per variable; nullopt = unbound

struct Results {
  std::vector<std::string> vars;
  std::vector<Row> rows;
  bool is_boolean = false;  // an ASK answer
  bool boolean = false;
  int column(std::string_view var) const;  // index of `var` in vars, -1 if absent
};

// Parses `body`; false with "offset N: what" in `error`.
[[nodiscard]] bool parse_xml_results(std::string_view body, Results& out, std::string& error);

// A CONSTRUCT / DESCRIBE answer in N-Triples (raptor parses it); false with "line N: what".
using Triple = std::array<Term, 3>;
[[nodiscard]] bool parse_ntriples(std::string_view body, std::vector<Triple>& out, std::string& error);

}  // namespace provio::sparql
