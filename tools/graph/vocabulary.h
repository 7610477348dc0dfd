// The vocabulary the tools read and write, in the one canonical spelling the graph stores
// (graph.h): namespaces (from the core's model/vocabulary.h, so the writer and the tools cannot
// disagree), whole terms as N-Triples (`<iri>`, typed literals) and full IRIs for the questions.
// Hard rule: no other file of tools/ spells a namespace IRI; it names one from here.
#pragma once

#include <string>
#include <string_view>

#include "model/vocabulary.h"

namespace provio::rdf {

inline constexpr std::string_view kProv = model::kProvNs;
inline constexpr std::string_view kProvio = model::kProvioNs;
inline constexpr std::string_view kRdf = model::kRdfNs;
inline constexpr std::string_view kRdfs = model::kRdfsNs;
inline constexpr std::string_view kXsd = model::kXsdNs;

// The prefixes every tool writes and every SPARQL query gets predeclared, in this order.
struct Prefix {
  const char* name;  // NUL-terminated: raptor takes it as a C string
  std::string_view ns;
};
inline constexpr Prefix kPrefixes[] = {
    {"rdf", kRdf}, {"rdfs", kRdfs}, {"xsd", kXsd}, {"prov", kProv}, {"provio", kProvio},
};

// rdf:type as a term: compared on every triple by the writers and the completion, so spelled once
// as a constant (checked against the namespace below).
inline constexpr std::string_view kRdfTypeTerm = "<http://www.w3.org/1999/02/22-rdf-syntax-ns#type>";
static_assert(kRdfTypeTerm.substr(1, kRdf.size()) == kRdf && kRdfTypeTerm.substr(1 + kRdf.size()) == "type>");

// Full IRIs (for the questions): prov("used") is "http://www.w3.org/ns/prov#used".
inline std::string prov(std::string_view local) {
  return std::string(kProv).append(local);
}
inline std::string provio(std::string_view local) {
  return std::string(kProvio).append(local);
}
inline std::string rdf_type() {
  return std::string(kRdf).append("type");
}
inline std::string xsd(std::string_view local) {
  return std::string(kXsd).append(local);
}

// Canonical terms: term(kProvio, "count") is "<http://www.w3.org/ns/provio#count>";
// typed_literal("3", "unsignedLong") is "\"3\"^^<http://www.w3.org/2001/XMLSchema#unsignedLong>"
// (`lexical` must need no escaping: numbers, dates).
inline std::string term(std::string_view ns, std::string_view local) {
  std::string t = "<";
  t.append(ns).append(local) += '>';
  return t;
}
inline std::string typed_literal(std::string_view lexical, std::string_view xsd_local) {
  std::string t = "\"";
  t.append(lexical).append("\"^^<").append(kXsd).append(xsd_local) += '>';
  return t;
}

}  // namespace provio::rdf
