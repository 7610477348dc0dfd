// A lean Turtle writer, appended to a caller-owned string: one subject block per line
// (`S p o ; p o , o .`, prefixed names declared by the caller), or a single statement. Used at
// flush time, never on the recording path.
//
// Hard rule: a block is written whole or not at all. A term that cannot be written (an empty
// IRI) marks the block bad, and end() rolls the buffer back to where the block began, so a reader
// that loses a line loses exactly one block.
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
  // Bare Turtle numbers (xsd:integer, xsd:decimal): the raw files' compact measures; the
  // property's range in provio.ttl gives their datatype in merged graphs (docs/format.md).
  Turtle& integer(std::int64_t n);  // 42
  // After an object: " ; " and the next predicate of the same subject (after the subject alone:
  // its first predicate).
  Turtle& pred(std::string_view predicate);
  // Pre-formatted "p o ; p o" pairs continuing the block (after an object: " ; " first; after
  // the subject alone: " "). For the writer's own numbers, built in one buffer and appended once.
  Turtle& more(std::string_view pairs);
  // After an object: " , " before another object of the same predicate.
  Turtle& also();
  // Ends the block: " .\n", or rolls it back if a term was bad. Returns whether it was kept.
  bool end();

 private:
  void sep();

  std::string& out_;
  std::size_t start_;
  int terms_ = 0;  // terms of the current triple: 0 subject, 1 predicate, 2 object, 3 complete
  bool bad_ = false;
};

// Appends `local` as the local part of a prefixed name (after "prefix:"), with the characters
// Turtle's PN_LOCAL does not allow bare backslash-escaped. `local` is already percent-encoded
// (an IRI piece); false (nothing appended) if it holds a byte a local name cannot carry at all, or
// ends in '.' (rdflib 6.1 takes a last "\." for the end of the statement): the caller then writes
// the full IRI.
bool append_local_name(std::string& out, std::string_view local);

// Escapes `text` as the body of a Turtle "…" string (exposed for tests and the tools).
void append_escaped_string(std::string& out, std::string_view text);
// xsd:dateTime lexical form of a wall-clock time in ns since the epoch, UTC, microseconds.
void append_datetime(std::string& out, std::uint64_t ns);
// The UTC calendar time of `secs` after the Unix epoch, computed without libc (no lock).
struct UtcTime {
  std::uint64_t year;
  unsigned month, day, hour, minute, second;
};
UtcTime utc_time(std::uint64_t secs);

}  // namespace provio::store
