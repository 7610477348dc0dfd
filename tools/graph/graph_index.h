// Navigation over a finished Graph: for every term, the (predicate, object) pairs it is the
// subject of and the (predicate, subject) pairs it is the object of, each sorted by predicate.
// The questions (tools/query) walk the graph through it: objects(s, p) and subjects(p, o) are a
// binary search in one term's pairs.
//
// Hard rule: built from the graph's own term ids, without copying or re-interning a term: the
// index costs two arrays of 8 bytes per triple and two of 4 per term, so querying a raw
// directory costs no more than prov-merge reading it (docs/performance.md, "Raw directories").
// The graph must not change while the index is used.
#pragma once

#include <cstdint>
#include <string_view>
#include <vector>

#include "graph/graph.h"

namespace provio::rdf {

class GraphIndex {
 public:
  // One neighbour: through predicate `p`, the term `t`.
  struct Arc {
    TermId p, t;
    bool operator<(const Arc& o) const { return p != o.p ? p < o.p : t < o.t; }
  };
  struct Arcs {
    const Arc* first = nullptr;
    const Arc* last = nullptr;
    const Arc* begin() const { return first; }
    const Arc* end() const { return last; }
    bool empty() const { return first == last; }
  };

  explicit GraphIndex(const Graph& graph);
  const Graph& graph() const { return graph_; }

  // The id of the IRI `iri` (without <>, as in the graph), kNoTerm if the graph has none.
  TermId iri(std::string_view iri) const;
  // Objects of (s, p, *) and subjects of (*, p, o) (none when a term is kNoTerm).
  Arcs objects(TermId s, TermId p) const;
  Arcs subjects(TermId p, TermId o) const;
  bool is_subject(TermId t) const { return !out_.of(t).empty(); }
  bool is_object(TermId t) const { return !in_.of(t).empty(); }
  std::size_t size() const { return graph_.size(); }

 private:
  // Compressed rows: the arcs of term t are arcs[start[t]] .. arcs[start[t + 1]].
  struct Rows {
    std::vector<std::uint32_t> start;
    std::vector<Arc> arcs;
    Arcs of(TermId t) const;
    Arcs of(TermId t, TermId p) const;
  };
  const Graph& graph_;
  Rows out_, in_;
};

}  // namespace provio::rdf
