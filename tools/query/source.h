// Where a QueryGraph's facts come from: one back end per kind of input, chosen once when the
// input is opened (query_graph.h) — a graph read and folded in memory (local_graph.h), a
// prov-merge store (store_graph.h), the job graphs of a SPARQL 1.1 server (remote_graph.h).
// Hard rule: every back end answers the same navigation with the same facts, so every question
// (view, lineage, questions) has one implementation whatever holds the graph.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

#include "graph/status.h"
#include "graph/vocabulary.h"
#include "query/table.h"

namespace provio::query {

// The questions use the graph engine's error type and vocabulary as their own.
using rdf::kRdfs;
using rdf::kXsd;
using rdf::prov;
using rdf::provio;
using rdf::rdf_type;
using rdf::Status;

// The PREFIX lines prepended to every SPARQL query (rdf::kPrefixes), and how many lines they are.
extern const std::string kSparqlPrefixes;
extern const int kSparqlPrefixLines;

class Source {
 public:
  virtual ~Source() = default;

  // `objects` returns the objects of (s, p, *), `subjects` the subjects of (*, p, o) with o an
  // IRI; `value` the first object of (s, p, *), or "" when none.
  virtual std::vector<Cell> objects(std::string_view s, std::string_view p) const = 0;
  virtual std::vector<std::string> subjects(std::string_view p, std::string_view o) const = 0;
  virtual std::string value(std::string_view s, std::string_view p) const;
  virtual bool has_subject(std::string_view s) const = 0;
  virtual bool has_object(std::string_view o) const = 0;
  virtual std::size_t size() const = 0;

  // Runs a SPARQL query (prefixes predeclared). SELECT → its bindings; ASK → one column
  // "boolean"; CONSTRUCT/DESCRIBE → columns subject, predicate, object.
  virtual rdf::Status sparql(std::string_view text, Table& out) = 0;

  // Question rounds (remote_graph.h): a back end that answers a fact it has not fetched yet as
  // absent says so in missed(); fetch_missing() then fetches it all. Local back ends never miss.
  virtual void begin_round() {}
  virtual bool missed() const { return false; }
  virtual rdf::Status fetch_missing() { return rdf::Status::success(); }
};

}  // namespace provio::query
