// A provenance graph loaded for querying: the input is opened once, by the back end its kind
// needs (source.h) — merged files, raw provenance directories, a mix of them and damaged files
// are read, completed and folded by the graph engine (graph/merge.h, local_graph.h); a Redland
// store written by prov-merge is opened in place (store_graph.h); a SPARQL 1.1 server through
// RemoteGraph — and every question asks it through the same calls.
// Hard rule: nothing here throws or prints; every failure is a Status naming what and where.
#pragma once

#include <functional>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "cli/trust.h"
#include "graph/graph.h"
#include "graph/status.h"
#include "graph/vocabulary.h"
#include "query/local_graph.h"
#include "query/remote_graph.h"
#include "query/source.h"
#include "query/table.h"

namespace provio::query {

class QueryGraph {
 public:
  // An empty graph until load(), hold() or open_endpoint().
  QueryGraph();

  // Loads every input: files (merged or raw; Turtle, N-Triples), directories of raw per-thread
  // files (searched recursively), or a prov-merge store directory (graph/store_layout.h), which
  // must be the only input. Damaged input is not an error: what is whole is loaded and
  // messages() names what was dropped, exactly as prov-merge reports it. An input another user
  // could have planted (cli/trust.h) is refused, or with OtherOwners::kWarn read with a warning.
  Status load(const std::vector<std::string>& inputs,
              cli::OtherOwners other_owners = cli::OtherOwners::kRefuse);
  // prov-query sparql on local inputs: starts the engine on `text` (prefixes predeclared) before
  // load(), so that load() reads only the triples the query can match where that gives the same
  // answer (one merged graph, docs/sparql.md "Reading only what the query can match"); sparql()
  // then answers `text` with it. `inputs`' size tells the engine whether the graph is small.
  Status start_sparql(std::string_view text, const std::vector<std::string>& inputs);
  // Holds a graph already read and folded (prov-merge's, to index the store it has just written
  // at `store_dir` without reading it back; "" for none).
  Status hold(std::unique_ptr<rdf::Graph> graph, const std::string& store_dir);
  // What load() reports as prov-merge does, "path[:line]: text" each (damage, unfinished runs).
  const std::vector<std::string>& messages() const { return messages_; }
  // Whether load() dropped or skipped something of its input.
  bool damaged() const { return damaged_; }
  // Opens the union of provio's job graphs on a SPARQL 1.1 server instead (remote_graph.h).
  Status open_endpoint(const std::string& query_url, net::Auth auth);

  // Question rounds (source.h): asks `question` (which reads the graph) until a round misses
  // nothing; its last round's results are the answer. Fails only when fetching what it missed
  // fails. Local graphs answer in one round.
  Status in_rounds(const std::function<void()>& question);

  // SPARQL and navigation: the back end's (source.h); SPARQL on the engine start_sparql() started.
  Status sparql(std::string_view text, Table& out);
  std::vector<Cell> objects(std::string_view s, std::string_view p) const { return source_->objects(s, p); }
  std::vector<std::string> subjects(std::string_view p, std::string_view o) const {
    return source_->subjects(p, o);
  }
  std::string value(std::string_view s, std::string_view p) const { return source_->value(s, p); }
  bool has_subject(std::string_view s) const { return source_->has_subject(s); }
  bool has_object(std::string_view o) const { return source_->has_object(o); }
  std::size_t size() const { return source_->size(); }
  // Whether (s, p, o) holds, o an IRI.
  bool has(std::string_view s, std::string_view p, std::string_view o_iri) const;

  // The server's graph when opened with open_endpoint(), else null: a server can also sum
  // activities itself (View::activity_totals).
  const RemoteGraph* remote() const { return remote_; }
  // The prov-merge store directory when the input is one, else "".
  const std::string& store_dir() const { return store_dir_; }

 private:
  // Reads `file` keeping only the triples with `predicates`, without folding, when it is one
  // merged graph (the fold would change nothing: docs/sparql.md); false to read it whole instead.
  bool load_only(const std::string& file, const std::vector<std::string>& predicates,
                 cli::OtherOwners other_owners);

  std::unique_ptr<Source> source_;
  std::unique_ptr<SparqlQuery> sparql_;  // start_sparql()'s
  const LocalGraph* local_ = nullptr;    // source_, when it is a graph held here
  const RemoteGraph* remote_ = nullptr;  // source_, when it is a server
  std::string store_dir_;
  std::vector<std::string> messages_;
  bool damaged_ = false;
};

}  // namespace provio::query
