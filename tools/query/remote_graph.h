// The graph of a SPARQL 1.1 server (prov-query --endpoint): the union of provio's job graphs,
// navigated through the same calls as a local graph, so every question runs through its one
// implementation (view, lineage, questions) whatever holds the graph.
//
// How: navigation answers from a cache of facts fetched from the server. A fact not fetched yet
// is noted as missing and answered as absent; the caller (prov-query's question loop) then
// fetches everything missing in a few batched SPARQL queries and asks the question again, until
// a round misses nothing. Only that last round's answer is used, and in it every fact came from
// the server: the answer is exactly the local one. Rounds grow with the depth of the question
// (lineage levels), not with the size of the graph; a class (rdf:type C) is fetched with the
// descriptions of its members, which is what every question reads next.
// Hard rule: a fact is either fetched completely (all objects of a subject, all subjects of a
// (predicate, object)) or not at all, so an incomplete cache can never give a shorter answer.
#pragma once

#include <map>
#include <memory>
#include <set>
#include <string>
#include <string_view>
#include <unordered_map>
#include <utility>
#include <vector>

#include "query/activity_groups.h"
#include "query/source.h"
#include "query/table.h"
#include "sparql/sparql_server.h"

namespace provio::query {

class RemoteGraph : public Source {
 public:
  RemoteGraph(sparql::Endpoints endpoints, net::Auth auth);
  // Checks the credentials file and that the server answers.
  bool open(std::string& error);

  std::vector<Cell> objects(std::string_view s, std::string_view p) const override;
  std::vector<std::string> subjects(std::string_view p, std::string_view o) const override;
  bool has_subject(std::string_view s) const override;
  bool has_object(std::string_view o) const override;
  std::size_t size() const override;
  // The I/O activities summed by the server (activity_groups.h); null, and noted as missing,
  // until fetched.
  const std::vector<ActivityGroup>* activity_groups(const ActivityGrouping& grouping) const;

  // Question rounds (see above).
  void begin_round() override { missed_ = false; }
  bool missed() const override { return missed_; }
  rdf::Status fetch_missing() override;

  // Raw SPARQL through the SPARQL 1.1 Protocol over the union of the job graphs.
  rdf::Status sparql(std::string_view text, Table& out) override;

 private:
  bool run_query(const std::string& query, Table& out, std::string& error);
  bool fetch_subjects(std::vector<std::string> keys, std::string& error);
  bool fetch_classes(std::vector<std::string> classes, std::string& error);
  bool fetch_incoming(std::vector<std::pair<std::string, std::string>> keys, std::string& error);
  bool fetch_presence(std::vector<std::string> objects, std::string& error);
  void add_out(const sparql::Triple& t);

  std::unique_ptr<net::Client> http_;
  std::unique_ptr<sparql::Server> server_;
  // Complete facts: a key present here holds all of its values.
  std::unordered_map<std::string, std::vector<std::pair<std::string, Cell>>> out_;  // s → (p, o)
  std::unordered_map<std::string, std::vector<std::string>> in_;                    // p \n o → s
  std::unordered_map<std::string, bool> present_;                                   // o → any (*, *, o)
  std::map<ActivityGrouping, std::vector<ActivityGroup>> groups_;
  std::set<std::string> whole_;  // predicates fetched whole: in_ holds all their (p, o) facts
  // Facts asked for and not fetched yet.
  mutable std::set<std::string> want_out_, want_class_, want_present_;
  mutable std::set<std::pair<std::string, std::string>> want_in_;
  mutable std::set<ActivityGrouping> want_groups_;
  mutable bool missed_ = false;
  mutable std::size_t size_ = 0;
  mutable bool sized_ = false;
};

}  // namespace provio::query
