// Graph writers (see writer.h).
#include "graph/writer.h"

#include <raptor2.h>

#include <cerrno>
#include <cstring>

#include "graph/terms.h"
#include "graph/vocabulary.h"

namespace provio::rdf {
namespace {

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
  std::vector<Triple> copy;
  for (const Triple& t : g.in_order(copy)) {
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
  std::vector<Triple> copy;
  const std::vector<Triple>& ts = g.in_order(copy);
  TermId type = g.terms.find(kRdfTypeTerm);
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
Status write_with_raptor(const Graph& g, const std::string& format, std::FILE* out) {
  raptor_world* world = raptor_new_world();
  raptor_world_open(world);
  raptor_serializer* ser = raptor_new_serializer(world, format.c_str());
  if (!ser) {
    raptor_free_world(world);
    return Status::error("raptor has no serializer '" + format + "'");
  }
  bool ok = true;
  {
    for (const Prefix& p : kPrefixes) {
      raptor_uri* ns = raptor_new_uri_from_counted_string(
          world, reinterpret_cast<const unsigned char*>(p.ns.data()), p.ns.size());
      raptor_serializer_set_namespace(ser, ns, reinterpret_cast<const unsigned char*>(p.name));
      raptor_free_uri(ns);
    }
    raptor_serializer_start_to_file_handle(ser, nullptr, out);
    std::vector<Triple> copy;
    for (const Triple& t : g.in_order(copy)) {
      raptor_statement* st = raptor_new_statement_from_nodes(world, raptor_term_of(world, g.terms[t.s]),
                                                             raptor_term_of(world, g.terms[t.p]),
                                                             raptor_term_of(world, g.terms[t.o]), nullptr);
      ok = st && st->subject && st->predicate && st->object &&
           raptor_serializer_serialize_statement(ser, st) == 0;
      if (st) raptor_free_statement(st);
      if (!ok) break;
    }
    ok = raptor_serializer_serialize_end(ser) == 0 && ok;
    raptor_free_serializer(ser);
  }
  raptor_free_world(world);
  return ok ? Status::success() : Status::error("raptor could not serialize the graph as " + format);
}

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

}  // namespace

bool is_output_format(const std::string& name) {
  for (const std::string& n : output_formats()) {
    if (n == name) return true;
  }
  return false;
}

Status write_graph(const Graph& graph, const std::string& format, std::FILE* out) {
  Sink sink(out);
  bool ok;
  if (format == "turtle")
    ok = write_turtle(graph, sink);
  else if (format == "ntriples")
    ok = write_ntriples(graph, sink);
  else
    return write_with_raptor(graph, format, out);
  return ok ? Status::success() : Status::error(std::string("write error: ") + std::strerror(errno));
}

}  // namespace provio::rdf
