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

#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "graph/graph.h"
#include "graph/status.h"

namespace provio::query {

// Below this many triples node runs the engine's WebAssembly in V8's baseline compiler only
// (--liftoff-only): the optimising tier compiles the whole module in the background, ~0.33 CPU s
// whatever the graph, which at 2 k triples is two thirds of the query (0.50 -> 0.17 CPU s); from
// ~75 k triples on, the optimised code wins it back (100 k triples: 0.68 s optimised, 0.78 s
// baseline). Measured on bench/query/gen.py's graphs, node 20.
inline constexpr std::size_t kBaselineOnlyBelow = 50'000;

// One query on the engine, started before the graph is read: the engine parses the query first
// and says which predicates it can match, so the graph's reader can leave out every other triple
// when that is exact (docs/sparql.md, "Reading only what the query can match").
class OxigraphQuery {
 public:
  OxigraphQuery();
  ~OxigraphQuery();  // an engine still running gets end of input and is waited for
  OxigraphQuery(const OxigraphQuery&) = delete;
  OxigraphQuery& operator=(const OxigraphQuery&) = delete;

  // Starts the engine on `query` (`prefix_lines` lines prepended to the user's text, subtracted
  // from the engine's line numbers). `small_graph`: the graph is small (below kBaselineOnlyBelow
  // triples: the engine then runs in V8's baseline compiler only). Fails for a query the engine
  // refuses ("malformed SPARQL: LINE:COLUMN: …") or an engine that cannot run.
  rdf::Status start(std::string_view query, int prefix_lines, bool small_graph);
  // After start(): the predicate terms ("<iri>") the query can match, or nullopt when any triple
  // may matter.
  const std::optional<std::vector<std::string>>& predicates() const { return predicates_; }
  // Sends `graph`'s triples with those predicates, and reads the answer: SPARQL Query Results XML
  // (SELECT, ASK) or N-Triples (CONSTRUCT, DESCRIBE).
  rdf::Status answer(const rdf::Graph& graph, std::string& body);

 private:
  struct Run;
  std::unique_ptr<Run> run_;
  std::optional<std::vector<std::string>> predicates_;
};

}  // namespace provio::query
