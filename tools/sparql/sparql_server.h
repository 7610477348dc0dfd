// A SPARQL 1.1 server as the tools use it: queries through the SPARQL 1.1 Protocol, removal
// through SPARQL 1.1 Update, loading through the SPARQL 1.1 Graph Store HTTP Protocol. Each job
// is one named graph whose IRI starts with kGraphPrefix; questions read the union of those.
//
// Hard rule: terms come back exactly. Some stores keep xsd:double as a machine double and print
// it short (Virtuoso 7: six digits in N-Triples and JSON). Triples are therefore read as
// N-Triples (CONSTRUCT: the fastest answer a server writes, five times Virtuoso's XML results)
// and every xsd:double among them is read again with STR(?o), the store's full lexical form,
// then written in the shortest form that reads back as the same double.
#pragma once

#include <array>
#include <map>
#include <string>
#include <vector>

#include "net/http.h"
#include "sparql/sparql_results.h"

namespace provio::sparql {

inline constexpr const char* kGraphPrefix = "urn:provio:graph:";

// The server's three URLs. Missing ones are derived from a given one by the conventions of
// Virtuoso (/sparql-graph-crud-auth, /sparql-auth), Jena Fuseki (/DS/data, /DS/update,
// /DS/query) and GraphDB (/repositories/R/rdf-graphs/service, /statements, /repositories/R).
struct Endpoints {
  std::string query, update, store;  // SPARQL query, SPARQL Update, Graph Store Protocol
};
[[nodiscard]] bool complete_endpoints(Endpoints& e, std::string& error);

class Server {
 public:
  Server(Endpoints e, net::Client& http) : e_(std::move(e)), http_(http) {}
  const Endpoints& endpoints() const { return e_; }

  // SELECT or ASK; `default_graphs` become default-graph-uri parameters. Here and in triples(),
  // IRIs come back in full, and IRIs written with iri_ref() go out in the form the server holds
  // (long_iri.h); query() answers as the server holds them.
  [[nodiscard]] bool select(const std::string& query, Results& out, std::string& error,
                            const std::vector<std::string>& default_graphs = {});
  // Any query; the raw answer (XML results for SELECT/ASK, N-Triples for CONSTRUCT/DESCRIBE).
  [[nodiscard]] bool query(const std::string& query, net::Response& out, std::string& error,
                           const std::vector<std::string>& default_graphs = {});
  // Its form: "SELECT", "ASK", "CONSTRUCT", "DESCRIBE" (the keyword after the prologue).
  static std::string form(const std::string& query);
  // Virtuoso 7 answers ASK as a table (column __ASK_RETVAL: one row holding 1 for true, no row
  // for false): makes such an answer to an ASK `query` a boolean.
  static void read_ask(const std::string& query, Results& r);
  [[nodiscard]] bool update(const std::string& text, std::string& error);
  // Graph Store Protocol: PUT replaces the graph, POST adds to it. `turtle` is Turtle (N-Triples
  // is Turtle too), sent as text/turtle, the format every Graph Store must accept. Loading with
  // update, the same through SPARQL 1.1 Update instead (CLEAR SILENT GRAPH, then INSERT DATA in
  // one request; `turtle` must then be triples only, no @prefix): Virtuoso 7.2 over HTTPS never
  // answers an authenticated Graph Store write, and answers updates (docs/shared-store.md).
  void load_with_update(bool on) { by_update_ = on; }
  [[nodiscard]] bool put_graph(const std::string& graph, const std::string& turtle, std::string& error);
  [[nodiscard]] bool post_graph(const std::string& graph, const std::string& turtle, std::string& error);

  // The triples matching `where` (a group pattern binding ?s ?p ?o), terms exact.
  [[nodiscard]] bool triples(const std::string& where, std::vector<Triple>& out, std::string& error);
  // The provio job graphs on the server, sorted.
  [[nodiscard]] bool job_graphs(std::vector<std::string>& out, std::string& error);

 private:
  bool select_as_held(const std::string& query, Results& out, std::string& error,
                      const std::vector<std::string>& default_graphs = {});
  // Replaces short IRIs (long_iri.h) by their full IRIs, asking the server for those not known.
  bool restore_long_iris(const std::vector<Term*>& terms, std::string& error);
  void learn_full_iri(const std::string& short_iri, const std::string& full);
  bool send_graph(const char* method, const std::string& graph, const std::string& body, std::string& error);
  Endpoints e_;
  net::Client& http_;
  bool by_update_ = false;
  std::map<std::string, std::string> full_iris_;  // short IRI → full IRI
};

// `pattern` over the union of the job graphs: GRAPH ?g { pattern } FILTER(prefix of ?g).
std::string in_job_graphs(const std::string& pattern, const std::string& graph = "?g");
// <iri> for SPARQL text, in the form the server holds (long_iri.h; characters SPARQL forbids in
// an IRIREF are percent-encoded).
std::string iri_ref(const std::string& iri);

}  // namespace provio::sparql
