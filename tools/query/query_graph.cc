// Opening a provenance graph once, by the back end its input needs (see query_graph.h).
#include "query/query_graph.h"

#include <unistd.h>

#include <filesystem>
#include <utility>

#include "graph/input.h"
#include "graph/merge.h"
#include "graph/store.h"
#include "graph/store_layout.h"
#include "model/vocabulary.h"
#include "query/local_graph.h"
#include "query/store_graph.h"

namespace provio::query {

namespace {

// Inputs smaller than this are a small graph for the engine (below kBaselineOnlyBelow triples,
// oxigraph.h), told before the graph is read: 8 MiB is ~55 k triples of N-Triples (~155 bytes a
// triple) or of raw Turtle (~110), a compressed file counted kZstdRatio times its size.
constexpr std::uintmax_t kSmallInputBytes = 8 << 20;
constexpr std::uintmax_t kZstdRatio = 10;

bool small_input(const std::vector<std::string>& inputs) {
  namespace fs = std::filesystem;
  std::uintmax_t bytes = 0;
  std::error_code ec;
  auto add = [&](const fs::path& p) {
    std::uintmax_t n = fs::is_regular_file(p, ec) ? fs::file_size(p, ec) : 0;
    if (!ec) bytes += p.extension() == ".zst" ? n * kZstdRatio : n;
  };
  for (const std::string& in : inputs) {
    if (!fs::is_directory(in, ec)) {
      add(in);
      continue;
    }
    for (fs::recursive_directory_iterator it(in, ec), end; !ec && it != end && bytes < kSmallInputBytes;
         it.increment(ec))
      add(it->path());
  }
  return bytes < kSmallInputBytes;
}

// Whether `path` may be one merged graph: an uncompressed file that does not begin with the
// header every raw file begins with (model::kTurtlePrefixes).
bool may_be_merged(const std::string& path) {
  std::string_view name(path);
  if (name.size() >= 4 && name.substr(name.size() - 4) == ".zst") return false;
  std::string error;
  int fd = rdf::open_input(path, error);
  if (fd < 0 || fd == STDIN_FILENO) return false;
  std::string head(model::kTurtlePrefixes.size(), '\0');
  ssize_t n = ::read(fd, head.data(), head.size());
  ::close(fd);
  return n >= 0 && head.substr(0, static_cast<std::size_t>(n)) != model::kTurtlePrefixes;
}

// Predicates only raw files have (docs/format.md): a graph with one of them is not merged.
const char* const kRawOnly[] = {"partial", "start", "span", "n"};

}  // namespace

Status QueryGraph::start_sparql(std::string_view text, const std::vector<std::string>& inputs) {
  for (const auto& in : inputs)  // a store opened in place asks its own engine (store_graph.h)
    if (rdf::is_store(in) && rdf::store_form(in) != rdf::StoreForm::kLines) return Status::success();
  auto q = std::make_unique<SparqlQuery>();
  if (Status s = q->start(text, small_input(inputs)); !s.ok) return s;
  sparql_ = std::move(q);
  return Status::success();
}

Status QueryGraph::sparql(std::string_view text, Table& out) {
  std::unique_ptr<SparqlQuery> q = std::move(sparql_);
  if (q && local_) return q->answer(local_->graph(), out);
  q.reset();  // a store opened in place asks its own
  return source_->sparql(text, out);
}

bool QueryGraph::load_only(const std::string& file, const std::vector<std::string>& predicates,
                           cli::OtherOwners other_owners) {
  if (!may_be_merged(file)) return false;
  rdf::ReadResult read;
  std::vector<std::string> files = rdf::list_inputs({file}, read, false, other_owners);
  if (files.size() != 1 || read.damaged) return false;
  auto graph = std::make_unique<rdf::Graph>();
  rdf::PredicateFilter only(predicates);
  rdf::read_files(files, 1, *graph, read, 0, false, &only);
  if (read.damaged && graph->size() == 0) return false;  // read whole, it is reported as prov-merge does
  for (const char* p : kRawOnly)
    if (graph->terms.find(rdf::term(rdf::kProvio, p)) != rdf::kNoTerm) return false;
  damaged_ = read.damaged != 0;
  messages_ = std::move(read.messages);
  return hold(std::move(graph), "").ok;
}

QueryGraph::QueryGraph() {
  auto local = std::make_unique<LocalGraph>(std::make_unique<rdf::Graph>());
  local_ = local.get();
  source_ = std::move(local);
}

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
      local_ = nullptr;
      return Status::success();
    }
  }
  // One merged graph asked SPARQL that names its predicates: only their triples are read.
  if (sparql_ && sparql_->predicates() && inputs.size() == 1 &&
      load_only(inputs.front(), *sparql_->predicates(), other_owners))
    return Status::success();
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
  auto local = std::make_unique<LocalGraph>(std::move(graph));
  local_ = local.get();
  source_ = std::move(local);
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
  local_ = nullptr;
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
