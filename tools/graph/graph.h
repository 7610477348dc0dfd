// An in-memory RDF graph for the tools: interned terms plus a set of triples of term ids.
//
// Hard rule: a term is stored in its one canonical N-Triples spelling (`<iri>`, `_:label`,
// `"escaped text"`, `"…"^^<datatype>`, `"…"@lang`), so two spellings of the same term in the
// inputs (a prefixed name and a full IRI, different escapes) become one id, and equality of
// triples is equality of ids. Memory grows with unique terms and unique triples, never with the
// size of the input.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

namespace provio::rdf {

using TermId = std::uint32_t;
inline constexpr TermId kNoTerm = 0xFFFFFFFFu;

struct Triple {
  TermId s, p, o;
  bool operator==(const Triple& t) const { return s == t.s && p == t.p && o == t.o; }
};

// A zero-filled array from mmap for the hash tables: no zero-fill pass of our own (the kernel
// hands out zeroed pages) and, from 2 MiB on, transparent huge pages (MADV_HUGEPAGE), because a
// probe into a table of tens of MiB is a TLB miss as often as a cache miss.
template <typename T>
class ZeroArray {
 public:
  ZeroArray() = default;
  explicit ZeroArray(std::size_t n);
  ZeroArray(const ZeroArray&) = delete;
  ZeroArray& operator=(const ZeroArray&) = delete;
  ZeroArray(ZeroArray&& o) noexcept : p_(o.p_), n_(o.n_) { o.p_ = nullptr, o.n_ = 0; }
  ZeroArray& operator=(ZeroArray&& o) noexcept {
    std::swap(p_, o.p_);
    std::swap(n_, o.n_);
    return *this;
  }
  ~ZeroArray();
  T& operator[](std::size_t i) { return p_[i]; }
  const T& operator[](std::size_t i) const { return p_[i]; }
  std::size_t size() const { return n_; }
  bool empty() const { return n_ == 0; }
  void clear() { *this = ZeroArray(); }

 private:
  T* p_ = nullptr;
  std::size_t n_ = 0;
};

// Interned strings: ids 0, 1, … in order of first sight; views stay valid for the owner's life.
class Terms {
 public:
  Terms() = default;
  Terms(const Terms&) = delete;
  Terms& operator=(const Terms&) = delete;
  Terms(Terms&&) = default;
  Terms& operator=(Terms&&) = default;

  TermId intern(std::string_view text);
  TermId find(std::string_view text) const;  // kNoTerm if absent
  std::string_view operator[](TermId id) const { return views_[id]; }
  std::size_t size() const { return views_.size(); }

 private:
  std::string_view store(std::string_view text);
  void grow();

  std::vector<std::unique_ptr<char[]>> blocks_;
  std::size_t block_left_ = 0;
  char* block_pos_ = nullptr;
  std::vector<std::string_view> views_;
  // Open addressing, load <= 1/2: id + 1 (0 = empty) and 32 bits of the hash, compared before
  // the text so a probe rarely touches the strings.
  struct Slot {
    std::uint32_t id1;
    std::uint32_t tag;
  };
  ZeroArray<Slot> table_;
};

class Graph {
 public:
  Graph() = default;
  Graph(const Graph&) = delete;
  Graph& operator=(const Graph&) = delete;
  Graph(Graph&&) = default;
  Graph& operator=(Graph&&) = default;

  Terms terms;

  // Adds a triple; true if it was not there yet.
  bool add(TermId s, TermId p, TermId o);
  bool add(std::string_view s, std::string_view p, std::string_view o) {
    return add(terms.intern(s), terms.intern(p), terms.intern(o));
  }
  // Adds each of `ts` (a line's triples, say): their table slots are fetched together first.
  void add(const std::vector<Triple>& ts);
  bool contains(const Triple& t) const;
  const std::vector<Triple>& triples() const { return triples_; }
  std::size_t size() const { return triples_.size(); }

  // Keeps the triples for which `keep` is true, in their order (in place; the index is rebuilt
  // once, at the size it needs).
  template <typename Keep>
  void filter(Keep keep) {
    filter_indexed([&](std::size_t, const Triple& t) { return keep(t); });
  }
  // The same with the triple's index in triples() before the filter: keep(index, triple).
  template <typename Keep>
  void filter_indexed(Keep keep) {
    std::size_t kept = 0;
    for (std::size_t k = 0; k < triples_.size(); ++k)
      if (keep(k, static_cast<const Triple&>(triples_[k]))) triples_[kept++] = triples_[k];
    triples_.resize(kept);
    table_.clear();
  }

  // For a graph that is read from now on (navigation, writing): frees the duplicate-finding table
  // and the triple vector's spare capacity. Adding still works (the table is rebuilt).
  void shrink() {
    table_.clear();
    triples_.shrink_to_fit();
  }

  // Adds every triple of `other` (the union).
  void merge(const Graph& other);

  // Compact binary form (for the MPI reduction): terms, then triples.
  void serialize(std::string& out) const;
  // Adds the triples of a serialize()d graph; false if `data` is malformed.
  [[nodiscard]] bool merge_serialized(std::string_view data);

  // Triples ordered by the text of subject, predicate (rdf:type first), object: the order the
  // writers use, so output is deterministic whatever the input order. sorted() is a copy; sort()
  // puts the graph's own triples() in that order (no copy: prov-merge before it writes), and
  // is_sorted() says whether they still are.
  std::vector<Triple> sorted() const;
  void sort();
  bool is_sorted() const { return sorted_; }
  // The triples in that order: triples() when sorted, else `copy` filled with sorted().
  const std::vector<Triple>& in_order(std::vector<Triple>& copy) const {
    if (sorted_) return triples_;
    return copy = sorted();
  }

 private:
  void index(std::size_t slots) const;
  bool indexed() const { return !table_.empty() || triples_.empty(); }

  std::vector<Triple> triples_;  // in order of insertion (or sorted, after sort())
  bool sorted_ = false;
  // Open addressing over triples_, load <= 3/4, rebuilt whole when triples_ is reordered or
  // filtered (empty until the next add): the triple's index + 1 (0 = empty) and 32 bits of its
  // hash, compared before the triple so a probe rarely leaves the table's cache line: 8 bytes a
  // slot, 11–21 bytes per triple.
  struct Slot {
    std::uint32_t index1;
    std::uint32_t tag;
  };
  mutable ZeroArray<Slot> table_;  // built on demand (contains() on a filtered or sorted graph)
};

}  // namespace provio::rdf
