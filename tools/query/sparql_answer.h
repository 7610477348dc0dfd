// A SPARQL answer as prov-query's table, whoever computed it: a server behind --endpoint or the
// local engine (oxigraph.h) both answer in the SPARQL 1.1 Protocol's formats, read here once.
// Hard rule: every term keeps its kind, datatype and language; a simple literal (xsd:string) is
// spelled without a datatype, as the local graph spells it, so both inputs print the same rows.
#pragma once

#include <string>

#include "query/table.h"
#include "sparql/sparql_results.h"

namespace provio::query {

Cell to_cell(const sparql::Term& t);

// SELECT / ASK results (read by sparql::parse_xml_results) as a table; ASK is one column "boolean".
Table results_table(const sparql::Results& r);

// `body`, a SELECT / ASK answer in SPARQL Query Results XML or a CONSTRUCT / DESCRIBE answer in
// N-Triples (subject, predicate, object rows), as a table; false with the reason in `error`.
[[nodiscard]] bool answer_table(const std::string& body, bool graph_form, Table& out, std::string& error);

}  // namespace provio::query
