// prov-query's SPARQL 1.1 engine for local graphs: Oxigraph (a maintained SPARQL 1.1 Query
// implementation: property paths, NOT EXISTS / MINUS, subqueries, every aggregate, BIND, VALUES),
// through its JavaScript bindings under node. The graph is streamed to the engine as N-Triples
// and the answer comes back in the formats a SPARQL server speaks, so a local graph and
// --endpoint share one reader of answers (sparql_answer.h). Why Oxigraph and not Rasqal, Jena or
// Virtuoso: docs/sparql.md.
//
// Where the engine is: node is $PROVIO_NODE, else the node CMake found, else `node` on PATH;
// Oxigraph's package is $PROVIO_OXIGRAPH_DIR/node_modules/oxigraph, else under the directory
// CMake was given (PROVIO_OXIGRAPH_DIR, by default where scripts/setup.sh installs it).
// Hard rule: every failure (engine missing, query refused, engine died) is a Status naming
// what; a refused query keeps the engine's message with its line and column in the caller's text.
#pragma once

#include <string>
#include <string_view>

#include "graph/graph.h"
#include "graph/status.h"

namespace provio::query {

// Runs `query` over `graph`. `prefix_lines` is how many lines were prepended to the user's text
// (subtracted from the engine's line numbers). On success `body` is SPARQL Query Results XML
// (SELECT, ASK) or N-Triples (CONSTRUCT, DESCRIBE).
rdf::Status oxigraph_query(const rdf::Graph& graph, std::string_view query, int prefix_lines,
                           std::string& body);

}  // namespace provio::query
