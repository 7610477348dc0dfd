// A folded graph in memory (see local_graph.h).
#include "query/local_graph.h"

#include <cctype>
#include <utility>

#include "graph/terms.h"
#include "query/sparql_answer.h"

namespace provio::query {

namespace {
// The graph, shrunk before its index is built beside it: the index replaces its table.
std::unique_ptr<rdf::Graph> shrunk(std::unique_ptr<rdf::Graph> graph) {
  graph->shrink();
  return graph;
}
}  // namespace

LocalGraph::LocalGraph(std::unique_ptr<rdf::Graph> graph)
    : graph_(shrunk(std::move(graph))), index_(*graph_) {}

Cell LocalGraph::cell(rdf::TermId id) const {
  // Terms are held in their canonical N-Triples spelling (graph/graph.h).
  std::string_view text = graph_->terms[id];
  if (auto lit = rdf::parse_literal(text)) {
    Cell c = Cell::text(std::move(lit->lexical));
    c.datatype = std::string(lit->datatype);
    c.lang = std::string(lit->lang);
    return c;
  }
  if (text.rfind("_:", 0) == 0) return Cell{Cell::Kind::kBlank, std::string(text.substr(2)), {}, {}};
  return Cell::iri(std::string(rdf::iri_body(text)));
}

std::vector<Cell> LocalGraph::objects(std::string_view s, std::string_view p) const {
  std::vector<Cell> out;
  for (const auto& a : index_.objects(index_.iri(s), index_.iri(p))) out.push_back(cell(a.t));
  return out;
}

std::vector<std::string> LocalGraph::subjects(std::string_view p, std::string_view o) const {
  std::vector<std::string> out;
  for (const auto& a : index_.subjects(index_.iri(p), index_.iri(o))) {
    std::string_view text = graph_->terms[a.t];
    if (text.front() == '<') out.emplace_back(rdf::iri_body(text));
  }
  return out;
}

bool LocalGraph::has_subject(std::string_view s) const {
  return index_.is_subject(index_.iri(s));
}

bool LocalGraph::has_object(std::string_view o) const {
  return index_.is_object(index_.iri(o));
}

std::size_t LocalGraph::size() const {
  return index_.size();
}

rdf::Status LocalGraph::sparql(std::string_view text, Table& out) {
  return sparql_on(*graph_, text, out);
}

rdf::Status SparqlQuery::start(std::string_view text, bool small_graph) {
  // Without trailing blank lines: Oxigraph places an error at the furthest point it parsed, often
  // the end of the text, which should be on the query's last line, not after it.
  std::string query = kSparqlPrefixes + std::string(text);
  while (!query.empty() && std::isspace(static_cast<unsigned char>(query.back()))) query.pop_back();
  return engine_.start(query, kSparqlPrefixLines, small_graph);
}

rdf::Status SparqlQuery::answer(const rdf::Graph& graph, Table& out) {
  std::string body, error;
  if (rdf::Status s = engine_.answer(graph, body); !s.ok) return s;
  if (!answer_table(body, body.rfind("<?xml", 0) != 0, out, error))
    return rdf::Status::error("SPARQL engine's answer unreadable: " + error);
  return rdf::Status::success();
}

rdf::Status sparql_on(const rdf::Graph& graph, std::string_view text, Table& out) {
  SparqlQuery q;
  if (rdf::Status s = q.start(text, graph.size() < kBaselineOnlyBelow); !s.ok) return s;
  return q.answer(graph, out);
}

}  // namespace provio::query
