// In-memory graph for merged files (see mem_graph.h).
#include "mem_graph.h"

#include <raptor2.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>

#include "common/input.h"
#include "common/terms.h"

namespace provio::query {
namespace {

std::string key_of(const Cell& c) {
  std::string k;
  k.reserve(c.value.size() + c.datatype.size() + 4);
  k += c.kind == Cell::Kind::kIri ? 'I' : c.kind == Cell::Kind::kBlank ? 'B' : 'L';
  k += c.value;
  if (c.kind == Cell::Kind::kLiteral) {
    k += '\x1f';
    k += c.datatype;
    k += '\x1f';
    k += c.lang;
  }
  return k;
}

struct ParseState {
  MemGraph* graph;
  std::string scope;  // blank node labels are per file
  std::string error;
  std::string path;
};

Cell cell_of(const raptor_term* t) {
  Cell c;
  switch (t->type) {
    case RAPTOR_TERM_TYPE_URI:
      c.kind = Cell::Kind::kIri;
      c.value = reinterpret_cast<const char*>(raptor_uri_as_string(t->value.uri));
      break;
    case RAPTOR_TERM_TYPE_BLANK:
      c.kind = Cell::Kind::kBlank;
      c.value.assign(reinterpret_cast<const char*>(t->value.blank.string), t->value.blank.string_len);
      break;
    case RAPTOR_TERM_TYPE_LITERAL:
      c.kind = Cell::Kind::kLiteral;
      c.value.assign(reinterpret_cast<const char*>(t->value.literal.string), t->value.literal.string_len);
      if (t->value.literal.datatype)
        c.datatype = reinterpret_cast<const char*>(raptor_uri_as_string(t->value.literal.datatype));
      if (t->value.literal.language)
        c.lang.assign(reinterpret_cast<const char*>(t->value.literal.language),
                      t->value.literal.language_len);
      break;
    default: break;
  }
  return c;
}

void on_statement(void* data, raptor_statement* st) {
  auto* s = static_cast<ParseState*>(data);
  std::uint32_t a = s->graph->intern(cell_of(st->subject), s->scope);
  std::uint32_t b = s->graph->intern(cell_of(st->predicate), s->scope);
  std::uint32_t c = s->graph->intern(cell_of(st->object), s->scope);
  s->graph->add(a, b, c);
}

void on_log(void* data, raptor_log_message* m) {
  auto* s = static_cast<ParseState*>(data);
  if (m->level < RAPTOR_LOG_LEVEL_ERROR || !s->error.empty()) return;
  std::string where = s->path;
  if (m->locator && m->locator->line >= 0) {
    where += ":" + std::to_string(m->locator->line);
    if (m->locator->column >= 0) where += ":" + std::to_string(m->locator->column);
  }
  s->error = where + ": " + (m->text ? m->text : "parse error");
}

}  // namespace

std::uint32_t MemGraph::intern(Cell c, const std::string& blank_scope) {
  if (c.kind == Cell::Kind::kBlank) c.value = blank_scope + c.value;
  std::string k = key_of(c);
  auto [it, fresh] = ids_.try_emplace(std::move(k), static_cast<std::uint32_t>(terms_.size()));
  if (fresh) terms_.push_back(std::move(c));
  return it->second;
}

bool MemGraph::parse(const std::string& path, bool ntriples, std::string& error) {
  // Opened here, not by raptor: a FIFO or device given as input would block raptor's fopen.
  std::string why;
  int fd = rdf::open_input(path, why);
  std::FILE* in = fd < 0 ? nullptr : (fd == STDIN_FILENO ? stdin : ::fdopen(fd, "r"));
  if (!in) {
    error = path + ": " + (why.empty() ? std::string("cannot open: ") + std::strerror(errno) : why);
    if (fd > STDIN_FILENO) ::close(fd);
    return false;
  }
  raptor_world* world = raptor_new_world();
  ParseState state{this, "f" + std::to_string(ids_.size()) + "_", "", path};
  raptor_world_set_log_handler(world, &state, on_log);
  raptor_parser* parser = raptor_new_parser(world, ntriples ? "ntriples" : "turtle");
  unsigned char* uri_text = raptor_uri_filename_to_uri_string(path.c_str());
  raptor_uri* uri = raptor_new_uri(world, uri_text);
  raptor_parser_set_statement_handler(parser, &state, on_statement);
  int rc = raptor_parser_parse_file_stream(parser, in, path.c_str(), uri);
  if (in != stdin) std::fclose(in);
  raptor_free_uri(uri);
  raptor_free_memory(uri_text);
  raptor_free_parser(parser);
  raptor_free_world(world);
  if (rc != 0 || !state.error.empty()) {
    error = state.error.empty() ? path + ": cannot parse" : state.error;
    return false;
  }
  return true;
}

void MemGraph::add(const rdf::Graph& graph) {
  // Terms come in their canonical N-Triples spelling (common/graph.h).
  std::vector<std::uint32_t> ids(graph.terms.size(), kNone);
  auto id = [&](rdf::TermId t) {
    if (ids[t] != kNone) return ids[t];
    std::string_view text = graph.terms[t];
    Cell c;
    if (auto lit = rdf::parse_literal(text)) {
      c = Cell::text(std::move(lit->lexical));
      c.datatype = std::string(lit->datatype);
      c.lang = std::string(lit->lang);
    } else if (text.rfind("_:", 0) == 0) {
      c.kind = Cell::Kind::kBlank;
      c.value = std::string(text.substr(2));
    } else {
      c = Cell::iri(std::string(rdf::iri_body(text)));
    }
    return ids[t] = intern(std::move(c), "");
  };
  spo_.reserve(spo_.size() + graph.size());
  for (const rdf::Triple& t : graph.triples()) spo_.push_back({id(t.s), id(t.p), id(t.o)});
}

void MemGraph::finish() {
  std::sort(spo_.begin(), spo_.end());
  spo_.erase(std::unique(spo_.begin(), spo_.end()), spo_.end());
  pos_.reserve(spo_.size());
  is_object_.assign(terms_.size(), false);
  for (const auto& t : spo_) {
    pos_.push_back({t[1], t[2], t[0]});
    is_object_[t[2]] = true;
  }
  std::sort(pos_.begin(), pos_.end());
}

std::uint32_t MemGraph::find_iri(std::string_view iri) const {
  std::string k = "I";
  k.append(iri);
  auto it = ids_.find(k);
  return it == ids_.end() ? kNone : it->second;
}

std::vector<Cell> MemGraph::objects(std::string_view s, std::string_view p) const {
  std::vector<Cell> out;
  std::uint32_t si = find_iri(s), pi = find_iri(p);
  if (si == kNone || pi == kNone) return out;
  auto lo = std::lower_bound(spo_.begin(), spo_.end(), Triple{si, pi, 0});
  for (; lo != spo_.end() && (*lo)[0] == si && (*lo)[1] == pi; ++lo) out.push_back(terms_[(*lo)[2]]);
  return out;
}

std::vector<std::string> MemGraph::subjects(std::string_view p, std::string_view o) const {
  std::vector<std::string> out;
  std::uint32_t pi = find_iri(p), oi = find_iri(o);
  if (pi == kNone || oi == kNone) return out;
  auto lo = std::lower_bound(pos_.begin(), pos_.end(), Triple{pi, oi, 0});
  for (; lo != pos_.end() && (*lo)[0] == pi && (*lo)[1] == oi; ++lo) {
    const Cell& c = terms_[(*lo)[2]];
    if (c.kind == Cell::Kind::kIri) out.push_back(c.value);
  }
  return out;
}

bool MemGraph::has_subject(std::string_view s) const {
  std::uint32_t si = find_iri(s);
  if (si == kNone) return false;
  auto lo = std::lower_bound(spo_.begin(), spo_.end(), Triple{si, 0, 0});
  return lo != spo_.end() && (*lo)[0] == si;
}

bool MemGraph::has_object(std::string_view o) const {
  std::uint32_t oi = find_iri(o);
  return oi != kNone && oi < is_object_.size() && is_object_[oi];
}

}  // namespace provio::query
