// A prov-merge store opened in Redland (see store_graph.h).
#include "query/store_graph.h"

#include <memory>
#include <utility>

#include "graph/store.h"
#include "graph/store_layout.h"
#include "query/local_graph.h"

namespace provio::query {
namespace {

const unsigned char* u(const std::string& s) {
  return reinterpret_cast<const unsigned char*>(s.c_str());
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

NodePtr iri_node(librdf_world* w, std::string_view iri) {
  return NodePtr(librdf_new_node_from_uri_string(w, u(std::string(iri))));
}

// A Redland node as a Cell (nullptr → unbound).
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

}  // namespace

int store_log_handler(void* data, librdf_log_message* msg) {
  auto* g = static_cast<StoreGraph*>(data);
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

StoreGraph::StoreGraph() {
  world_ = librdf_new_world();
  librdf_world_open(world_);
  librdf_world_set_logger(world_, this, store_log_handler);
}

StoreGraph::~StoreGraph() {
  if (model_) librdf_free_model(model_);
  if (storage_) librdf_free_storage(storage_);
  if (world_) librdf_free_world(world_);
}

rdf::Status StoreGraph::take_error(std::string_view what) {
  std::string m = first_error_.empty() ? std::string(what) : std::string(what) + ": " + first_error_;
  first_error_.clear();
  return rdf::Status::error(m);
}

rdf::Status StoreGraph::open(const std::string& dir) {
  dir_ = dir;
  std::string options = rdf::store_options(dir, rdf::StoreAccess::kRead);
  storage_ = librdf_new_storage(world_, "hashes", rdf::kStoreName, options.c_str());
  if (!storage_) return take_error(std::string("cannot open storage ") + rdf::kStoreName);
  model_ = librdf_new_model(world_, storage_, nullptr);
  if (!model_) return take_error("cannot create model");
  return rdf::Status::success();
}

std::vector<Cell> StoreGraph::objects(std::string_view s, std::string_view p) const {
  std::vector<Cell> out;
  NodePtr sn = iri_node(world_, s), pn = iri_node(world_, p);
  IterPtr it(librdf_model_get_targets(model_, sn.get(), pn.get()));
  for (; it && !librdf_iterator_end(it.get()); librdf_iterator_next(it.get()))
    out.push_back(to_cell(static_cast<librdf_node*>(librdf_iterator_get_object(it.get()))));
  return out;
}

std::vector<std::string> StoreGraph::subjects(std::string_view p, std::string_view o) const {
  std::vector<std::string> out;
  NodePtr pn = iri_node(world_, p), on = iri_node(world_, o);
  IterPtr it(librdf_model_get_sources(model_, pn.get(), on.get()));
  for (; it && !librdf_iterator_end(it.get()); librdf_iterator_next(it.get())) {
    Cell c = to_cell(static_cast<librdf_node*>(librdf_iterator_get_object(it.get())));
    if (c.kind == Cell::Kind::kIri) out.push_back(std::move(c.value));
  }
  return out;
}

std::string StoreGraph::value(std::string_view s, std::string_view p) const {
  NodePtr sn = iri_node(world_, s), pn = iri_node(world_, p);
  NodePtr t(librdf_model_get_target(model_, sn.get(), pn.get()));
  return t ? to_cell(t.get()).value : std::string();
}

bool StoreGraph::has_subject(std::string_view s) const {
  NodePtr sn = iri_node(world_, s);
  IterPtr it(librdf_model_get_arcs_out(model_, sn.get()));
  return it && !librdf_iterator_end(it.get());
}

bool StoreGraph::has_object(std::string_view o) const {
  NodePtr on = iri_node(world_, o);
  IterPtr it(librdf_model_get_arcs_in(model_, on.get()));
  return it && !librdf_iterator_end(it.get());
}

std::size_t StoreGraph::size() const {
  int n = librdf_model_size(model_);
  return n < 0 ? 0 : static_cast<std::size_t>(n);
}

rdf::Status StoreGraph::sparql(std::string_view text, Table& out) {
  // The engine gets the store's graph read whole, as a folded graph's.
  rdf::Graph stored;
  if (rdf::Status s = rdf::load_store(dir_, stored); !s.ok) return s;
  return sparql_on(stored, text, out);
}

}  // namespace provio::query
