// Graph writers (see writer.h).
#include "common/writer.h"

#include <raptor2.h>
#include <redland.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <functional>

#include "common/output.h"
#include "common/terms.h"

namespace provio::rdf {
namespace {

namespace fs = std::filesystem;

struct Prefix {
  const char* name;
  std::string_view ns;
};
constexpr Prefix kPrefixes[] = {
    {"rdf", "http://www.w3.org/1999/02/22-rdf-syntax-ns#"},
    {"rdfs", "http://www.w3.org/2000/01/rdf-schema#"},
    {"xsd", "http://www.w3.org/2001/XMLSchema#"},
    {"prov", "http://www.w3.org/ns/prov#"},
    {"provio", "http://www.w3.org/ns/provio#"},
};
constexpr std::string_view kRdfType = "<http://www.w3.org/1999/02/22-rdf-syntax-ns#type>";
constexpr std::size_t kFlushAt = 1 << 20;

// Buffered output to a FILE*, remembering the first error.
class Sink {
 public:
  explicit Sink(std::FILE* f) : f_(f) { buf_.reserve(kFlushAt + 4096); }
  std::string& buf() { return buf_; }
  void maybe_flush() {
    if (buf_.size() >= kFlushAt) flush();
  }
  bool flush() {
    if (!buf_.empty() && std::fwrite(buf_.data(), 1, buf_.size(), f_) != buf_.size()) ok_ = false;
    buf_.clear();
    return ok_;
  }

