// The graph of a SPARQL server, fetched in rounds (see remote_graph.h).
#include "query/remote_graph.h"

#include <algorithm>
#include <map>

#include "graph/terms.h"
#include "query/source.h"
#include "query/sparql_answer.h"
#include "sparql/long_iri.h"

namespace provio::query {
namespace {

// Keys per VALUES block: small enough for any server's request limits, large enough that a
// round costs a handful of requests.
constexpr std::size_t kBatch = 400;
// A round missing this many (predicate, object) facts of one predicate fetches the predicate
// whole: one query instead of a thousand (stats asks for the relation of every activity).
constexpr std::size_t kWholePredicate = 1000;

std::string in_key(std::string_view p, std::string_view o) {
  std::string k(p);
  k += '\n';
  k.append(o);
  return k;
}

template <typename T, typename F>
bool in_batches(const std::vector<T>& keys, F f) {
  for (std::size_t b = 0; b < keys.size(); b += kBatch) {
    std::vector<T> part(keys.begin() + static_cast<long>(b),
                        keys.begin() + static_cast<long>(std::min(keys.size(), b + kBatch)));
    if (!f(part)) return false;
  }
  return true;
}

std::string values_of(const std::vector<std::string>& iris) {
  std::string v;
  // An empty key (a question looked up a term that is not there) is no IRI: "<>" is a relative
  // reference, which a server without a base IRI refuses (Oxigraph), and matches nothing anyway.
  for (const auto& i : iris)
    if (!i.empty()) v += sparql::iri_ref(i) + " ";
  return v;
}

}  // namespace

RemoteGraph::RemoteGraph(sparql::Endpoints endpoints, net::Auth auth)
    : http_(std::make_unique<net::Client>(std::move(auth))),
      server_(std::make_unique<sparql::Server>(std::move(endpoints), *http_)) {}

bool RemoteGraph::open(std::string& error) {
  if (!http_->ready(error)) return false;
  sparql::Results r;
  return server_->select("ASK { }", r, error);
}

std::vector<Cell> RemoteGraph::objects(std::string_view s, std::string_view p) const {
  std::vector<Cell> out;
  auto it = out_.find(std::string(s));
  if (it == out_.end()) {
    want_out_.emplace(s);
    missed_ = true;
    return out;
  }
  for (const auto& [pred, o] : it->second)
    if (pred == p) out.push_back(o);
  return out;
}

std::vector<std::string> RemoteGraph::subjects(std::string_view p, std::string_view o) const {
  auto it = in_.find(in_key(p, o));
  if (it != in_.end()) return it->second;
  if (whole_.count(std::string(p))) return {};
  if (p == rdf_type())
    want_class_.emplace(o);
  else
    want_in_.emplace(p, o);
  missed_ = true;
  return {};
}

bool RemoteGraph::has_subject(std::string_view s) const {
  auto it = out_.find(std::string(s));
  if (it != out_.end()) return !it->second.empty();
  want_out_.emplace(s);
  missed_ = true;
  return false;
}

bool RemoteGraph::has_object(std::string_view o) const {
  auto it = present_.find(std::string(o));
  if (it != present_.end()) return it->second;
  want_present_.emplace(o);
  missed_ = true;
  return false;
}

std::size_t RemoteGraph::size() const {
  if (sized_) return size_;
  sparql::Results r;
  std::string error;
  // Not counting the short IRIs' fullIri triples (long_iri.h): the graph's size is the local one.
  if (server_->select("SELECT (COUNT(*) AS ?n) WHERE { " + sparql::in_job_graphs("?s ?p ?o") +
                          " FILTER(?p != <" + sparql::full_iri_predicate() + ">) }",
                      r, error) &&
      !r.rows.empty() && r.rows[0].size() == 1 && r.rows[0][0])
    size_ = rdf::parse_u64(r.rows[0][0]->value).value_or(0);
  sized_ = true;
  return size_;
}

const std::vector<ActivityGroup>* RemoteGraph::activity_groups(const ActivityGrouping& grouping) const {
  auto it = groups_.find(grouping);
  if (it != groups_.end()) return &it->second;
  want_groups_.insert(grouping);
  missed_ = true;
  return nullptr;
}

void RemoteGraph::add_out(const sparql::Triple& t) {
  auto& v = out_[t[0].value];
  v.emplace_back(t[1].value, to_cell(t[2]));
}

bool RemoteGraph::fetch_subjects(std::vector<std::string> keys, std::string& error) {
  return in_batches(keys, [&](const std::vector<std::string>& part) {
    std::vector<sparql::Triple> ts;
    if (!server_->triples("VALUES ?s { " + values_of(part) + "} " + sparql::in_job_graphs("?s ?p ?o"), ts,
                          error))
      return false;
    for (const auto& s : part) out_[s];
    for (const auto& t : ts) add_out(t);
    return true;
  });
}

// The members of each class with everything said about them (in any job graph).
bool RemoteGraph::fetch_classes(std::vector<std::string> classes, std::string& error) {
  for (const std::string& c : classes) {
    std::vector<sparql::Triple> ts;
    std::string where = "GRAPH ?h { ?s a " + sparql::iri_ref(c) + " } FILTER(STRSTARTS(STR(?h), \"" +
                        sparql::kGraphPrefix + "\")) " + sparql::in_job_graphs("?s ?p ?o");
    if (!server_->triples(where, ts, error)) return false;
    std::set<std::string> members, fresh;
    for (const auto& t : ts)
      if (t[0].kind == sparql::Term::Kind::kIri && t[1].value == rdf_type() && t[2].value == c)
        members.insert(t[0].value);
    // A subject fetched before is complete already: only the others take these triples.
    for (const auto& m : members)
      if (out_.try_emplace(m).second) fresh.insert(m);
    for (const auto& t : ts)
      if (fresh.count(t[0].value)) add_out(t);
    in_[in_key(rdf_type(), c)].assign(members.begin(), members.end());
  }
  return true;
}

bool RemoteGraph::fetch_incoming(std::vector<std::pair<std::string, std::string>> keys, std::string& error) {
  std::map<std::string, std::size_t> per_predicate;
  for (const auto& k : keys) ++per_predicate[k.first];
  for (const auto& [p, n] : per_predicate) {
    if (n < kWholePredicate) continue;
    std::vector<sparql::Triple> ts;
    if (!server_->triples("BIND(" + sparql::iri_ref(p) + " AS ?p) " + sparql::in_job_graphs("?s ?p ?o"), ts,
                          error))
      return false;
    for (const auto& t : ts)
      if (t[0].kind == sparql::Term::Kind::kIri && t[2].kind == sparql::Term::Kind::kIri)
        in_[in_key(t[1].value, t[2].value)].push_back(t[0].value);
    whole_.insert(p);
  }
  keys.erase(
      std::remove_if(keys.begin(), keys.end(), [&](const auto& k) { return whole_.count(k.first) != 0; }),
      keys.end());
  return in_batches(keys, [&](const std::vector<std::pair<std::string, std::string>>& part) {
    std::string values = "VALUES (?p ?o) { ";
    for (const auto& [p, o] : part) values += "(" + sparql::iri_ref(p) + " " + sparql::iri_ref(o) + ") ";
    std::vector<sparql::Triple> ts;
    if (!server_->triples(values + "} " + sparql::in_job_graphs("?s ?p ?o"), ts, error)) return false;
    for (const auto& [p, o] : part) in_[in_key(p, o)];
    for (const auto& t : ts)
      if (t[0].kind == sparql::Term::Kind::kIri) in_[in_key(t[1].value, t[2].value)].push_back(t[0].value);
    return true;
  });
}

bool RemoteGraph::fetch_presence(std::vector<std::string> objects, std::string& error) {
  return in_batches(objects, [&](const std::vector<std::string>& part) {
    sparql::Results r;
    if (!server_->select("SELECT DISTINCT ?o WHERE { VALUES ?o { " + values_of(part) + "} " +
                             sparql::in_job_graphs("?s ?p ?o") + " }",
                         r, error))
      return false;
    for (const auto& o : part) present_[o] = false;
    for (const auto& row : r.rows)
      if (!row.empty() && row[0]) present_[row[0]->value] = true;
    return true;
  });
}

rdf::Status RemoteGraph::fetch_missing() {
  std::string error;
  auto take = [](auto& set) {
    std::vector<typename std::decay_t<decltype(set)>::value_type> v(set.begin(), set.end());
    set.clear();
    return v;
  };
  auto classes = take(want_class_);
  auto incoming = take(want_in_);
  auto present = take(want_present_);
  bool ok =
      fetch_classes(classes, error) && fetch_incoming(incoming, error) && fetch_presence(present, error);
  for (const auto& grouping : take(want_groups_))
    ok = ok && fetch_activity_groups(*server_, grouping, groups_[grouping], error);
  // Classes bring their members' descriptions: fetch only the subjects still unknown.
  std::vector<std::string> subjects;
  for (auto& s : take(want_out_))
    if (!out_.count(s)) subjects.push_back(std::move(s));
  ok = ok && fetch_subjects(subjects, error);
  // Deduplicate: a triple held by several job graphs comes back once per graph.
  for (auto& [s, v] : out_) {
    std::sort(v.begin(), v.end(), [](const auto& a, const auto& b) {
      return std::tie(a.first, a.second.value, a.second.datatype, a.second.lang, a.second.kind) <
             std::tie(b.first, b.second.value, b.second.datatype, b.second.lang, b.second.kind);
    });
    v.erase(std::unique(v.begin(), v.end(),
                        [](const auto& a, const auto& b) {
                          return a.first == b.first && a.second.value == b.second.value &&
                                 a.second.datatype == b.second.datatype && a.second.lang == b.second.lang &&
                                 a.second.kind == b.second.kind;
                        }),
            v.end());
  }
  for (auto& [k, v] : in_) {
    std::sort(v.begin(), v.end());
    v.erase(std::unique(v.begin(), v.end()), v.end());
  }
  return ok ? rdf::Status::success() : rdf::Status::error(error);
}

rdf::Status RemoteGraph::sparql(std::string_view text, Table& out) {
  std::string error;
  if (!run_query(std::string(text), out, error)) return rdf::Status::error("SPARQL query failed: " + error);
  return rdf::Status::success();
}

bool RemoteGraph::run_query(const std::string& query, Table& out, std::string& error) {
  std::vector<std::string> graphs;
  if (!server_->job_graphs(graphs, error)) return false;
  net::Response resp;
  if (!server_->query(kSparqlPrefixes + query, resp, error, graphs)) return false;
  if (resp.content_type.find("xml") == std::string::npos) return answer_table(resp.body, true, out, error);
  sparql::Results r;
  if (!sparql::parse_xml_results(resp.body, r, error)) return false;
  sparql::Server::read_ask(query, r);
  out = results_table(r);
  return true;
}

}  // namespace provio::query
