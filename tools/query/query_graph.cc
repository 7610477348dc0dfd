// Opening a provenance graph once, by the back end its input needs (see query_graph.h).
#include "query/query_graph.h"

#include <utility>

#include "graph/merge.h"
#include "graph/store.h"
#include "graph/store_layout.h"
#include "query/local_graph.h"
#include "query/store_graph.h"

namespace provio::query {

QueryGraph::QueryGraph() : source_(std::make_unique<LocalGraph>(std::make_unique<rdf::Graph>())) {}

Status QueryGraph::load(const std::vector<std::string>& inputs, cli::OtherOwners other_owners) {
  if (inputs.empty())
    return Status::error("no input (give merged Turtle files, a provenance directory or a store)");
  for (const auto& in : inputs) {
    if (rdf::is_store(in)) {
      if (inputs.size() != 1) return Status::error(in + ": a store must be the only input");
      if (cli::Trust t = cli::directory_trust(in); !t.ok) {
        if (other_owners == cli::OtherOwners::kRefuse)
          return Status::error(in + ": refused: another user could have planted it: " + t.why +
                               " (name it with --trust-inputs to read it anyway)");
        messages_.push_back(in + ": warning: read although another user could have planted it: " + t.why);
      }
      if (rdf::store_form(in) == rdf::StoreForm::kLines) {  // read whole, as a merged file
        auto graph = std::make_unique<rdf::Graph>();
        if (Status s = rdf::load_store(in, *graph); !s.ok) return s;
        return hold(std::move(graph), in);
      }
      store_dir_ = in;
      auto store = std::make_unique<StoreGraph>();
      if (Status s = store->open(in); !s.ok) return s;
      source_ = std::move(store);
      return Status::success();
    }
  }
  // Everything else (merged files, raw directories, a mix, damaged files) is read, completed and
  // folded by prov-merge's engine, so every tool gives one answer. Damage is reported, not fatal:
  // what is whole is answered, as prov-merge merges it (the caller exits 2).
  auto folded = std::make_unique<rdf::Graph>();
  rdf::MergeResult r = rdf::merge_inputs(inputs, 0, *folded, false, other_owners);
  if (r.read.files == 0 || (folded->size() == 0 && r.damaged())) {
    if (r.messages.empty())
      return Status::error(inputs.front() + ": no provenance files (*.ttl, *.nt, or .zst of one)");
    std::string m = r.messages.front();
    if (r.messages.size() > 1) m += " (and " + std::to_string(r.messages.size() - 1) + " more problems)";
    return Status::error(m);
  }
  damaged_ = r.damaged();
  messages_ = std::move(r.messages);
  return hold(std::move(folded), "");
}

Status QueryGraph::hold(std::unique_ptr<rdf::Graph> graph, const std::string& store_dir) {
  source_ = std::make_unique<LocalGraph>(std::move(graph));
  store_dir_ = store_dir;
  return Status::success();
}

Status QueryGraph::open_endpoint(const std::string& query_url, net::Auth auth) {
  sparql::Endpoints e;
  e.query = query_url;
  std::string error;
  if (!sparql::complete_endpoints(e, error)) return Status::error(error);
  auto remote = std::make_unique<RemoteGraph>(e, std::move(auth));
  if (!remote->open(error)) return Status::error(error);
  remote_ = remote.get();
  source_ = std::move(remote);
  return Status::success();
}

Status QueryGraph::in_rounds(const std::function<void()>& question) {
  for (;;) {
    source_->begin_round();
    question();
    if (!source_->missed()) return Status::success();
    if (Status s = source_->fetch_missing(); !s.ok) return s;
  }
}

bool QueryGraph::has(std::string_view s, std::string_view p, std::string_view o_iri) const {
  // Through the (s, p) index: a complete pattern in librdf_model_find_statements scans the whole
  // hashes store, and librdf_model_contains_statement's sign convention is storage-specific.
  for (const auto& c : source_->objects(s, p))
    if (c.kind == Cell::Kind::kIri && c.value == o_iri) return true;
  return false;
}

}  // namespace provio::query
