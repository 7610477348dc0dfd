// Navigation indexes (see graph_index.h). Built by counting sort on the term ids (which are
// dense): one pass counts each term's arcs, one places them, and only each term's few arcs are
// sorted, so the build is linear in the triples where sorting whole triple arrays was not.
#include "graph/graph_index.h"

#include <algorithm>
#include <string>

namespace provio::rdf {
namespace {

template <typename Key, typename Arc>
void build(std::vector<std::uint32_t>& start, std::vector<GraphIndex::Arc>& arcs,
           const std::vector<Triple>& triples, std::size_t terms, Key key, Arc arc) {
  start.assign(terms + 1, 0);
  for (const Triple& t : triples) ++start[key(t) + 1];
  for (std::size_t i = 1; i <= terms; ++i) start[i] += start[i - 1];
  arcs.resize(triples.size());
  std::vector<std::uint32_t> next(start.begin(), start.end() - 1);
  for (const Triple& t : triples) arcs[next[key(t)]++] = arc(t);
  for (std::size_t i = 0; i < terms; ++i) {
    if (start[i + 1] - start[i] > 1) std::sort(arcs.begin() + start[i], arcs.begin() + start[i + 1]);
  }
}

}  // namespace

GraphIndex::GraphIndex(const Graph& graph) : graph_(graph) {
  const auto& ts = graph.triples();
  std::size_t n = graph.terms.size();
  build(
      out_.start, out_.arcs, ts, n, [](const Triple& t) { return t.s; },
      [](const Triple& t) {
        return Arc{t.p, t.o};
      });
  build(
      in_.start, in_.arcs, ts, n, [](const Triple& t) { return t.o; },
      [](const Triple& t) {
        return Arc{t.p, t.s};
      });
}

TermId GraphIndex::iri(std::string_view iri) const {
  std::string term;
  term.reserve(iri.size() + 2);
  term += '<';
  term += iri;
  term += '>';
  return graph_.terms.find(term);
}

GraphIndex::Arcs GraphIndex::Rows::of(TermId t) const {
  if (t == kNoTerm || std::size_t{t} + 1 >= start.size()) return {};
  return {arcs.data() + start[t], arcs.data() + start[t + 1]};
}

GraphIndex::Arcs GraphIndex::Rows::of(TermId t, TermId p) const {
  if (p == kNoTerm) return {};
  Arcs all = of(t);
  const Arc* lo = std::lower_bound(all.first, all.last, Arc{p, 0});
  const Arc* hi = std::lower_bound(lo, all.last, Arc{p + 1, 0});
  return {lo, hi};
}

GraphIndex::Arcs GraphIndex::objects(TermId s, TermId p) const {
  return out_.of(s, p);
}

GraphIndex::Arcs GraphIndex::subjects(TermId p, TermId o) const {
  return in_.of(o, p);
}

}  // namespace provio::rdf
