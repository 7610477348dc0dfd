// The persistent store (see store.h).
#include "graph/store.h"

#include <redland.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <filesystem>

#include "graph/output.h"
#include "graph/terms.h"

namespace provio::rdf {
namespace {

namespace fs = std::filesystem;

// A canonical term as a librdf node (the caller owns it); nullptr if it is none.
librdf_node* librdf_node_of(librdf_world* world, std::string_view term) {
  auto u = [](std::string_view v) { return reinterpret_cast<const unsigned char*>(v.data()); };
  if (term.front() == '<') {
    std::string iri(iri_body(term));
    return librdf_new_node_from_uri_string(world, u(iri));
  }
  if (term.rfind("_:", 0) == 0)
    return librdf_new_node_from_counted_blank_identifier(world, u(term.substr(2)), term.size() - 2);
  auto lit = parse_literal(term);
  if (!lit) return nullptr;
  librdf_uri* dt = nullptr;
  std::string dts(lit->datatype);
  if (!dts.empty()) dt = librdf_new_uri(world, u(dts));
  std::string lang(lit->lang);
  librdf_node* n = librdf_new_node_from_typed_counted_literal(
      world, u(lit->lexical), lit->lexical.size(), lang.empty() ? nullptr : lang.c_str(), lang.size(), dt);
  if (dt) librdf_free_uri(dt);
  return n;
}

std::string node_text(librdf_node* n) {
  std::string out;
  switch (librdf_node_get_type(n)) {
    case LIBRDF_NODE_TYPE_RESOURCE: {
      std::size_t len = 0;
      const unsigned char* s = librdf_uri_as_counted_string(librdf_node_get_uri(n), &len);
      append_iri(out, std::string_view(reinterpret_cast<const char*>(s), len));
      break;
    }
    case LIBRDF_NODE_TYPE_LITERAL: {
      std::size_t len = 0;
      const unsigned char* s = librdf_node_get_literal_value_as_counted_string(n, &len);
      librdf_uri* dt = librdf_node_get_literal_value_datatype_uri(n);
      const char* lang = librdf_node_get_literal_value_language(n);
      std::string_view dts = dt ? reinterpret_cast<const char*>(librdf_uri_as_string(dt)) : "";
      append_literal(out, std::string_view(reinterpret_cast<const char*>(s), len), dts, lang ? lang : "");
      break;
    }
    case LIBRDF_NODE_TYPE_BLANK:
      out = "_:";
      out += reinterpret_cast<const char*>(librdf_node_get_blank_identifier(n));
      break;
    default: break;
  }
  return out;
}

struct Redland {
  librdf_world* world = nullptr;
  librdf_storage* storage = nullptr;
  librdf_model* model = nullptr;
  ~Redland() {
    if (model) librdf_free_model(model);
    if (storage) librdf_free_storage(storage);
    if (world) librdf_free_world(world);
  }
  Status open(const std::string& dir, StoreAccess access) {
    world = librdf_new_world();
    librdf_world_open(world);
    storage = librdf_new_storage(world, "hashes", kStoreName, store_options(dir, access).c_str());
    if (storage) model = librdf_new_model(world, storage, nullptr);
    if (!model) return Status::error(dir + ": cannot open Redland store (hashes, bdb)");
    return Status::success();
  }
};

}  // namespace

Status load_store(const std::string& dir, Graph& graph, std::uint64_t* read) {
  Redland r;
  if (Status s = r.open(dir, StoreAccess::kRead); !s.ok) return s;
  librdf_stream* stream = librdf_model_as_stream(r.model);
  if (!stream) return Status::error(dir + ": cannot read Redland store");
  for (; !librdf_stream_end(stream); librdf_stream_next(stream)) {
    librdf_statement* st = librdf_stream_get_object(stream);
    std::string s = node_text(librdf_statement_get_subject(st));
    std::string p = node_text(librdf_statement_get_predicate(st));
    std::string o = node_text(librdf_statement_get_object(st));
    if (!s.empty() && !p.empty() && !o.empty()) graph.add(s, p, o);
    if (read) ++*read;
  }
  librdf_free_stream(stream);
  return Status::success();
}

Status add_to_model(const Graph& graph, librdf_world* world, librdf_model* model) {
  for (const Triple& t : graph.triples()) {
    // librdf_new_statement_from_nodes takes the nodes, even when it fails
    librdf_statement* st = librdf_new_statement_from_nodes(world, librdf_node_of(world, graph.terms[t.s]),
                                                           librdf_node_of(world, graph.terms[t.p]),
                                                           librdf_node_of(world, graph.terms[t.o]));
    bool ok = st && librdf_model_add_statement(model, st) == 0;
    if (st) librdf_free_statement(st);
    if (!ok) {
      return Status::error("Redland could not add " + std::string(graph.terms[t.s]) + " " +
                           std::string(graph.terms[t.p]) + " " + std::string(graph.terms[t.o]));
    }
  }
  return Status::success();
}

Status save_store(const std::string& dir, const Graph& graph) {
  std::error_code ec;
  // mkdtemp: a new directory of our own, whatever another user planted beside the store.
  std::string tmp = dir + ".tmp-XXXXXX";
  if (!::mkdtemp(tmp.data()) || ::chmod(tmp.c_str(), umasked(0777)) != 0)
    return Status::error(dir + ": cannot create a temporary directory beside it: " + std::strerror(errno));
  {
    Redland r;
    if (Status s = r.open(tmp, StoreAccess::kCreate); !s.ok) return s;
    Status s = add_to_model(graph, r.world, r.model);
    if (!s.ok || librdf_model_sync(r.model) != 0)
      return Status::error(tmp + ": cannot write Redland store" + (s.ok ? "" : ": " + s.message));
  }
  std::string old = dir + ".old-" + std::to_string(getpid());
  bool had = fs::exists(dir, ec);
  if (had) fs::rename(dir, old, ec);
  if (!ec) fs::rename(tmp, dir, ec);
  if (ec) return Status::error(dir + ": cannot move the new store into place: " + ec.message());
  if (had) fs::remove_all(old, ec);
  return Status::success();
}

}  // namespace provio::rdf
