// The persistent store (see store.h).
#include "graph/store.h"

#include <fcntl.h>
#include <redland.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <string_view>

#include "graph/output.h"
#include "graph/store_lines.h"
#include "graph/store_lock.h"
#include "graph/temporary.h"
#include "graph/terms.h"
#include "store/output_dir.h"

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

// Whether this Redland has Berkeley DB hashes (Debian sid's is built without).
bool redland_has_bdb() {
  librdf_world* world = librdf_new_world();
  librdf_world_open(world);
  librdf_hash* hash = librdf_new_hash(world, "bdb");
  bool has = hash != nullptr;
  if (hash) librdf_free_hash(hash);
  librdf_free_world(world);
  return has;
}

// The form a new store is written in: PROVIO_STORE_FORM's, or Redland's where it has Berkeley DB.
Status form_to_write(StoreForm& form) {
  const char* asked = std::getenv("PROVIO_STORE_FORM");
  std::string_view name = asked ? asked : "";
  if (name.empty())
    form = redland_has_bdb() ? StoreForm::kRedland : StoreForm::kLines;
  else if (name == "lines")
    form = StoreForm::kLines;
  else if (name == "redland")
    form = StoreForm::kRedland;
  else
    return Status::error("PROVIO_STORE_FORM=" + std::string(name) + ": not a store form (lines, redland)");
  return Status::success();
}

Status load_redland(const std::string& dir, Graph& graph, std::uint64_t* read) {
  if (!redland_has_bdb())
    return Status::error(dir +
                         ": a Redland Berkeley DB store, and this Redland has no Berkeley DB: read it "
                         "where Redland has one, or merge the job again into a new store");
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

Status write_redland(const std::string& dir, const Graph& graph) {
  Redland r;
  if (Status s = r.open(dir, StoreAccess::kCreate); !s.ok) return s;
  Status s = add_to_model(graph, r.world, r.model);
  if (!s.ok || librdf_model_sync(r.model) != 0)
    return Status::error(dir + ": cannot write Redland store" + (s.ok ? "" : ": " + s.message));
  return Status::success();
}

// Replaces `dir` (if any) by `tmp` in one step, so that a kill at any moment leaves a whole store
// at `dir`; afterwards `tmp` holds the old store. A file system without RENAME_EXCHANGE gets two
// renames: killed between them, the old store waits as DIR.old-PID for the next update to put it
// back (store_lock.h).
Status put_in_place(const std::string& tmp, const std::string& dir) {
  if (::renameat2(AT_FDCWD, tmp.c_str(), AT_FDCWD, dir.c_str(), RENAME_EXCHANGE) == 0)
    return Status::success();
  int err = errno;
  struct stat st;
  if (::lstat(dir.c_str(), &st) != 0) {
    err = ::rename(tmp.c_str(), dir.c_str()) == 0 ? 0 : errno;  // the first store: nothing to swap
  } else if (err == EINVAL || err == ENOSYS || err == EOPNOTSUPP) {
    std::string old = moved_aside_name(dir);
    err = 0;
    if (::rename(dir.c_str(), old.c_str()) != 0 || ::rename(tmp.c_str(), dir.c_str()) != 0 ||
        ::rename(old.c_str(), tmp.c_str()) != 0)
      err = errno;
  }
  if (err) return Status::error(dir + ": cannot move the new store into place: " + std::strerror(err));
  return Status::success();
}

}  // namespace

Status load_store(const std::string& dir, Graph& graph, std::uint64_t* read) {
  switch (store_form(dir)) {
    case StoreForm::kRedland: return load_redland(dir, graph, read);
    case StoreForm::kLines: return load_lines(dir, graph, read);
    case StoreForm::kNone: break;
  }
  return Status::error(dir + ": not a store");
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
  struct stat st;
  if (::lstat(dir.c_str(), &st) == 0 && !S_ISDIR(st.st_mode))
    return Status::error(dir + ": not a directory (a store is one)");
  StoreForm form = StoreForm::kNone;
  if (Status s = form_to_write(form); !s.ok) return s;
  // mkdtemp: a new directory of our own, whatever another user planted beside the store. The new
  // store is built there and this scope removes it (after the swap: the old store) in any case.
  std::string tmp = temporary_template(dir);
  if (!::mkdtemp(tmp.data()))
    return Status::error(dir + ": cannot create a temporary directory beside it: " + std::strerror(errno));
  struct Remove {
    const std::string& path;
    ~Remove() {
      std::error_code ec;
      fs::remove_all(path, ec);
    }
  } remove_tmp{tmp};
  // The store holds what the raw files hold: it keeps their modes (0700/0600, or 0750/0640 with
  // PROVIO_SHARE=group), not the umask's (Redland creates its files 0644).
  store::OwnModes modes = store::own_modes();
  if (::chmod(tmp.c_str(), umasked(modes.dir)) != 0)
    return Status::error(tmp + ": cannot set its mode: " + std::strerror(errno));
  Status written = form == StoreForm::kLines ? write_lines(tmp, graph) : write_redland(tmp, graph);
  if (!written.ok) return written;
  std::error_code ec;
  for (const fs::directory_entry& e : fs::directory_iterator(tmp, ec)) {
    if (::chmod(e.path().c_str(), umasked(modes.file)) != 0)
      return Status::error(e.path().string() + ": cannot set its mode: " + std::strerror(errno));
  }
  if (ec) return Status::error(tmp + ": cannot list: " + ec.message());
  return put_in_place(tmp, dir);
}

}  // namespace provio::rdf
