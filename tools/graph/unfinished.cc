// Marks for runs that ended without their final flush (see unfinished.h).
#include "graph/unfinished.h"

#include <string>
#include <unordered_map>
#include <unordered_set>
#include <utility>
#include <vector>

#include "graph/vocabulary.h"

namespace provio::rdf {
namespace {

TermId provio_term(Terms& terms, std::string_view local) {
  return terms.intern(term(kProvio, local));
}

}  // namespace

std::size_t mark_unfinished(Graph& graph) {
  Terms& t = graph.terms;
  const TermId type = t.intern(kRdfTypeTerm);
  const TermId program = provio_term(t, "Program"), end = provio_term(t, "endTime");
  const TermId parent = provio_term(t, "parentRun"), pid = provio_term(t, "pid"),
               host = provio_term(t, "host");
  const TermId incomplete = provio_term(t, "incomplete"), incomplete_class = provio_term(t, "Incomplete");
  const TermId reason = provio_term(t, "reason"), lost = provio_term(t, "lost");
  const TermId no_end = t.intern("\"no-end-time\"");
  const TermId zero = t.intern(typed_literal("0", "unsignedLong"));

  std::unordered_set<TermId> earlier;
  for (const Triple& x : graph.triples()) {
    if (x.p == reason && x.o == no_end) earlier.insert(x.s);
  }
  if (!earlier.empty()) {
    graph.filter(
        [&](const Triple& x) { return !earlier.count(x.s) && !(x.p == incomplete && earlier.count(x.o)); });
  }

  std::vector<TermId> programs;
  std::unordered_set<TermId> ended;
  std::unordered_map<TermId, std::pair<TermId, TermId>> where;  // run → (host, pid)
  std::vector<std::pair<TermId, TermId>> parents;               // (run, parent run)
  for (const Triple& x : graph.triples()) {
    if (x.p == type && x.o == program)
      programs.push_back(x.s);
    else if (x.p == end)
      ended.insert(x.s);
    else if (x.p == host)
      where[x.s].first = x.o;
    else if (x.p == pid)
      where[x.s].second = x.o;
    else if (x.p == parent)
      parents.emplace_back(x.s, x.o);
  }
  for (const auto& [run, par] : parents) {
    auto a = where.find(run), b = where.find(par);
    if (a != where.end() && b != where.end() && a->second == b->second)
      ended.insert(par);  // replaced by exec
  }
  std::size_t marked = 0;
  for (TermId run : programs) {
    if (ended.count(run)) continue;
    std::string node(t[run]);
    node.insert(node.size() - 1, "/incomplete/no-end-time");
    TermId n = t.intern(node);
    graph.add(run, incomplete, n);
    graph.add(n, type, incomplete_class);
    graph.add(n, reason, no_end);
    graph.add(n, lost, zero);
    ++marked;
  }
  return marked;
}

}  // namespace provio::rdf
