// Folding summary parts into their activities (see fold.h).
#include "graph/fold.h"

#include <algorithm>
#include <charconv>
#include <cstdint>
#include <optional>
#include <unordered_map>
#include <unordered_set>
#include <vector>

#include "graph/complete.h"
#include "graph/terms.h"
#include "graph/unfinished.h"
#include "graph/vocabulary.h"
#include "model/raw_terms.h"

namespace provio::rdf {
namespace {

// The access sizes (provio:size_read_0_100 … provio:size_write_1g_plus) follow the others, reads'
// buckets then writes', in model/raw_terms.h's order; they add up like the count.
enum Measure {
  kCount,
  kBytes,
  kElapsed,
  kStart,
  kEnd,
  kLastPart,
  kSizeFirst,
  kMeasures = kSizeFirst + 2 * model::kSizeBuckets
};

bool is_number(int m) {
  return m == kCount || m == kBytes || m == kLastPart || m >= kSizeFirst;
}
bool adds_up(int m) {
  return m == kCount || m == kBytes || m >= kSizeFirst;
}

std::vector<std::string> measure_iris() {
  std::vector<std::string> out = {
      term(kProvio, "count"),       term(kProvio, "bytes"),     term(kProvio, "elapsed"),
      term(kProv, "startedAtTime"), term(kProv, "endedAtTime"), term(kProvio, "lastPart"),
  };
  for (const auto* terms : {&model::raw::kSizeRead, &model::raw::kSizeWrite})
    for (std::string_view t : *terms) out.push_back(term(kProvio, std::string(t.substr(1))));
  return out;
}
const std::vector<std::string> kMeasureIri = measure_iris();
const std::string kPartial = term(kProvio, "partial");

// The measures of one node (a part, or an activity's own).
struct Values {
  bool has[kMeasures] = {};
  int seen[kMeasures] = {};              // values found; more than one means overlapping merged graphs
  std::uint64_t number[kMeasures] = {};  // the measures is_number() holds
  std::uint64_t elapsed_ns = 0;
  std::int64_t start_us = 0, end_us = 0;
  TermId start_term = kNoTerm, end_term = kNoTerm;

  // Adds one value. Several values of one measure on one node come from overlapping merged
  // graphs (two snapshots of a running job): measures only grow, so the largest (earliest start)
  // is the latest snapshot.
  bool add(Measure m, std::string_view lexical, TermId term) {
    ++seen[m];
    if (is_number(m)) {
      auto v = parse_u64(lexical);
      if (!v) return false;
      number[m] = has[m] ? std::max(number[m], *v) : *v;
      has[m] = true;
      return true;
    }
    switch (m) {
      case kElapsed: {
        auto v = parse_seconds_ns(lexical);
        if (!v) return false;
        elapsed_ns = has[m] ? std::max(elapsed_ns, *v) : *v;
        break;
      }
      case kStart:
      case kEnd: {
        auto v = parse_datetime_us(lexical);
        if (!v) return false;
        if (m == kStart && (!has[m] || *v < start_us)) start_us = *v, start_term = term;
        if (m == kEnd && (!has[m] || *v > end_us)) end_us = *v, end_term = term;
        break;
      }
      default: break;
    }
    has[m] = true;
    return true;
  }

