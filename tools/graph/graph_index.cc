// In-memory graph (see mem_graph.h).
#include "mem_graph.h"

#include <algorithm>

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

}  // namespace

std::uint32_t MemGraph::intern(Cell c) {
  std::string k = key_of(c);
  auto [it, fresh] = ids_.try_emplace(std::move(k), static_cast<std::uint32_t>(terms_.size()));
  if (fresh) terms_.push_back(std::move(c));
  return it->second;
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
    return ids[t] = intern(std::move(c));
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
