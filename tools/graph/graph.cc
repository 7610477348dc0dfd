// Interned terms and triple sets (see graph.h). Both are open-addressing tables of 32-bit indexes
// over flat arrays: 8–12 bytes of index per entry instead of a node allocation each.
#include "graph/graph.h"

#include <sys/mman.h>

#include <algorithm>
#include <cstring>
#include <functional>
#include <new>
#include <stdexcept>
#include <type_traits>

#include "graph/bytes.h"
#include "graph/vocabulary.h"

namespace provio::rdf {
namespace {

constexpr std::size_t kBlockSize = 1 << 20;

inline std::uint64_t hash_text(std::string_view s) {
  return std::hash<std::string_view>{}(s);
}

inline std::uint64_t hash_triple(TermId s, TermId p, TermId o) {
  std::uint64_t k = (std::uint64_t{s} << 32 | p) * 0x9E3779B97F4A7C15ull;
  k ^= std::uint64_t{o} * 0xC2B2AE3D27D4EB4Full;
  k ^= k >> 31;
  k *= 0xBF58476D1CE4E5B9ull;
  k ^= k >> 29;
  return k;
}

}  // namespace

template <typename T>
ZeroArray<T>::ZeroArray(std::size_t n) {
  static_assert(std::is_trivially_copyable_v<T>);
  std::size_t bytes = n * sizeof(T);
  void* p = mmap(nullptr, bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  if (p == MAP_FAILED) throw std::bad_alloc();
  if (bytes >= (2u << 20)) madvise(p, bytes, MADV_HUGEPAGE);  // advice only: failure is harmless
  p_ = static_cast<T*>(p);
  n_ = n;
}

template <typename T>
ZeroArray<T>::~ZeroArray() {
  if (p_) munmap(p_, n_ * sizeof(T));
}

template class ZeroArray<Terms::Slot>;
template class ZeroArray<Graph::Slot>;

std::string_view Terms::store(std::string_view text) {
  if (text.size() > block_left_) {
    std::size_t n = std::max(kBlockSize, text.size());
    blocks_.emplace_back(new char[n]);
    block_pos_ = blocks_.back().get();
    block_left_ = n;
  }
  if (!text.empty()) std::memcpy(block_pos_, text.data(), text.size());
  std::string_view v(block_pos_, text.size());
  block_pos_ += text.size();
  block_left_ -= text.size();
  return v;
}

void Terms::grow() {
  std::size_t n = table_.empty() ? 1024 : table_.size() * 2;
  ZeroArray<Slot> t(n);
  std::size_t mask = n - 1;
  // Hashes are recomputed (keeping them cost 8 bytes a term), kAhead terms ahead of their
  // insertion so that the slot is prefetched by then (see Graph::index).
  constexpr std::uint32_t kAhead = 16;
  std::uint64_t ahead[kAhead];
  auto terms = static_cast<std::uint32_t>(views_.size());
  for (std::uint32_t id = 0; id < std::min(kAhead, terms); ++id) ahead[id] = hash_text(views_[id]);
  for (std::uint32_t id = 0; id < terms; ++id) {
    std::uint64_t h = ahead[id % kAhead];
    if (id + kAhead < terms) {
      ahead[id % kAhead] = hash_text(views_[id + kAhead]);
      __builtin_prefetch(&t[ahead[id % kAhead] & mask], 1);
    }
    std::size_t i = h & mask;
    while (t[i].id1) i = (i + 1) & mask;
    t[i] = Slot{id + 1, static_cast<std::uint32_t>(h >> 32)};
  }
  table_ = std::move(t);
}

TermId Terms::find(std::string_view text) const {
  if (table_.empty()) return kNoTerm;
  std::uint64_t h = hash_text(text);
  auto tag = static_cast<std::uint32_t>(h >> 32);
  std::size_t mask = table_.size() - 1;
  for (std::size_t i = h & mask; table_[i].id1; i = (i + 1) & mask) {
    if (table_[i].tag == tag && views_[table_[i].id1 - 1] == text) return table_[i].id1 - 1;
  }
  return kNoTerm;
}

TermId Terms::intern(std::string_view text) {
  if ((views_.size() + 1) * 2 > table_.size()) grow();
  std::uint64_t h = hash_text(text);
  auto tag = static_cast<std::uint32_t>(h >> 32);
  std::size_t mask = table_.size() - 1;
  std::size_t i = h & mask;
  for (; table_[i].id1; i = (i + 1) & mask) {
    if (table_[i].tag == tag && views_[table_[i].id1 - 1] == text) return table_[i].id1 - 1;
  }
  auto id = static_cast<TermId>(views_.size());
  views_.push_back(store(text));
  table_[i] = Slot{id + 1, tag};
  return id;
}

// Rebuilds the table with `slots` slots (a power of two) from triples_, which are distinct. Each
// slot is a cache miss on a large table: the slot of the triple kAhead places on is prefetched,
// so the misses overlap instead of following one another.
void Graph::index(std::size_t slots) const {
  ZeroArray<Slot> t(slots);
  std::size_t mask = slots - 1;
  constexpr std::size_t kAhead = 16;
  auto hash_of = [&](std::size_t k) {
    const Triple& x = triples_[k];
    return hash_triple(x.s, x.p, x.o);
  };
  for (std::size_t k = 0; k < triples_.size(); ++k) {
    if (k + kAhead < triples_.size()) __builtin_prefetch(&t[hash_of(k + kAhead) & mask], 1);
    std::uint64_t h = hash_of(k);
    std::size_t i = h & mask;
    while (t[i].index1) i = (i + 1) & mask;
    t[i] = Slot{static_cast<std::uint32_t>(k + 1), static_cast<std::uint32_t>(h >> 32)};
  }
  table_ = std::move(t);
}

namespace {
// Slots for n triples at load <= 3/4.
std::size_t slots_for(std::size_t n) {
  std::size_t slots = 1024;
  while (n * 4 > slots * 3) slots *= 2;
  return slots;
}
}  // namespace

bool Graph::add(TermId s, TermId p, TermId o) {
  if (!indexed() || (triples_.size() + 1) * 4 > table_.size() * 3) index(slots_for(triples_.size() + 1));
  std::uint64_t h = hash_triple(s, p, o);
  auto tag = static_cast<std::uint32_t>(h >> 32);
  std::size_t mask = table_.size() - 1;
  std::size_t i = h & mask;
  for (; table_[i].index1; i = (i + 1) & mask) {
    if (table_[i].tag != tag) continue;
    const Triple& x = triples_[table_[i].index1 - 1];
    if (x.s == s && x.p == p && x.o == o) return false;
  }
  if (triples_.size() >= 0xFFFFFFFFu) throw std::length_error("graph: more than 2^32 - 1 triples");
  triples_.push_back({s, p, o});
  table_[i] = Slot{static_cast<std::uint32_t>(triples_.size()), tag};
  sorted_ = false;
  return true;
}

void Graph::add(const std::vector<Triple>& ts) {
  if (ts.empty()) return;
  std::size_t n = triples_.size() + ts.size();
  if (!indexed() || n * 4 > table_.size() * 3) index(slots_for(n));
  std::size_t mask = table_.size() - 1;
  for (const Triple& t : ts) __builtin_prefetch(&table_[hash_triple(t.s, t.p, t.o) & mask]);
  for (const Triple& t : ts) add(t.s, t.p, t.o);
}

bool Graph::contains(const Triple& t) const {
  if (triples_.empty()) return false;
  if (!indexed()) index(slots_for(triples_.size()));
  std::uint64_t h = hash_triple(t.s, t.p, t.o);
  auto tag = static_cast<std::uint32_t>(h >> 32);
  std::size_t mask = table_.size() - 1;
  for (std::size_t i = h & mask; table_[i].index1; i = (i + 1) & mask) {
    if (table_[i].tag == tag && triples_[table_[i].index1 - 1] == t) return true;
  }
  return false;
}

void Graph::merge(const Graph& other) {
  std::vector<TermId> map(other.terms.size());
  for (TermId id = 0; id < other.terms.size(); ++id) map[id] = terms.intern(other.terms[id]);
  for (const Triple& t : other.triples_) add(map[t.s], map[t.p], map[t.o]);
}

void Graph::serialize(std::string& out) const {
  put<std::uint64_t>(out, terms.size());
  for (TermId id = 0; id < terms.size(); ++id) {
    put<std::uint32_t>(out, static_cast<std::uint32_t>(terms[id].size()));
    out += terms[id];
  }
  put<std::uint64_t>(out, triples_.size());
  out.append(reinterpret_cast<const char*>(triples_.data()), triples_.size() * sizeof(Triple));
}

bool Graph::merge_serialized(std::string_view in) {
  std::uint64_t n = 0;
  if (!get(in, n)) return false;
  std::vector<TermId> map;
  map.reserve(n);
  for (std::uint64_t k = 0; k < n; ++k) {
    std::uint32_t len = 0;
    if (!get(in, len) || in.size() < len) return false;
    map.push_back(terms.intern(in.substr(0, len)));
    in.remove_prefix(len);
  }
  if (!get(in, n) || in.size() != n * sizeof(Triple)) return false;
  for (std::uint64_t k = 0; k < n; ++k) {
    Triple t;
    std::memcpy(&t, in.data() + k * sizeof(Triple), sizeof t);
    if (t.s >= map.size() || t.p >= map.size() || t.o >= map.size()) return false;
    add(map[t.s], map[t.p], map[t.o]);
  }
  return true;
}

namespace {

// The writing order (graph.h): ranks of the terms by text, rdf:type first among predicates.
std::vector<std::uint32_t> term_ranks(const Terms& terms) {
  std::vector<TermId> order(terms.size());
  for (TermId id = 0; id < order.size(); ++id) order[id] = id;
  std::sort(order.begin(), order.end(), [&](TermId a, TermId b) { return terms[a] < terms[b]; });
  std::vector<std::uint32_t> rank(terms.size());
  for (std::uint32_t r = 0; r < order.size(); ++r) rank[order[r]] = r + 1;
  TermId type = terms.find(kRdfTypeTerm);
  if (type != kNoTerm) rank[type] = 0;
  return rank;
}

// Sorts by rank: the triples are rewritten as ranks, sorted by value, and rewritten back, so a
// comparison reads the triples alone (comparing through rank[] was three cache misses a side on
// a graph of millions of terms).
void sort_by_rank(std::vector<Triple>& ts, const std::vector<std::uint32_t>& rank) {
  for (Triple& t : ts) t = {rank[t.s], rank[t.p], rank[t.o]};
  std::sort(ts.begin(), ts.end(), [](const Triple& a, const Triple& b) {
    if (a.s != b.s) return a.s < b.s;
    if (a.p != b.p) return a.p < b.p;
    return a.o < b.o;
  });
  std::vector<TermId> id_of(rank.size() + 1, kNoTerm);  // ranks are distinct
  for (TermId id = 0; id < rank.size(); ++id) id_of[rank[id]] = id;
  for (Triple& t : ts) t = {id_of[t.s], id_of[t.p], id_of[t.o]};
}

}  // namespace

std::vector<Triple> Graph::sorted() const {
  std::vector<Triple> out = triples_;
  if (!sorted_) sort_by_rank(out, term_ranks(terms));
  return out;
}

void Graph::sort() {
  if (sorted_) return;
  sort_by_rank(triples_, term_ranks(terms));
  table_.clear();  // its indexes point at the old order: rebuilt on demand
  sorted_ = true;
}

}  // namespace provio::rdf
