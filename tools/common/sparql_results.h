// SPARQL 1.1 Query Results JSON Format (W3C), read into terms: what a SPARQL server answers to
// SELECT and ASK.
//
// Hard rule: every term comes back exactly as the server sent it (IRI, blank node, literal with
// datatype or language); a malformed document is an error naming where it breaks, never a
// shorter result.
#pragma once

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
[[nodiscard]] bool parse_json_results(std::string_view body, Results& out, std::string& error);

}  // namespace provio::sparql