  // Adds the measures of another node (a part).
  void sum(const Values& o) {
    for (int m = 0; m < kMeasures; ++m) {
      if (!o.has[m] || !adds_up(m)) continue;
      number[m] += o.number[m];
      has[m] = true;
    }
    if (o.has[kElapsed]) elapsed_ns += o.elapsed_ns, has[kElapsed] = true;
    if (o.has[kStart] && (!has[kStart] || o.start_us < start_us))
      start_us = o.start_us, start_term = o.start_term;
    if (o.has[kEnd] && (!has[kEnd] || o.end_us > end_us)) end_us = o.end_us, end_term = o.end_term;
    has[kStart] |= o.has[kStart];
    has[kEnd] |= o.has[kEnd];
  }
};

// Whether `lexical` reads as measure `m` (as Values::add reads it), for a node whose values are
// not kept.
bool readable(Measure m, std::string_view lexical) {
  if (is_number(m)) return parse_u64(lexical).has_value();
  if (m == kElapsed) return parse_seconds_ns(lexical).has_value();
  if (m == kStart || m == kEnd) return parse_datetime_us(lexical).has_value();
  return true;
}

// Flush number of part `part` of activity `act`: its IRI is "<act>/p<n>". 0 if it is not.
std::uint64_t part_number(std::string_view act, std::string_view part) {
  std::string_view a = iri_body(act), p = iri_body(part);
  if (a.empty() || p.size() <= a.size() + 2 || p.substr(0, a.size()) != a || p.substr(a.size(), 2) != "/p")
    return 0;
  std::string_view digits = p.substr(a.size() + 2);
  std::uint64_t n = 0;
  auto r = std::from_chars(digits.data(), digits.data() + digits.size(), n);
  return r.ec == std::errc() && r.ptr == digits.data() + digits.size() ? n : 0;
}

std::string u64_term(std::uint64_t v) {
  return typed_literal(std::to_string(v), "unsignedLong");
}

// Activities holding a raw first flush: in a raw file an activity's own measures are its first
// flush (later flushes are its parts), written with offsets (provio:start, provio:span) that only
// raw files have and complete() replaces. Beside a merged graph's measures of the same activity
// (provio:lastPart: that flush is folded in already), they are the same flush seen twice (a job
// merged again with its graph or store, or reloaded into a server), not overlapping snapshots.
std::unordered_set<TermId> raw_first_flushes(const Graph& graph) {
  std::unordered_set<TermId> out;
  TermId start = graph.terms.find(term(kProvio, "start")), span = graph.terms.find(term(kProvio, "span"));
  // Without a merged graph among the inputs (no provio:lastPart) there is nothing to tell apart.
  if ((start == kNoTerm && span == kNoTerm) || graph.terms.find(kMeasureIri[kLastPart]) == kNoTerm)
    return out;
  for (const Triple& t : graph.triples())
    if (t.p == start || t.p == span) out.insert(t.s);
  return out;
}

FoldResult fold_parts(Graph& graph) {
  FoldResult result;
  std::unordered_set<TermId> first_flushes = raw_first_flushes(graph);
  // First what raw files leave out: measures must be in their merged datatypes before parts and
  // measures of merged graphs are compared.
  complete(graph);
  TermId measure_id[kMeasures];
  for (int m = 0; m < kMeasures; ++m) measure_id[m] = graph.terms.find(kMeasureIri[m]);
  TermId partial = graph.terms.find(kPartial);
  auto measure_of = [&](TermId p) -> int {
    for (int m = 0; m < kMeasures; ++m) {
      if (measure_id[m] == p && p != kNoTerm) return m;
    }
    return -1;
  };

  std::unordered_map<TermId, TermId> part_of;             // part → activity
  std::unordered_map<TermId, std::vector<TermId>> parts;  // activity → parts
  for (const Triple& t : graph.triples()) {
    if (t.p == partial && partial != kNoTerm) {
      auto [it, fresh] = part_of.emplace(t.o, t.s);
      if (fresh) parts[t.s].push_back(t.o);
    }
  }

  // Values are kept only for the nodes the fold reads them of: parts, activities with parts, and
  // activities with a measure given twice (overlapping merged graphs). At trace level that is
  // none of millions of activities, whose Values (~400 bytes each) were most of the peak memory.
  static_assert(kMeasures < 31, "a measure mask per term");
  constexpr std::uint32_t kTwice = 1u << 31;
  std::vector<std::uint32_t> seen_mask(graph.terms.size());
  for (const Triple& t : graph.triples()) {
    int m = measure_of(t.p);
    if (m < 0) continue;
    std::uint32_t& mask = seen_mask[t.s];
    if (mask & (1u << m)) mask |= kTwice;
    mask |= 1u << m;
  }
  auto keeps_values = [&](TermId s) { return (seen_mask[s] & kTwice) || part_of.count(s) || parts.count(s); };

  std::unordered_map<TermId, Values> values;  // the nodes keeps_values() names
  std::vector<Triple> unreadable;
  std::size_t bad_values = 0;
  std::string scratch;
  for (const Triple& t : graph.triples()) {
    int m = measure_of(t.p);
    if (m < 0) continue;
    auto lit = literal_view(graph.terms[t.o], scratch);
    bool read = lit && (keeps_values(t.s) ? values[t.s].add(static_cast<Measure>(m), lit->lexical, t.o)
                                          : readable(static_cast<Measure>(m), lit->lexical));
    if (!read) {
      if (bad_values++ == 0) {
        result.messages.push_back("cannot read measure " + std::string(graph.terms[t.o]) + " of " +
                                  std::string(graph.terms[t.s]) + "; kept as it is");
      }
      auto it = part_of.find(t.s);
      unreadable.push_back({it == part_of.end() ? t.s : it->second, t.p, t.o});
    }
  }
  if (bad_values > 1) result.messages.push_back(std::to_string(bad_values) + " unreadable measures in all");

  // New measures per rewritten activity.
  std::unordered_map<TermId, Values> folded;
  std::size_t overlapping = 0;
  for (auto& [act, own] : values) {
    if (part_of.count(act)) continue;
    bool conflict = false;
    for (int m = 0; m < kMeasures; ++m) conflict |= own.seen[m] > 1;
    // Its raw first flush beside its merged measures: the largest values are the merged ones.
    if (own.has[kLastPart] && first_flushes.count(act)) conflict = false;
    auto pit = parts.find(act);
    if (pit == parts.end()) {
      if (conflict) {
        ++overlapping;
        folded.emplace(act, own);
      }
      continue;
    }
    if (conflict) ++overlapping;
  }
  for (auto& [act, list] : parts) {
    Values out;
    auto own = values.find(act);
    std::uint64_t done = 0;
    if (own != values.end()) {
      out = own->second;
      done = out.has[kLastPart] ? out.number[kLastPart] : 0;
    }
    std::uint64_t last = done;
    for (TermId part : list) {
      ++result.parts;
      std::uint64_t n = part_number(graph.terms[act], graph.terms[part]);
      if (n != 0 && n <= done) continue;  // already in the activity's measures
      auto pv = values.find(part);
      if (pv != values.end()) out.sum(pv->second);
      last = std::max(last, n);
    }
    out.number[kLastPart] = last;
    out.has[kLastPart] = last != 0;
    folded[act] = out;
    ++result.activities;
  }
  if (overlapping) {
    result.messages.push_back(std::to_string(overlapping) +
                              " activities had several values of a measure (overlapping merged graphs); "
                              "kept the latest (largest) ones");
  }
  if (folded.empty() && part_of.empty()) return result;

  graph.filter([&](const Triple& t) {
    if (t.p == partial) return false;
    if (measure_of(t.p) < 0) return true;
    return !part_of.count(t.s) && !folded.count(t.s);
  });
  TermId ids[kMeasures];
  for (int m = 0; m < kMeasures; ++m) ids[m] = graph.terms.intern(kMeasureIri[m]);
  for (auto& entry : folded) {
    // Named references, not a structured binding: C++17 lambdas cannot capture those.
    const auto& act = entry.first;
    auto& v = entry.second;
    auto add_number = [&](int m) {
      if (v.has[m]) graph.add(act, ids[m], graph.terms.intern(u64_term(v.number[m])));
    };
    add_number(kCount);
    add_number(kBytes);
    if (v.has[kElapsed]) {
      graph.add(act, ids[kElapsed],
                graph.terms.intern(typed_literal(format_seconds(v.elapsed_ns), "double")));
    }
    if (v.has[kStart]) graph.add(act, ids[kStart], v.start_term);
    if (v.has[kEnd]) graph.add(act, ids[kEnd], v.end_term);
    add_number(kLastPart);
    for (int m = kSizeFirst; m < kMeasures; ++m) add_number(m);
  }
  for (const Triple& t : unreadable) graph.add(t.s, t.p, t.o);
  return result;
}

}  // namespace

FoldResult fold(Graph& graph) {
  FoldResult result = fold_parts(graph);
  // Recomputed at every fold, so a run that has ended since an earlier merge loses its mark.
  mark_unfinished(graph);
  return result;
}

}  // namespace provio::rdf
