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

void MemGraph::fold_parts() {
  const std::string provio_ns = "http://www.w3.org/ns/provio#", prov_ns = "http://www.w3.org/ns/prov#";
  std::uint32_t partial = find_iri(provio_ns + "partial");
  if (partial == kNone) return;
  // Set semantics first: a part seen twice (the same file given twice) must count once.
  std::sort(spo_.begin(), spo_.end());
  spo_.erase(std::unique(spo_.begin(), spo_.end()), spo_.end());
  auto iri = [&](const std::string& s) { return intern(Cell::iri(s), ""); };
  const std::uint32_t count = iri(provio_ns + "count"), bytes = iri(provio_ns + "bytes"),
                      elapsed = iri(provio_ns + "elapsed"), started = iri(prov_ns + "startedAtTime"),
                      ended = iri(prov_ns + "endedAtTime");
  struct Sum {
    std::uint64_t count = 0, bytes = 0, ns = 0;
    bool has_count = false, has_bytes = false, has_elapsed = false;
    std::string start, end;
  };
  std::unordered_map<std::uint32_t, std::uint32_t> activity_of;  // part → activity
  for (const auto& t : spo_)
    if (t[1] == partial) activity_of[t[2]] = t[0];
  std::unordered_map<std::uint32_t, Sum> sums;
  std::vector<Triple> kept;
  kept.reserve(spo_.size());
  for (const auto& t : spo_) {
    if (t[1] == partial) {
      sums[t[0]];
      continue;
    }
    auto it = activity_of.find(t[0]);
    if (it == activity_of.end()) {
      kept.push_back(t);
      continue;
    }
    Sum& s = sums[it->second];
    const std::string& v = terms_[t[2]].value;
    std::uint64_t ns = 0;
    if (t[1] == count)
      s.count += std::strtoull(v.c_str(), nullptr, 10), s.has_count = true;
    else if (t[1] == bytes)
      s.bytes += std::strtoull(v.c_str(), nullptr, 10), s.has_bytes = true;
    else if (t[1] == elapsed && seconds_to_ns(v, ns))
      s.ns += ns, s.has_elapsed = true;
    else if (t[1] == started && (s.start.empty() || v < s.start))
      s.start = v;
    else if (t[1] == ended && v > s.end)
      s.end = v;
  }
  const std::string xsd = "http://www.w3.org/2001/XMLSchema#";
  auto literal = [&](const std::string& lexical, const char* type) {
    Cell c = Cell::text(lexical);
    c.datatype = xsd + type;
    return intern(std::move(c), "");
  };
  for (const auto& [a, s] : sums) {
    if (s.has_count) kept.push_back({a, count, literal(std::to_string(s.count), "unsignedLong")});
    if (s.has_bytes) kept.push_back({a, bytes, literal(std::to_string(s.bytes), "unsignedLong")});
    if (s.has_elapsed) kept.push_back({a, elapsed, literal(Cell::seconds(s.ns).value, "double")});
    if (!s.start.empty()) kept.push_back({a, started, literal(s.start, "dateTime")});
    if (!s.end.empty()) kept.push_back({a, ended, literal(s.end, "dateTime")});
  }
  spo_ = std::move(kept);
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