 private:
  std::FILE* f_;
  std::string buf_;
  bool ok_ = true;
};

bool simple_local(std::string_view s) {
  if (s.empty()) return false;
  for (std::size_t i = 0; i < s.size(); ++i) {
    char c = s[i];
    bool alpha = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_';
    bool digit = c >= '0' && c <= '9';
    if (!(alpha || (i > 0 && (digit || c == '-')))) return false;
  }
  return true;
}

// Appends an <iri> term, as a prefixed name when one of our prefixes fits.
void append_abbreviated_iri(std::string& out, std::string_view term) {
  std::string_view body = iri_body(term);
  for (const Prefix& p : kPrefixes) {
    if (body.size() > p.ns.size() && body.substr(0, p.ns.size()) == p.ns &&
        simple_local(body.substr(p.ns.size()))) {
      out += p.name;
      out += ':';
      out += body.substr(p.ns.size());
      return;
    }
  }
  out += term;
}

void append_turtle_term(std::string& out, std::string_view term) {
  if (term.front() == '<') {
    append_abbreviated_iri(out, term);
    return;
  }
  if (term.front() == '"') {
    std::size_t dt = term.rfind("\"^^<");
    if (dt != std::string_view::npos && term.back() == '>') {
      out += term.substr(0, dt + 3);
      append_abbreviated_iri(out, term.substr(dt + 3));
      return;
    }
  }
  out += term;
}

bool write_ntriples(const Graph& g, Sink& sink) {
  std::string& b = sink.buf();
  for (const Triple& t : g.sorted()) {
    b += g.terms[t.s];
    b += ' ';
    b += g.terms[t.p];
    b += ' ';
    b += g.terms[t.o];
    b += " .\n";
    sink.maybe_flush();
  }
  return sink.flush();
}

bool write_turtle(const Graph& g, Sink& sink) {
  std::string& b = sink.buf();
  // Not the raw files' header: readers must not take a merged graph for one-statement-per-line.
  b += "# provio provenance graph merged by prov-merge (summary parts folded, docs/format.md)\n";
  for (const Prefix& p : kPrefixes) {
    b += "@prefix ";
    b += p.name;
    b += ": <";
    b += p.ns;
    b += "> .\n";
  }
  std::vector<Triple> ts = g.sorted();
  TermId type = g.terms.find(kRdfType);
  for (std::size_t i = 0; i < ts.size(); ++i) {
    const Triple& t = ts[i];
    bool new_subject = i == 0 || ts[i - 1].s != t.s;
    bool new_predicate = new_subject || ts[i - 1].p != t.p;
    if (new_subject) {
      b += '\n';
      append_turtle_term(b, g.terms[t.s]);
      b += ' ';
    } else if (new_predicate) {
      b += " ;\n    ";
    } else {
      b += ", ";
    }
    if (new_predicate) {
      if (t.p == type)
        b += 'a';
      else
        append_turtle_term(b, g.terms[t.p]);
      b += ' ';
    }
    append_turtle_term(b, g.terms[t.o]);
    if (i + 1 == ts.size() || ts[i + 1].s != t.s) b += " .\n";
    sink.maybe_flush();
  }
  return sink.flush();
}

// A canonical term (graph.h) as a raptor term; nullptr if it is none of IRI, literal, blank.
raptor_term* raptor_term_of(raptor_world* world, std::string_view term) {
  auto u = [](std::string_view v) { return reinterpret_cast<const unsigned char*>(v.data()); };
  if (term.front() == '<') {
    std::string_view iri = iri_body(term);
    return raptor_new_term_from_counted_uri_string(world, u(iri), iri.size());
  }
  if (term.rfind("_:", 0) == 0)
    return raptor_new_term_from_counted_blank(world, u(term.substr(2)), term.size() - 2);
  auto lit = parse_literal(term);
  if (!lit) return nullptr;
  raptor_uri* dt = nullptr;
  if (!lit->datatype.empty())
    dt = raptor_new_uri_from_counted_string(world, u(lit->datatype), lit->datatype.size());
  std::string lang(lit->lang);  // raptor copies one byte past the length: it must be a NUL
  raptor_term* t = raptor_new_term_from_counted_literal(world, u(lit->lexical), lit->lexical.size(), dt,
                                                        lang.empty() ? nullptr : u(lang.c_str()),
                                                        static_cast<unsigned char>(lang.size()));
  if (dt) raptor_free_uri(dt);
  return t;
}

// Other syntaxes: raptor's serializers, fed our triples as raptor terms.
bool write_with_raptor(const Graph& g, const std::string& format, std::FILE* out, std::string& error) {
  raptor_world* world = raptor_new_world();
  raptor_world_open(world);
  raptor_serializer* ser = raptor_new_serializer(world, format.c_str());
  bool ok = ser != nullptr;
  if (ok) {
    for (const Prefix& p : kPrefixes) {
      raptor_uri* ns = raptor_new_uri_from_counted_string(
          world, reinterpret_cast<const unsigned char*>(p.ns.data()), p.ns.size());
      raptor_serializer_set_namespace(ser, ns, reinterpret_cast<const unsigned char*>(p.name));
      raptor_free_uri(ns);
    }
    raptor_serializer_start_to_file_handle(ser, nullptr, out);
    for (const Triple& t : g.sorted()) {
      raptor_statement* st = raptor_new_statement_from_nodes(world, raptor_term_of(world, g.terms[t.s]),
                                                             raptor_term_of(world, g.terms[t.p]),
                                                             raptor_term_of(world, g.terms[t.o]), nullptr);
      ok = st && st->subject && st->predicate && st->object &&
           raptor_serializer_serialize_statement(ser, st) == 0;
      if (st) raptor_free_statement(st);
      if (!ok) break;
    }
    ok = raptor_serializer_serialize_end(ser) == 0 && ok;
    if (!ok) error = "raptor could not serialize the graph as " + format;
    raptor_free_serializer(ser);
  } else {
    error = "raptor has no serializer '" + format + "'";
  }
  raptor_free_world(world);
  return ok;
}

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
  bool open(const std::string& dir, bool fresh, std::string& error) {
    world = librdf_new_world();
    librdf_world_open(world);
    std::string options = "hash-type='bdb',dir='" + dir + "'" + (fresh ? ",new='yes'" : "");
    storage = librdf_new_storage(world, "hashes", kStoreName, options.c_str());
    if (storage) model = librdf_new_model(world, storage, nullptr);
    if (!model) error = dir + ": cannot open Redland store (hashes, bdb)";
    return model != nullptr;
  }
};

}  // namespace

