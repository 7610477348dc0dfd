// Loading and navigating a provenance graph (see query_graph.h).
// A prov-merge store is opened in Redland as `hashes` with `hash-type='bdb'`; SPARQL runs on
// Oxigraph (oxigraph.h).
#include "query/query_graph.h"

#include <cctype>
#include <iterator>
#include <utility>

#include "graph/merge.h"
#include "graph/store.h"
#include "graph/terms.h"
#include "query/oxigraph.h"
#include "query/sparql_answer.h"

namespace provio::query {
namespace {

std::string sparql_prefixes() {
  std::string text;
  for (const rdf::Prefix& p : rdf::kPrefixes)
    text.append("PREFIX ").append(p.name).append(": <").append(p.ns).append(">\n");
  return text;
}

const unsigned char* u(const char* s) {
  return reinterpret_cast<const unsigned char*>(s);
}
const unsigned char* u(const std::string& s) {
  return u(s.c_str());
}

// Owning handles for the Redland objects created per call.
struct NodeDel {
  void operator()(librdf_node* n) const { librdf_free_node(n); }
};
using NodePtr = std::unique_ptr<librdf_node, NodeDel>;
struct IterDel {
  void operator()(librdf_iterator* x) const { librdf_free_iterator(x); }
};
using IterPtr = std::unique_ptr<librdf_iterator, IterDel>;
struct StreamDel {
  void operator()(librdf_stream* x) const { librdf_free_stream(x); }
};
using StreamPtr = std::unique_ptr<librdf_stream, StreamDel>;
struct StmtDel {
  void operator()(librdf_statement* x) const { librdf_free_statement(x); }
};
using StmtPtr = std::unique_ptr<librdf_statement, StmtDel>;

NodePtr iri_node(librdf_world* w, std::string_view iri) {
  return NodePtr(librdf_new_node_from_uri_string(w, u(std::string(iri))));
}

}  // namespace

const std::string kSparqlPrefixes = sparql_prefixes();
const int kSparqlPrefixLines = static_cast<int>(std::size(rdf::kPrefixes));

int log_handler(void* data, librdf_log_message* msg) {
  auto* g = static_cast<QueryGraph*>(data);
  if (librdf_log_message_level(msg) < LIBRDF_LOG_ERROR) return 1;  // warnings: ignore
  if (!g->first_error_.empty()) return 1;
  std::string where;
  if (raptor_locator* loc = librdf_log_message_locator(msg)) {
    if (loc->file)
      where = loc->file;
    else if (loc->uri)
      where = reinterpret_cast<const char*>(raptor_uri_as_string(loc->uri));
    if (loc->line >= 0) {
      where += (where.empty() ? "" : ":") + std::to_string(loc->line);
      if (loc->column >= 0) where += ":" + std::to_string(loc->column);
    }
  }
  const char* m = librdf_log_message_message(msg);
  g->first_error_ = (where.empty() ? "" : where + ": ") + (m ? m : "error");
  return 1;
}

QueryGraph::QueryGraph() {
  world_ = librdf_new_world();
  librdf_world_open(world_);
  librdf_world_set_logger(world_, this, log_handler);
}

QueryGraph::~QueryGraph() {
  if (model_) librdf_free_model(model_);
  if (storage_) librdf_free_storage(storage_);
  if (world_) librdf_free_world(world_);
}

Status QueryGraph::take_error(std::string_view what) {
  std::string m = first_error_.empty() ? std::string(what) : std::string(what) + ": " + first_error_;
  first_error_.clear();
  return Status::error(m);
}

Status QueryGraph::open_storage(const std::string& options, const char* name) {
  storage_ = librdf_new_storage(world_, "hashes", name, options.c_str());
  if (!storage_) return take_error(std::string("cannot open storage ") + name);
  model_ = librdf_new_model(world_, storage_, nullptr);
  if (!model_) return take_error("cannot create model");
  return Status::success();
}

Status QueryGraph::load(const std::vector<std::string>& inputs, tools::OtherOwners other_owners) {
  if (inputs.empty())
    return Status::error("no input (give merged Turtle files, a provenance directory or a store)");
  for (const auto& in : inputs) {
    if (rdf::is_store(in)) {
      if (inputs.size() != 1) return Status::error(in + ": a store must be the only input");
      if (tools::Trust t = tools::directory_trust(in); !t.ok) {
        if (other_owners == tools::OtherOwners::kRefuse)
          return Status::error(in + ": refused: another user could have planted it: " + t.why +
                               " (name it with --trust-inputs to read it anyway)");
        messages_.push_back(in + ": warning: read although another user could have planted it: " + t.why);
      }
      store_dir_ = in;
      return open_storage(rdf::store_options(in, rdf::StoreAccess::kRead), rdf::kStoreName);
    }
  }
  // Everything else (merged files, raw directories, a mix, damaged files) is read, completed and
  // folded by prov-merge's engine, so every tool gives one answer. Damage is reported, not fatal:
  // what is whole is answered, as prov-merge merges it (the caller exits 2).
  folded_ = std::make_unique<rdf::Graph>();
  rdf::MergeResult r = rdf::merge_inputs(inputs, 0, *folded_, false, other_owners);
  if (r.read.files == 0 || (folded_->size() == 0 && r.damaged())) {
    if (r.messages.empty()) return Status::error(inputs.front() + ": no provenance files (*.ttl, *.nt)");
    std::string m = r.messages.front();
    if (r.messages.size() > 1) m += " (and " + std::to_string(r.messages.size() - 1) + " more problems)";
    return Status::error(m);
  }
  damaged_ = r.damaged();
  messages_ = std::move(r.messages);
  return hold(std::move(folded_), "");
}

Status QueryGraph::hold(std::unique_ptr<rdf::Graph> graph, const std::string& store_dir) {
  folded_ = std::move(graph);
  store_dir_ = store_dir;
  index_ = std::make_unique<rdf::GraphIndex>(*folded_);
  return Status::success();
}

Cell QueryGraph::cell(rdf::TermId id) const {
  // Terms are held in their canonical N-Triples spelling (graph/graph.h).
  std::string_view text = folded_->terms[id];
  if (auto lit = rdf::parse_literal(text)) {
    Cell c = Cell::text(std::move(lit->lexical));
    c.datatype = std::string(lit->datatype);
    c.lang = std::string(lit->lang);
    return c;
  }
  if (text.rfind("_:", 0) == 0) return Cell{Cell::Kind::kBlank, std::string(text.substr(2)), {}, {}};
  return Cell::iri(std::string(rdf::iri_body(text)));
}

std::vector<Cell> QueryGraph::cells(rdf::GraphIndex::Arcs arcs) const {
  std::vector<Cell> out;
  for (const auto& a : arcs) out.push_back(cell(a.t));
  return out;
}

Cell to_cell(librdf_node* node) {
  if (!node) return Cell::unbound();
  if (librdf_node_is_resource(node))
    return Cell::iri(reinterpret_cast<const char*>(librdf_uri_as_string(librdf_node_get_uri(node))));
  if (librdf_node_is_blank(node)) {
    Cell c;
    c.kind = Cell::Kind::kBlank;
    c.value = reinterpret_cast<const char*>(librdf_node_get_blank_identifier(node));
    return c;
  }
  Cell c;
  c.kind = Cell::Kind::kLiteral;
  size_t len = 0;
  const unsigned char* v = librdf_node_get_literal_value_as_counted_string(node, &len);
  c.value.assign(reinterpret_cast<const char*>(v), len);
  if (librdf_uri* dt = librdf_node_get_literal_value_datatype_uri(node))
    c.datatype = reinterpret_cast<const char*>(librdf_uri_as_string(dt));
  if (const char* lang = librdf_node_get_literal_value_language(node)) c.lang = lang;
  return c;
}

Status QueryGraph::open_endpoint(const std::string& query_url, net::Auth auth) {
  sparql::Endpoints e;
  e.query = query_url;
  std::string error;
  if (!sparql::complete_endpoints(e, error)) return Status::error(error);
  remote_ = std::make_unique<RemoteGraph>(e, std::move(auth));
  if (!remote_->open(error)) return Status::error(error);
  return Status::success();
}

Status QueryGraph::fetch_missing() {
  std::string error;
  if (remote_ && !remote_->fetch_missing(error)) return Status::error(error);
  return Status::success();
}

Status QueryGraph::in_rounds(const std::function<void()>& question) {
  for (;;) {
    begin_round();
    question();
    if (!missed()) return Status::success();
    if (Status s = fetch_missing(); !s.ok) return s;
  }
}

Status QueryGraph::sparql(std::string_view text, Table& out) {
  if (remote_) {
    std::string error;
    if (!remote_->sparql(std::string(text), out, error))
      return Status::error("SPARQL query failed: " + error);
    return Status::success();
  }
  // The engine gets the folded graph the built-in questions see; a store's graph is read whole.
  rdf::Graph stored;
  if (!folded_) {
    if (Status s = rdf::load_store(store_dir_, stored); !s.ok) return s;
  }
  // Without trailing blank lines: Oxigraph places an error at the furthest point it parsed, often
  // the end of the text, which should be on the query's last line, not after it.
  std::string query = kSparqlPrefixes + std::string(text);
  while (!query.empty() && std::isspace(static_cast<unsigned char>(query.back()))) query.pop_back();
  std::string body, error;
  Status s = oxigraph_query(folded_ ? *folded_ : stored, query, kSparqlPrefixLines, body);
  if (!s.ok) return s;
  if (!answer_table(body, body.rfind("<?xml", 0) != 0, out, error))
    return Status::error("SPARQL engine's answer unreadable: " + error);
  return Status::success();
}

std::vector<Cell> QueryGraph::objects(std::string_view s, std::string_view p) const {
  if (remote_) return remote_->objects(s, p);
  if (index_) return cells(index_->objects(index_->iri(s), index_->iri(p)));
  std::vector<Cell> out;
  NodePtr sn = iri_node(world_, s), pn = iri_node(world_, p);
  IterPtr it(librdf_model_get_targets(model_, sn.get(), pn.get()));
  for (; it && !librdf_iterator_end(it.get()); librdf_iterator_next(it.get()))
    out.push_back(to_cell(static_cast<librdf_node*>(librdf_iterator_get_object(it.get()))));
  return out;
}

std::vector<std::string> QueryGraph::subjects(std::string_view p, std::string_view o) const {
  if (remote_) return remote_->subjects(p, o);
  if (index_) {
    std::vector<std::string> out;
    for (const auto& a : index_->subjects(index_->iri(p), index_->iri(o))) {
      std::string_view text = folded_->terms[a.t];
      if (text.front() == '<') out.emplace_back(rdf::iri_body(text));
    }
    return out;
  }
  std::vector<std::string> out;
  NodePtr pn = iri_node(world_, p), on = iri_node(world_, o);
  IterPtr it(librdf_model_get_sources(model_, pn.get(), on.get()));
  for (; it && !librdf_iterator_end(it.get()); librdf_iterator_next(it.get())) {
    Cell c = to_cell(static_cast<librdf_node*>(librdf_iterator_get_object(it.get())));
    if (c.kind == Cell::Kind::kIri) out.push_back(std::move(c.value));
  }
  return out;
}

std::string QueryGraph::value(std::string_view s, std::string_view p) const {
  if (index_ || remote_) {
    auto v = objects(s, p);
    return v.empty() ? std::string() : std::move(v.front().value);
  }
  NodePtr sn = iri_node(world_, s), pn = iri_node(world_, p);
  NodePtr t(librdf_model_get_target(model_, sn.get(), pn.get()));
  return t ? to_cell(t.get()).value : std::string();
}

bool QueryGraph::has(std::string_view s, std::string_view p, std::string_view o_iri) const {
  // Through the (s, p) index: a complete pattern in librdf_model_find_statements scans the whole
  // hashes store, and librdf_model_contains_statement's sign convention is storage-specific.
  for (const auto& c : objects(s, p))
    if (c.kind == Cell::Kind::kIri && c.value == o_iri) return true;
  return false;
}

bool QueryGraph::has_subject(std::string_view s) const {
  if (remote_) return remote_->has_subject(s);
  if (index_) return index_->is_subject(index_->iri(s));
  NodePtr sn = iri_node(world_, s);
  IterPtr it(librdf_model_get_arcs_out(model_, sn.get()));
  return it && !librdf_iterator_end(it.get());
}

bool QueryGraph::has_object(std::string_view o) const {
  if (remote_) return remote_->has_object(o);
  if (index_) return index_->is_object(index_->iri(o));
  NodePtr on = iri_node(world_, o);
  IterPtr it(librdf_model_get_arcs_in(model_, on.get()));
  return it && !librdf_iterator_end(it.get());
}

std::size_t QueryGraph::size() const {
  if (remote_) return remote_->size();
  if (index_) return index_->size();
  int n = librdf_model_size(model_);
  return n < 0 ? 0 : static_cast<std::size_t>(n);
}

}  // namespace provio::query
