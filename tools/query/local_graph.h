// The back end of a graph read and folded in memory by the graph engine (graph/merge.h): files,
// raw directories, a mix of them, or the graph prov-merge has just folded. Navigation walks the
// engine's GraphIndex; SPARQL runs on Oxigraph (oxigraph.h), fed this same folded graph, so SPARQL
// and the built-in questions see the same facts.
#pragma once

#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "graph/graph.h"
#include "graph/graph_index.h"
#include "query/oxigraph.h"
#include "query/source.h"

namespace provio::query {

class LocalGraph : public Source {
 public:
  explicit LocalGraph(std::unique_ptr<rdf::Graph> graph);

  std::vector<Cell> objects(std::string_view s, std::string_view p) const override;
  std::vector<std::string> subjects(std::string_view p, std::string_view o) const override;
  bool has_subject(std::string_view s) const override;
  bool has_object(std::string_view o) const override;
  std::size_t size() const override;
  rdf::Status sparql(std::string_view text, Table& out) override;
  const rdf::Graph& graph() const { return *graph_; }

 private:
  Cell cell(rdf::TermId id) const;

  std::unique_ptr<rdf::Graph> graph_;
  rdf::GraphIndex index_;
};

// SPARQL `text` (prefixes predeclared) on Oxigraph, the one way a graph held here is asked SPARQL
// (LocalGraph, and a store read whole by StoreGraph): started before the graph is read, so the
// reader can leave out what the query cannot match (query_graph.h), then answered from the graph.
class SparqlQuery {
 public:
  // `small_graph`: see OxigraphQuery::start.
  rdf::Status start(std::string_view text, bool small_graph);
  // The predicate terms the query can match, or nullopt: any triple may matter.
  const std::optional<std::vector<std::string>>& predicates() const { return engine_.predicates(); }
  rdf::Status answer(const rdf::Graph& graph, Table& out);

 private:
  OxigraphQuery engine_;
};

// Runs SPARQL `text` (prefixes predeclared) over `graph`.
rdf::Status sparql_on(const rdf::Graph& graph, std::string_view text, Table& out);

}  // namespace provio::query