std::vector<std::string> output_formats() {
  std::vector<std::string> names = {"turtle", "ntriples"};
  raptor_world* world = raptor_new_world();
  raptor_world_open(world);
  for (int i = 0;; ++i) {
    const raptor_syntax_description* d =
        raptor_world_get_serializer_description(world, static_cast<unsigned>(i));
    if (!d) break;
    std::string name = d->names[0];
    if (name != "turtle" && name != "ntriples") names.push_back(name);
  }
  raptor_free_world(world);
  return names;
}

bool is_output_format(const std::string& name) {
  for (const std::string& n : output_formats()) {
    if (n == name) return true;
  }
  return false;
}

bool write_graph(const Graph& graph, const std::string& format, std::FILE* out, std::string& error) {
  Sink sink(out);
  bool ok;
  if (format == "turtle")
    ok = write_turtle(graph, sink);
  else if (format == "ntriples")
    ok = write_ntriples(graph, sink);
  else
    return write_with_raptor(graph, format, out, error);
  if (!ok) error = std::string("write error: ") + std::strerror(errno);
  return ok;
}

bool store_exists(const std::string& dir) {
  std::error_code ec;
  return fs::exists(fs::path(dir) / (std::string(kStoreName) + "-sp2o.db"), ec);
}

bool load_store(const std::string& dir, Graph& graph, std::string& error, std::uint64_t* read) {
  Redland r;
  if (!r.open(dir, false, error)) return false;
  librdf_stream* stream = librdf_model_as_stream(r.model);
  if (!stream) {
    error = dir + ": cannot read Redland store";
    return false;
  }
  for (; !librdf_stream_end(stream); librdf_stream_next(stream)) {
    librdf_statement* st = librdf_stream_get_object(stream);
    std::string s = node_text(librdf_statement_get_subject(st));
    std::string p = node_text(librdf_statement_get_predicate(st));
    std::string o = node_text(librdf_statement_get_object(st));
    if (!s.empty() && !p.empty() && !o.empty()) graph.add(s, p, o);
    if (read) ++*read;
  }
  librdf_free_stream(stream);
  return true;
}

bool add_to_model(const Graph& graph, librdf_world* world, librdf_model* model, std::string& error) {
  for (const Triple& t : graph.triples()) {
    // librdf_new_statement_from_nodes takes the nodes, even when it fails
    librdf_statement* st = librdf_new_statement_from_nodes(world, librdf_node_of(world, graph.terms[t.s]),
                                                           librdf_node_of(world, graph.terms[t.p]),
                                                           librdf_node_of(world, graph.terms[t.o]));
    bool ok = st && librdf_model_add_statement(model, st) == 0;
    if (st) librdf_free_statement(st);
    if (!ok) {
      error = "Redland could not add " + std::string(graph.terms[t.s]) + " " + std::string(graph.terms[t.p]) +
              " " + std::string(graph.terms[t.o]);
      return false;
    }
  }
  return true;
}

bool save_store(const std::string& dir, const Graph& graph, std::string& error) {
  std::error_code ec;
  // mkdtemp: a new directory of our own, whatever another user planted beside the store.
  std::string tmp = dir + ".tmp-XXXXXX";
  if (!::mkdtemp(tmp.data()) || ::chmod(tmp.c_str(), umasked(0777)) != 0) {
    error = dir + ": cannot create a temporary directory beside it: " + std::strerror(errno);
    return false;
  }
  {
    Redland r;
    if (!r.open(tmp, true, error)) return false;
    if (!add_to_model(graph, r.world, r.model, error) || librdf_model_sync(r.model) != 0) {
      error = tmp + ": cannot write Redland store" + (error.empty() ? "" : ": " + error);
      return false;
    }
  }
  std::string old = dir + ".old-" + std::to_string(getpid());
  bool had = fs::exists(dir, ec);
  if (had) fs::rename(dir, old, ec);
  if (!ec) fs::rename(tmp, dir, ec);
  if (ec) {
    error = dir + ": cannot move the new store into place: " + ec.message();
    return false;
  }
  if (had) fs::remove_all(old, ec);
  return true;
}

}  // namespace provio::rdf
