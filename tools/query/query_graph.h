// A provenance graph loaded for querying. Merged files, raw provenance directories, a mix of them
// and damaged files are read, completed and folded by the graph engine (graph/merge.h) and walked
// through its GraphIndex; a Redland store written by prov-merge is opened in Redland (hashes,
// bdb); a SPARQL 1.1 server through RemoteGraph. SPARQL over a folded graph or a store runs on
// Oxigraph (oxigraph.h), fed the folded graph, so SPARQL and the built-in questions see the same
// facts.
// Hard rule: nothing here throws or prints; every failure is a Status naming what and where.
#pragma once

#include <redland.h>

#include <functional>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "cli/trust.h"
#include "graph/graph.h"
#include "graph/graph_index.h"
#include "graph/status.h"
#include "graph/vocabulary.h"
#include "query/remote_graph.h"
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

class QueryGraph {
 public:
  QueryGraph();
  ~QueryGraph();
  QueryGraph(const QueryGraph&) = delete;
  QueryGraph& operator=(const QueryGraph&) = delete;

  // Loads every input: files (merged or raw; Turtle, N-Triples), directories of raw per-thread
  // files (searched recursively), or a prov-merge store directory (graph/store_layout.h), which
  // must be the only input. Damaged input is not an error: what is whole is loaded and
  // messages() names what was dropped, exactly as prov-merge reports it. An input another user
  // could have planted (cli/trust.h) is refused, or with OtherOwners::kWarn read with a warning.
  Status load(const std::vector<std::string>& inputs,
              tools::OtherOwners other_owners = tools::OtherOwners::kRefuse);
  // Holds a graph already read and folded (prov-merge's, to index the store it has just written
  // at `store_dir` without reading it back; "" for none).
  Status hold(std::unique_ptr<rdf::Graph> graph, const std::string& store_dir);
  // What load() reports as prov-merge does, "path[:line]: text" each (damage, unfinished runs).
  const std::vector<std::string>& messages() const { return messages_; }
  // Whether load() dropped or skipped something of its input.
  bool damaged() const { return damaged_; }
  // Opens the union of provio's job graphs on a SPARQL 1.1 server instead (remote_graph.h).
  Status open_endpoint(const std::string& query_url, net::Auth auth);

  // Question rounds: a graph on a server answers a fact it has not fetched yet as absent and
  // notes it; after a round that missed something, fetch_missing() fetches it all and the
  // question is asked again. Local graphs never miss.
  void begin_round() {
    if (remote_) remote_->begin_round();
  }
  bool missed() const { return remote_ && remote_->missed(); }
  Status fetch_missing();
  // Asks `question` (which reads the graph) until a round misses nothing; its last round's
  // results are the answer. Fails only when fetching what it missed fails.
  Status in_rounds(const std::function<void()>& question);

  // Runs a SPARQL query (prefixes predeclared). SELECT → its bindings; ASK → one column
  // "boolean"; CONSTRUCT/DESCRIBE → columns subject, predicate, object.
  Status sparql(std::string_view text, Table& out);

  // Navigation (through the GraphIndex, the store's indexes or the server). `objects` returns
  // the objects of (s, p, *), `subjects` the subjects of (*, p, o) with o an IRI.
  std::vector<Cell> objects(std::string_view s, std::string_view p) const;
  std::vector<std::string> subjects(std::string_view p, std::string_view o) const;
  // First object value of (s, p, *), or "" when none.
  std::string value(std::string_view s, std::string_view p) const;
  bool has(std::string_view s, std::string_view p, std::string_view o_iri) const;
  bool has_subject(std::string_view s) const;
  bool has_object(std::string_view o) const;

  std::size_t size() const;
  // The server's graph when opened with open_endpoint(), else null.
  const RemoteGraph* remote() const { return remote_.get(); }
  // The prov-merge store directory when the input is one, else "".
  const std::string& store_dir() const { return store_dir_; }

 private:
  Status open_storage(const std::string& options, const char* name);
  Status take_error(std::string_view what);

  librdf_world* world_ = nullptr;
  librdf_storage* storage_ = nullptr;
  librdf_model* model_ = nullptr;
  std::string first_error_;  // filled by the Redland logger
  std::string store_dir_;
  Cell cell(rdf::TermId id) const;
  std::vector<Cell> cells(rdf::GraphIndex::Arcs arcs) const;

  std::unique_ptr<rdf::Graph> folded_;      // what load() read and folded; the SPARQL engine gets it
  std::unique_ptr<rdf::GraphIndex> index_;  // its navigation index
  std::unique_ptr<RemoteGraph> remote_;
  std::vector<std::string> messages_;
  bool damaged_ = false;
  friend int log_handler(void*, librdf_log_message*);
};

// Converts a Redland node to a Cell (nullptr → unbound).
Cell to_cell(librdf_node* node);

}  // namespace provio::query
