// A provenance graph loaded for querying. Merged files, raw provenance directories, a mix of them
// and damaged files are read, completed and folded by prov-merge's engine (common/merge.h) and
// held in MemGraph (interned terms, sorted triple indexes); a Redland store written by prov-merge
// is opened in Redland (hashes, bdb). SPARQL always runs in Redland: the folded graph is loaded
// into a hashes-memory model on demand, so SPARQL and the built-in questions see the same facts.
// Hard rule: nothing here throws or prints; every failure is a Status naming what and where.
#pragma once

#include <redland.h>

#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "common/graph.h"
#include "mem_graph.h"
#include "remote_graph.h"
#include "table.h"

namespace provio::query {

struct [[nodiscard]] Status {
  bool ok = true;
  std::string message;  // "what: where: why", without the tool name
  static Status success() { return {}; }
  static Status error(std::string m) { return {false, std::move(m)}; }
};

// Well-known namespaces.
inline constexpr std::string_view kProv = "http://www.w3.org/ns/prov#";
inline constexpr std::string_view kProvio = "http://www.w3.org/ns/provio#";
inline constexpr std::string_view kRdf = "http://www.w3.org/1999/02/22-rdf-syntax-ns#";
inline constexpr std::string_view kRdfs = "http://www.w3.org/2000/01/rdf-schema#";
inline constexpr std::string_view kXsdNs = "http://www.w3.org/2001/XMLSchema#";

// The PREFIX lines prepended to every SPARQL query.
extern const char* const kSparqlPrefixes;

inline std::string prov(std::string_view local) {
  return std::string(kProv).append(local);
}
inline std::string provio(std::string_view local) {
  return std::string(kProvio).append(local);
}
inline std::string rdf_type() {
  return std::string(kRdf) + "type";
}

class Graph {
 public:
  Graph();
  ~Graph();
  Graph(const Graph&) = delete;
  Graph& operator=(const Graph&) = delete;

  // Loads every input: files (merged or raw; Turtle, N-Triples), directories of raw per-thread
  // files (searched recursively), or a prov-merge store directory (one holding <name>-sp2o.db;
  // see docs/prov-query.md), which must be the only input. Damaged input is not an error: what
  // is whole is loaded and messages() names what was dropped, exactly as prov-merge reports it.
  Status load(const std::vector<std::string>& inputs);
  // Holds a graph already read and folded (prov-merge's, to index the store it has just written
  // at `store_dir` without reading it back; "" for none).
  Status hold(std::unique_ptr<rdf::Graph> graph, const std::string& store_dir);
  // What load() reports as prov-merge does, "path[:line]: text" each (damage, unfinished runs).
  const std::vector<std::string>& messages() const { return messages_; }
  // Whether load() dropped or skipped something of its input.
  bool damaged() const { return damaged_; }
  // Opens the union of provio's job graphs on a SPARQL 1.1 server instead (remote_graph.h).
  Status open_endpoint(const std::string& query_url, const std::string& credentials);

  // Question rounds: a graph on a server answers a fact it has not fetched yet as absent and
  // notes it; after a round that missed something, fetch_missing() fetches it all and the
  // question is asked again. Local graphs never miss.
  void begin_round() {
    if (remote_) remote_->begin_round();
  }
  bool missed() const { return remote_ && remote_->missed(); }
  Status fetch_missing();

  // Runs a SPARQL query (prefixes predeclared). SELECT → its bindings; ASK → one column
  // "boolean"; CONSTRUCT/DESCRIBE → columns subject, predicate, object.
  Status sparql(std::string_view text, Table& out);

  // Navigation through the store's indexes. `objects` returns the objects of (s, p, *),
  // `subjects` the subjects of (*, p, o) with o an IRI.
  std::vector<Cell> objects(std::string_view s, std::string_view p) const;
  std::vector<std::string> subjects(std::string_view p, std::string_view o) const;
  // First object value of (s, p, *), or "" when none.
  std::string value(std::string_view s, std::string_view p) const;
  bool has(std::string_view s, std::string_view p, std::string_view o_iri) const;
  bool has_subject(std::string_view s) const;
  bool has_object(std::string_view o) const;

  std::size_t size() const;
  // The prov-merge store directory when the input is one, else "".
  const std::string& store_dir() const { return store_dir_; }
  librdf_world* world() const { return world_; }
  librdf_model* model() const { return model_; }

 private:
  Status open_storage(const std::string& options, const char* name);
  Status take_error(std::string_view what);
  Status load_redland();

  librdf_world* world_ = nullptr;
  librdf_storage* storage_ = nullptr;
  librdf_model* model_ = nullptr;
  std::string first_error_;  // filled by the Redland logger
  std::string store_dir_;
  std::unique_ptr<rdf::Graph> folded_;  // what load() read and folded; Redland gets it for SPARQL
  std::unique_ptr<MemGraph> mem_;       // its indexes, for navigation
  std::unique_ptr<RemoteGraph> remote_;
  std::vector<std::string> messages_;
  bool damaged_ = false;
  int line_offset_ = 0;  // lines of prepended prefixes, subtracted from query error lines
  friend int log_handler(void*, librdf_log_message*);
};

// Converts a Redland node to a Cell (nullptr → unbound).
Cell to_cell(librdf_node* node);

}  // namespace provio::query
