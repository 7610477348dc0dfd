// Fuzz target: the core's IRI and literal escapers on any bytes (a file name, a workflow value).
// The statement they make must be valid N-Triples; the literal reads back as the input when the
// input is UTF-8; percent-encoding round-trips.
#include <cstdint>
#include <string>
#include <string_view>

#include "fuzz_check.h"
#include "graph/terms.h"
#include "model/iri.h"
#include "store/turtle.h"

using provio::fuzz::require;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  std::string_view in(reinterpret_cast<const char*>(data), size);
  std::string encoded;
  provio::model::append_percent_encoded(encoded, in, true);
  require(provio::model::percent_decode(encoded) == in, "percent-encoding does not round-trip");

  std::string statement;
  provio::model::append_iri_term(statement, provio::model::file_iri(in));
  statement += " <urn:p> \"";
  provio::store::append_escaped_string(statement, in);
  statement += "\" .\n";
  std::string literal;
  require(provio::fuzz::parse_ntriples(statement, &literal) == 1, "the statement does not parse");
  // Raptor (2.0.15) cuts a literal at an escaped U+0000 ("a\u0000b" reads as "a"; rdflib reads
  // all of it), so text with a NUL is only required to parse.
  bool raptor_can_tell = in.find('\0') == std::string_view::npos;
  if (raptor_can_tell && provio::rdf::valid_utf8(in))
    require(literal == in, "the literal does not read back as written");
  return 0;
}
