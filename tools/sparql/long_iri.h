// Over-long IRIs on a SPARQL server. Virtuoso 7.2 keeps at most 1,879 characters of an IRI and
// replaces a longer one with a prefix plus an MD5 of its own: a file with a long path (percent-
// encoding triples a byte) would come back as another IRI, so a reload never finds its job
// unchanged and lineage through --endpoint loses the file. provio therefore sends every IRI
// longer than kLongIriBytes in a short form of its own, the same on every server:
//   <urn:provio:long-iri:sha256:HEX>  provio:fullIri  "the full IRI" .
// and the tools map it back whenever they read from a server (sparql_server.h). Local files,
// merged graphs and stores keep the full IRI: only the server sees the short form.
#pragma once

#include <string>
#include <string_view>

#include "graph/graph.h"

namespace provio::sparql {

// Well below Virtuoso's 1,879 characters, far above any IRI provio makes but a file's.
inline constexpr std::size_t kLongIriBytes = 1024;
inline constexpr std::string_view kShortIriPrefix = "urn:provio:long-iri:sha256:";

// The IRI the server holds for `iri` (itself unless longer than kLongIriBytes).
std::string server_iri(const std::string& iri);
bool is_short_iri(std::string_view iri);
// provio:fullIri, the predicate tying a short IRI to its full IRI (a plain literal).
std::string full_iri_predicate();

// `g` as the server holds it: long IRIs replaced by their short form, each with its fullIri
// triple. Returns g itself (moved) when it holds no long IRI.
rdf::Graph server_form(rdf::Graph&& g);

}  // namespace provio::sparql
