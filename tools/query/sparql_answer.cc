// A SPARQL answer as prov-query's table (see sparql_answer.h).
#include "query/sparql_answer.h"

#include "graph/vocabulary.h"

namespace provio::query {

Cell to_cell(const sparql::Term& t) {
  switch (t.kind) {
    case sparql::Term::Kind::kIri: return Cell::iri(t.value);
    case sparql::Term::Kind::kBlank: return {Cell::Kind::kBlank, t.value, {}, {}};
    case sparql::Term::Kind::kLiteral: break;
  }
  // RDF 1.1: a simple literal is an xsd:string; the local graph spells it without a datatype.
  std::string dt = t.datatype == std::string(rdf::kXsd) + "string" ? "" : t.datatype;
  return {Cell::Kind::kLiteral, t.value, dt, t.lang};
}

Table results_table(const sparql::Results& r) {
  Table out;
  if (r.is_boolean) {
    out.columns = {"boolean"};
    out.rows.push_back(
        {Cell{Cell::Kind::kLiteral, r.boolean ? "true" : "false", std::string(rdf::kXsd) + "boolean", {}}});
    return out;
  }
  out.columns = r.vars;
  for (const auto& row : r.rows) {
    auto& cells = out.rows.emplace_back();
    for (const auto& t : row) cells.push_back(t ? to_cell(*t) : Cell::unbound());
  }
  return out;
}

bool answer_table(const std::string& body, bool graph_form, Table& out, std::string& error) {
  if (graph_form) {
    std::vector<sparql::Triple> ts;
    if (!sparql::parse_ntriples(body, ts, error)) return false;
    out = Table{};
    out.columns = {"subject", "predicate", "object"};
    for (const auto& t : ts) out.rows.push_back({to_cell(t[0]), to_cell(t[1]), to_cell(t[2])});
    return true;
  }
  sparql::Results r;
  if (!sparql::parse_xml_results(body, r, error)) return false;
  out = results_table(r);
  return true;
}

}  // namespace provio::query
