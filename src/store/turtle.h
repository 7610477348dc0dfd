// A lean Turtle statement writer: one statement per line (the N-Triples subset of Turtle, with
// the prefixed names declared in the file header), appended to a caller-owned string. Used at
// flush time, never on the recording path.
//
// Hard rule: a statement is written whole or not at all. A term that cannot be written (an empty
// IRI) marks the statement bad, and end() rolls the buffer back to where the statement began.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

namespace provio::store {

class Turtle {
 public:
  explicit Turtle(std::string& out) : out_(out), start_(out.size()) {}

  Turtle& iri(std::string_view iri);  // <iri>, IRIREF-illegal bytes percent-encoded
  // A term written verbatim: a prefixed name (prov:used) or an IRI term already made by
  // model::append_iri_term (model::Entity::term). Saves re-scanning IRIs on every statement.
  Turtle& name(std::string_view term);
  Turtle& str(std::string_view text);  // "text", escaped; invalid UTF-8 becomes U+FFFD
  Turtle& u64(std::uint64_t n);        // "n"^^xsd:unsignedLong
  Turtle& i64(std::int64_t n);         // "n"^^xsd:long
  Turtle& dbl(double v);               // "v"^^xsd:double (NaN, INF, -INF as XSD spells them)
  Turtle& seconds(std::uint64_t ns);   // ns as "s.nnnnnnnnn"^^xsd:double, exact to the ns
  Turtle& time(std::uint64_t ns);      // "YYYY-MM-DDThh:mm:ss.uuuuuuZ"^^xsd:dateTime
  Turtle& boolean(bool b);             // "true"^^xsd:boolean
  // Ends the statement: " .\n", or rolls it back if a term was bad. Returns whether it was kept.
  bool end();

 private:
  void sep();

  std::string& out_;
  std::size_t start_;
  int terms_ = 0;
  bool bad_ = false;
};

// Escapes `text` as the body of a Turtle "…" string (exposed for tests and the tools).
void append_escaped_string(std::string& out, std::string_view text);
// xsd:dateTime lexical form of a wall-clock time in ns since the epoch, UTC, microseconds.
void append_datetime(std::string& out, std::uint64_t ns);

}  // namespace provio::store
