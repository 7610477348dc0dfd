// Adding what raw files leave out (see complete.h).
#include "graph/complete.h"

#include <array>
#include <cstdlib>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "graph/terms.h"
#include "graph/vocabulary.h"
#include "model/iri.h"
#include "model/raw_terms.h"
#include "store/turtle.h"

namespace provio::rdf {
namespace {

// Activity class → its PROV-IO+ relation from the entity (docs/provio.ttl).
constexpr std::array<std::pair<std::string_view, std::string_view>, 11> kActivities = {{
    {"Create", "wasCreatedBy"},
    {"Open", "wasOpenedBy"},
    {"Read", "wasReadBy"},
    {"Write", "wasWrittenBy"},
    {"Flush", "wasFlushedBy"},
    {"Close", "wasClosedBy"},
    {"Rename", "wasRenamedBy"},
    {"Delete", "wasDeletedBy"},
    {"Modify", "wasModifiedBy"},
    {"Copy", "wasCopiedBy"},
    {"Access", "wasAccessedBy"},
}};
constexpr std::array<std::string_view, 9> kEntities = {
    "File", "Directory", "Group", "Dataset", "Attribute", "Datatype", "Link", "Object", "Version"};
constexpr std::array<std::string_view, 4> kAgents = {"User", "Program", "Rank", "Thread"};

// A measure's bare number → its range datatype.
struct Typed {
  std::string_view property, from, to;
};
constexpr std::array<Typed, 4> kTyped = {{
    {"count", "integer", "unsignedLong"},
    {"bytes", "integer", "unsignedLong"},
    {"offset", "integer", "long"},
    {"elapsed", "decimal", "double"},
}};

// A summary activity's IRI, `<thread IRI>/<api>-<Op>-e<n>[-<m>][-f<flags>][-t<task>]`
// (<thread IRI> ends in /thread/<k>), in its pieces; nullopt for any other IRI (trace calls,
// parts, the format before's `<thread IRI>/<api>/<Op>/e<n>`).
struct SummaryName {
  std::string_view thread, api;  // api still percent-encoded
  std::size_t op;                // index in kActivities
  std::string_view entity;       // the entity's number
};
bool all_digits(std::string_view s) {
  return !s.empty() && s.find_first_not_of("0123456789") == std::string_view::npos;
}
std::optional<SummaryName> summary_name(std::string_view iri) {
  std::size_t slash = iri.rfind('/');
  if (slash == std::string_view::npos) return std::nullopt;
  std::string_view thread = iri.substr(0, slash), local = iri.substr(slash + 1);
  std::size_t k = thread.rfind('/');
  if (k == std::string_view::npos || !all_digits(thread.substr(k + 1)) ||
      thread.substr(0, k + 1).size() < 8 || thread.substr(k - 7, 8) != "/thread/")
    return std::nullopt;
  // The numbers: e<n>, then at most "-<m>", "-f<flags>" and "-t<task>", in that order.
  std::size_t e = local.rfind("-e");
  if (e == std::string_view::npos) return std::nullopt;
  std::string_view numbers = local.substr(e + 2);
  std::size_t n_end = numbers.find('-'), dash = n_end;
  if (!all_digits(numbers.substr(0, n_end))) return std::nullopt;
  std::string_view rest = dash == std::string_view::npos ? std::string_view() : numbers.substr(dash + 1);
  for (std::size_t after = 0; dash != std::string_view::npos;) {  // after: the next field allowed
    dash = rest.find('-');
    std::string_view field = rest.substr(0, dash);
    std::size_t kind = field.empty() ? 0 : field.front() == 'f' ? 1 : field.front() == 't' ? 2 : 0;
    if (kind < after || !all_digits(field.substr(kind ? 1 : 0))) return std::nullopt;
    after = kind + 1;
    if (dash != std::string_view::npos) rest = rest.substr(dash + 1);
  }
  std::string_view head = local.substr(0, e);
  std::size_t op_dash = head.rfind('-');
  if (op_dash == std::string_view::npos || op_dash == 0) return std::nullopt;
  for (std::size_t i = 0; i < kActivities.size(); ++i) {
    if (head.substr(op_dash + 1) == kActivities[i].first)
      return SummaryName{thread, head.substr(0, op_dash), i, numbers.substr(0, n_end)};
  }
  return std::nullopt;
}

// Summary activities whose blocks leave their class, API, thread and entity to their IRI
// (docs/format.md): adds `A a provio:<Op> ; provio:api "<api>" ; prov:wasAssociatedWith <thread
// IRI>` to every subject of an entity relation, measure, part or flag whose IRI is such a name and
// that has no provio:api, and `A prov:used E` (prov:generated for Create, Write, Modify) where
// its file numbered the entity E of its IRI (`E provio:n <thread IRI>/e<n>`); drops the numbers.
// Returns how many triples were added or dropped.
std::size_t name_summary_activities(Graph& graph) {
  Terms& terms = graph.terms;
  TermId api = terms.find(term(kProvio, "api"));
  TermId number = terms.find(term(kProvio, "n"));
  std::unordered_map<TermId, TermId> numbered;  // <thread IRI>/e<n> → its entity
  // Per term: a predicate that makes its subject a candidate, a subject with provio:api (named),
  // a candidate subject. A byte a term, not hash sets: at trace level every activity is a
  // candidate.
  enum : std::uint8_t { kPred = 1, kNamed = 2, kCandidate = 4 };
  std::vector<std::uint8_t> flags(terms.size());
  for (std::string_view p : {"count", "partial", "transfer", "nested", "coarse"})
    if (TermId id = terms.find(term(kProvio, p)); id != kNoTerm) flags[id] |= kPred;
  for (std::string_view p : {"used", "generated"})
    if (TermId id = terms.find(term(kProv, p)); id != kNoTerm) flags[id] |= kPred;
  if (TermId id = terms.find(kRdfTypeTerm); id != kNoTerm) flags[id] |= kPred;
  for (const Triple& t : graph.triples()) {
    if (t.p == api && api != kNoTerm)
      flags[t.s] |= kNamed;
    else if (t.p == number && number != kNoTerm)
      numbered[t.o] = t.s;
    else if (flags[t.p] & kPred)
      flags[t.s] |= kCandidate;
  }
  struct Found {
    TermId s;
    std::string thread_term, api;  // copies: interning may move the terms they were read from
    std::size_t op;
    TermId entity;
  };
  std::vector<Found> found;
  for (TermId s = 0; s < flags.size(); ++s) {
    if ((flags[s] & (kCandidate | kNamed)) != kCandidate) continue;
    auto n = summary_name(iri_body(terms[s]));
    if (!n) continue;
    std::string node = "<" + std::string(n->thread) + "/e" + std::string(n->entity) + ">";
    TermId id = numbered.empty() ? kNoTerm : terms.find(node);
    auto e = id == kNoTerm ? numbered.end() : numbered.find(id);
    node.resize(n->thread.size() + 1);
    found.push_back(
        {s, node + ">", model::percent_decode(n->api), n->op, e == numbered.end() ? kNoTerm : e->second});
  }
  std::size_t changed = 0;
  if (!numbered.empty()) {
    graph.filter([&](const Triple& t) { return t.p != number; });
    changed += numbered.size();
  }
  if (found.empty()) return changed;
  TermId type = terms.intern(kRdfTypeTerm);
  TermId api_p = terms.intern(term(kProvio, "api"));
  TermId associated = terms.intern(term(kProv, "wasAssociatedWith"));
  TermId used = terms.intern(term(kProv, "used"));
  TermId generated = terms.intern(term(kProv, "generated"));
  std::string text;
  for (const Found& f : found) {
    text.clear();
    append_literal(text, f.api, {}, {});
    TermId cls = terms.intern(term(kProvio, kActivities[f.op].first));
    TermId api_name = terms.intern(text);
    TermId thread = terms.intern(f.thread_term);
    changed +=
        graph.add(f.s, type, cls) + graph.add(f.s, api_p, api_name) + graph.add(f.s, associated, thread);
    std::string_view op = kActivities[f.op].first;
    bool generates = op == "Create" || op == "Write" || op == "Modify";  // model::terms(op).generates
    if (f.entity != kNoTerm) changed += graph.add(f.s, generates ? generated : used, f.entity);
  }
  return changed;
}

}  // namespace

std::size_t complete(Graph& graph) {
  std::size_t named = name_summary_activities(graph);
  Terms& terms = graph.terms;
  TermId type = terms.find(kRdfTypeTerm);
  if (type == kNoTerm) return named;
  // What the scans need to know of a term is kept in arrays indexed by its id (a few bytes a term),
  // not hash maps: at trace level every activity is in them, and a node-based map's allocation
  // and cache misses per activity were most of prov-merge's time.
  const std::size_t n_terms = terms.size();
  // Class id → what it implies: 1 + activity index, or a kind for entities and agents.
  constexpr std::uint8_t kEntity = 0xFE, kAgent = 0xFF;
  std::vector<std::uint8_t> class_of(n_terms);
  for (std::size_t i = 0; i < kActivities.size(); ++i) {
    TermId c = terms.find(term(kProvio, kActivities[i].first));
    if (c != kNoTerm) class_of[c] = static_cast<std::uint8_t>(i + 1);
  }
  for (std::string_view c : kEntities) {
    if (TermId id = terms.find(term(kProvio, c)); id != kNoTerm) class_of[id] = kEntity;
  }
  for (std::string_view c : kAgents) {
    if (TermId id = terms.find(term(kProvio, c)); id != kNoTerm) class_of[id] = kAgent;
  }
  TermId used = terms.find(term(kProv, "used"));
  TermId generated = terms.find(term(kProv, "generated"));
  TermId associated = terms.find(term(kProv, "wasAssociatedWith"));
  TermId on_behalf = terms.find(term(kProv, "actedOnBehalfOf"));
  std::vector<std::uint8_t> typed_of(n_terms);  // property → 1 + index in kTyped
  bool any_typed = false;
  for (std::size_t i = 0; i < kTyped.size(); ++i) {
    if (TermId p = terms.find(term(kProvio, kTyped[i].property)); p != kNoTerm)
      typed_of[p] = static_cast<std::uint8_t>(i + 1), any_typed = true;
  }
  // Access sizes (provio:size_read_0_100 …) are counts, like the count.
  for (const auto* sizes : {&model::raw::kSizeRead, &model::raw::kSizeWrite})
    for (std::string_view s : *sizes)
      if (TermId p = terms.find(term(kProvio, std::string(s.substr(1)))); p != kNoTerm)
        typed_of[p] = 1, any_typed = true;
  std::string xsd_typed[kTyped.size()][2];  // from, to
  for (std::size_t i = 0; i < kTyped.size(); ++i) {
    xsd_typed[i][0] = std::string(kXsd) + std::string(kTyped[i].from);
    xsd_typed[i][1] = std::string(kXsd) + std::string(kTyped[i].to);
  }
  const std::string xsd_integer = std::string(kXsd) + "integer";

  TermId start = terms.find(term(kProvio, "start"));
  TermId span = terms.find(term(kProvio, "span"));
  TermId partial = terms.find(term(kProvio, "partial"));
  TermId start_time = terms.find(term(kProvio, "startTime"));
  std::vector<std::uint8_t> activity(n_terms);      // I/O activity → 1 + class index
  std::vector<TermId> thread_of(n_terms, kNoTerm);  // activity → its thread
  std::unordered_map<TermId, TermId> program_of, activity_of_part;
  std::unordered_map<TermId, std::int64_t> run_start_us;  // program → its start
  struct Offsets {
    TermId node;
    std::uint8_t bits;  // 1: start, 2: span
    std::int64_t start, span;
  };
  std::vector<Offsets> offsets;                    // in order of first sight
  std::vector<std::uint32_t> offsets_of(n_terms);  // node → 1 + index in offsets
  // Bytes of 0 are left out (docs/format.md): a node with a count and no bytes has 0.
  TermId count = terms.find(term(kProvio, "count"));
  TermId bytes = terms.find(term(kProvio, "bytes"));
  // Versions take prov:used / prov:wasGeneratedBy but no provio:wasXxxBy: that relation names the
  // one file or object an activity acted on (docs/format.md, "Versions").
  enum : std::uint8_t { kCounted = 1, kWithBytes = 2, kVersion = 4, kDropOffsets = 8 };
  std::vector<std::uint8_t> node_flags(n_terms);
  std::vector<Triple> add;
  bool any_activity = false, any_entity = false, any_agent = false, any_counted = false;
  TermId version_class = terms.find(term(kProvio, "Version"));
  std::string scratch;
  for (const Triple& t : graph.triples()) {
    if (t.p == type) {
      if (t.o == version_class && version_class != kNoTerm) node_flags[t.s] |= kVersion;
      std::uint8_t c = class_of[t.o];
      if (c == 0) continue;
      if (c != kEntity && c != kAgent) activity[t.s] = c, any_activity = true;
      any_entity |= c == kEntity;
      any_agent |= c == kAgent;
    } else if (t.p == associated && associated != kNoTerm) {
      thread_of[t.s] = t.o;
    } else if (t.p == on_behalf && on_behalf != kNoTerm) {
      program_of[t.s] = t.o;
    } else if (t.p == partial && partial != kNoTerm) {
      activity_of_part[t.o] = t.s;
    } else if (t.p == start_time && start_time != kNoTerm) {
      auto lit = literal_view(terms[t.o], scratch);
      if (auto us = lit ? parse_datetime_us(lit->lexical) : std::nullopt) run_start_us[t.s] = *us;
    } else if (t.p == count && count != kNoTerm) {
      node_flags[t.s] |= kCounted;
      any_counted = true;
    } else if (t.p == bytes && bytes != kNoTerm) {
      node_flags[t.s] |= kWithBytes;
    } else if ((t.p == start || t.p == span) && t.p != kNoTerm) {
      auto lit = literal_view(terms[t.o], scratch);
      if (!lit || lit->datatype != xsd_integer) continue;
      scratch.assign(lit->lexical.data(), lit->lexical.size());  // strtoll needs its end
      char* end = nullptr;
      long long v = std::strtoll(scratch.c_str(), &end, 10);
      if (end == scratch.c_str() || *end) continue;
      std::uint32_t& slot = offsets_of[t.s];
      if (!slot) {
        offsets.push_back({t.s, 0, 0, 0});
        slot = static_cast<std::uint32_t>(offsets.size());
      }
      Offsets& o = offsets[slot - 1];
      (t.p == start ? o.start : o.span) = v;
      o.bits |= t.p == start ? 1 : 2;
    }
  }
  offsets_of = {};
  if (!any_activity && !any_entity && !any_agent && !any_typed && offsets.empty() && !any_counted)
    return named;
  TermId prov_activity = terms.intern(term(kProv, "Activity"));
  TermId prov_entity = terms.intern(term(kProv, "Entity"));
  TermId prov_agent = terms.intern(term(kProv, "Agent"));
  TermId generated_by = terms.intern(term(kProv, "wasGeneratedBy"));
  TermId attributed = terms.intern(term(kProv, "wasAttributedTo"));
  std::vector<TermId> relation(kActivities.size());
  for (std::size_t i = 0; i < kActivities.size(); ++i)
    relation[i] = terms.intern(term(kProvio, kActivities[i].second));

  // Rewritten: prov:generated of I/O activities, bare measures (marked by their index in the
  // triples, which stay as they are until the filter below), and the offsets of nodes given times.
  std::vector<bool> dropped(graph.size());
  std::size_t drops = 0;
  std::string v;
  for (std::size_t k = 0; k < graph.size(); ++k) {
    const Triple& t = graph.triples()[k];
    if (t.p == type) {
      std::uint8_t c = class_of[t.o];
      if (c == 0) continue;
      TermId super = c == kEntity ? prov_entity : c == kAgent ? prov_agent : prov_activity;
      add.push_back({t.s, type, super});
    } else if ((t.p == used && used != kNoTerm) || (t.p == generated && generated != kNoTerm)) {
      std::uint8_t a = activity[t.s];
      if (a == 0) continue;
      if (!(node_flags[t.o] & kVersion)) add.push_back({t.o, relation[a - 1u], t.s});
      if (t.p != generated) continue;
      dropped[k] = true, ++drops;
      add.push_back({t.o, generated_by, t.s});
      TermId th = thread_of[t.s];
      auto pr = th == kNoTerm ? program_of.end() : program_of.find(th);
      if (pr != program_of.end()) add.push_back({t.o, attributed, pr->second});
    } else if (std::uint8_t m = typed_of[t.p]; m != 0) {
      auto lit = literal_view(terms[t.o], scratch);
      if (!lit || lit->datatype != xsd_typed[m - 1u][0]) continue;
      v.clear();
      append_literal(v, lit->lexical, xsd_typed[m - 1u][1], {});
      dropped[k] = true, ++drops;
      add.push_back({t.s, t.p, terms.intern(v)});
    }
  }
  // Times: µs after the program's start, and µs from start to end (docs/format.md).
  TermId started = terms.intern(term(kProv, "startedAtTime"));
  TermId ended = terms.intern(term(kProv, "endedAtTime"));
  auto datetime = [&](std::int64_t us) {
    std::string text;
    store::append_datetime(text, static_cast<std::uint64_t>(us) * 1000u);
    v.clear();
    append_literal(v, text, std::string(kXsd) + "dateTime", {});
    return terms.intern(v);
  };
  for (const Offsets& o : offsets) {
    if (o.bits != 3) continue;
    auto part = activity_of_part.find(o.node);
    TermId act = part == activity_of_part.end() ? o.node : part->second;
    TermId th = act < n_terms ? thread_of[act] : kNoTerm;
    auto pr = th == kNoTerm ? program_of.end() : program_of.find(th);
    auto base = pr == program_of.end() ? run_start_us.end() : run_start_us.find(pr->second);
    if (base == run_start_us.end()) continue;  // no program start to count from: kept as written
    add.push_back({o.node, started, datetime(base->second + o.start)});
    add.push_back({o.node, ended, datetime(base->second + o.start + o.span)});
    node_flags[o.node] |= kDropOffsets;
    drops += 2;
  }
  if (any_counted) {
    std::string zero;
    append_literal(zero, "0", std::string(kXsd) + "unsignedLong", {});
    TermId zero_term = terms.intern(zero);
    TermId bytes_term = terms.intern(term(kProvio, "bytes"));
    for (TermId node = 0; node < n_terms; ++node)
      if ((node_flags[node] & (kCounted | kWithBytes)) == kCounted)
        add.push_back({node, bytes_term, zero_term});
  }
  if (drops) {
    graph.filter_indexed([&](std::size_t k, const Triple& t) {
      if (dropped[k]) return false;
      return !((t.p == start || t.p == span) && (node_flags[t.s] & kDropOffsets));
    });
  }
  std::size_t changed = 0;
  for (const Triple& t : add) changed += graph.add(t.s, t.p, t.o) ? 1 : 0;
  return named + changed + drops;
}

}  // namespace provio::rdf
