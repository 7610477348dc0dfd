// Canonical N-Triples spelling of RDF terms (the form Graph stores), and reading measures back
// out of literals. See graph.h for why one spelling matters.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "graph/vocabulary.h"

namespace provio::rdf {

// <iri>: bytes that N-Triples forbids inside <…> are percent-encoded (as the core's writer does).
void append_iri(std::string& out, std::string_view iri);
// "text" with `datatype` (an IRI, may be empty) or `lang` (may be empty); xsd:string is dropped
// (RDF 1.1: a simple literal is an xsd:string).
void append_literal(std::string& out, std::string_view text, std::string_view datatype,
                    std::string_view lang);
// Escapes the body of a "…" literal (the same rules as the core's writer).
void append_escaped(std::string& out, std::string_view text);

// Pieces of a canonical literal term; nullopt if `term` is not a literal.
struct Literal {
  std::string lexical;        // unescaped
  std::string_view datatype;  // IRI without <>, empty if none
  std::string_view lang;
};
std::optional<Literal> parse_literal(std::string_view term);
// The same pieces without a copy: `lexical` views `term` when its body has no escape (measures,
// names: nearly every literal), else it views `scratch`, which holds the unescaped text. For loops
// over every measure of a graph, where parse_literal's allocation was most of the cost.
struct LiteralView {
  std::string_view lexical, datatype, lang;
};
std::optional<LiteralView> literal_view(std::string_view term, std::string& scratch);
// Body of an <iri> term (still escaped), or empty if `term` is not an IRI.
std::string_view iri_body(std::string_view term);

// Measures: xsd:unsignedLong text → value; xsd:double seconds ("12.000000345", exact to the ns
// for up to 9 decimals, otherwise rounded) → ns; xsd:dateTime → µs since the epoch.
std::optional<std::uint64_t> parse_u64(std::string_view text);
std::optional<std::uint64_t> parse_seconds_ns(std::string_view text);
std::optional<std::int64_t> parse_datetime_us(std::string_view text);
// ns → "s.nnnnnnnnn" (9 decimals).
std::string format_seconds(std::uint64_t ns);

// Valid UTF-8 (no overlong forms, surrogates or code points past U+10FFFF)?
bool valid_utf8(std::string_view s);
// An <iri> term RDF allows but raptor's N-Triples reader refuses: rdf:_ followed by anything but
// a positive number that fits an int (raptor takes every rdf:_ IRI for a container membership
// property). The readers drop statements with one, so whatever the tools write reads back.
bool raptor_refuses_iri(std::string_view term);
// The last `n` characters (code points) of UTF-8 `s`: cut on a character boundary.
std::string_view utf8_tail(std::string_view s, std::size_t n);
// Appends code point `cp` as UTF-8.
void append_utf8(std::string& out, std::uint32_t cp);

}  // namespace provio::rdf
