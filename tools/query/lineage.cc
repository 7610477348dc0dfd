// Lineage closure (see lineage.h for the step relation).
#include "query/lineage.h"

#include <algorithm>
#include <map>
#include <set>
#include <tuple>

#include "model/version_key.h"
#include "query/version_choice.h"
#include "query/workflow_view.h"

namespace provio::query {
namespace {

void sort_unique(std::vector<std::string>& v) {
  std::sort(v.begin(), v.end());
  v.erase(std::unique(v.begin(), v.end()), v.end());
}

bool has_version_of(View& v, const std::vector<std::string>& entities, const std::string& file) {
  return std::any_of(entities.begin(), entities.end(),
                     [&](const std::string& x) { return v.is_version(x) && v.file_of(x) == file; });
}

bool stamp_of(const std::string& version_iri, model::VersionStamp& out) {
  std::size_t at = version_iri.rfind(model::kVersionSeparator);
  return at != std::string::npos &&
         model::parse_version_key(std::string_view(version_iri).substr(at + model::kVersionSeparator.size()),
                                  out);
}

// A unit's key: the program and the task ("" outside any task), never an IRI (a fork child's
// task may have its parent's as parent: the same task in two programs is two units).
std::string unit_key(const std::string& program, const std::string& task) {
  return program + "\n" + task;
}

}  // namespace

Lineage::Lineage(View& v) : v_(v) {}
Lineage::~Lineage() = default;

const std::vector<std::string>& Lineage::units_of(const std::string& program) {
  auto it = units_.find(program);
  if (it != units_.end()) return it->second;
  std::vector<std::string> units;
  if (has_tasks()) {
    std::map<std::string, std::vector<std::string>> by_unit;
    bool in_task = false;
    for (const auto& a : v_.activities_of(program)) {
      std::string t = tasks_->task_of(a);
      in_task = in_task || !t.empty();
      if (t.empty()) by_unit[unit_key(program, t)].push_back(a);
      // The task and each of its ancestors: a task's unit holds its subtasks' activities.
      std::set<std::string> seen;  // a malformed graph may loop through provio:parentTask
      for (std::string cur = t; !cur.empty() && seen.insert(cur).second;) {
        by_unit[unit_key(program, cur)].push_back(a);
        const TaskInfo* info = tasks_->task(cur);
        cur = info ? info->parent : "";
      }
    }
    if (in_task) {
      for (auto& [unit, activities] : by_unit) {
        units.push_back(unit);
        unit_program_[unit] = program;
        unit_activities_[unit] = std::move(activities);
      }
    }
  }
  return units_.emplace(program, std::move(units)).first->second;
}

// A run of write epochs names only its first and last versions (posix/versions.h): what another
// program read in between is a version nobody generated, on the same inode, with a modification
// time within the run's. Such versions of a file join G(P) when they lie between the first and
// the last version P generated of that file on that inode.
void Lineage::add_covered_versions(std::vector<std::string>& gen) {
  const QueryGraph& g = v_.graph();
  std::map<std::pair<std::string, unsigned long long>, std::pair<model::VersionStamp, model::VersionStamp>>
      spans;
  for (const auto& e : gen) {
    model::VersionStamp s;
    if (!v_.is_version(e) || !stamp_of(e, s)) continue;
    auto key = std::make_pair(v_.file_of(e), s.inode);
    auto it = spans.find(key);
    if (it == spans.end()) {
      spans.emplace(key, std::make_pair(s, s));
      continue;
    }
    if (s <= it->second.first) it->second.first = s;
    if (it->second.second <= s) it->second.second = s;
  }
  std::vector<std::string> covered;
  for (const auto& [key, span] : spans) {
    if (span.second <= span.first) continue;  // one version: nothing between
    for (auto& v : g.subjects(prov("specializationOf"), key.first)) {
      model::VersionStamp s;
      if (!stamp_of(v, s) || s.inode != key.second || !(span.first <= s) || !(s <= span.second)) continue;
      if (g.objects(v, prov("wasGeneratedBy")).empty()) covered.push_back(std::move(v));
    }
  }
  gen.insert(gen.end(), covered.begin(), covered.end());
  sort_unique(gen);
}

// A file P used without naming a version of it (a shell opening `< in.txt` for the program it
// then execs, an open never read from) is bound to the version the file held then: its first
// such use, by time. P's own versions of the file (in `gen`) and the versions it read stay as
// they are; a file with no version then stays the path.
void Lineage::bind_unversioned_uses(std::vector<std::string>& used, const std::vector<std::string>& gen,
                                    const std::map<std::string, std::string>& first_use) {
  std::set<std::string> versioned;
  for (const auto& e : used)
    if (v_.is_version(e)) versioned.insert(v_.file_of(e));
  for (const auto& e : gen)
    if (v_.is_version(e)) versioned.insert(v_.file_of(e));
  for (const auto& [file, time] : first_use) {
    if (versioned.count(file)) continue;
    std::string held = version_at(v_, file, time);
    if (!held.empty()) used.push_back(std::move(held));
  }
  sort_unique(used);
}

void Lineage::compute(const std::string& p) {
  const QueryGraph& g = v_.graph();
  std::vector<std::string> gen, used;
  std::map<std::string, std::string> first_use;  // file used by a path alone -> earliest start
  auto unit = unit_activities_.find(p);
  for (const auto& a : unit != unit_activities_.end() ? unit->second : v_.activities_of(p)) {
    for (auto& e : g.subjects(prov("wasGeneratedBy"), a)) {
      gen.push_back(v_.file_of(e));
      gen.push_back(std::move(e));
    }
    // A stat of a directory (a shell's working directory) is a metadata touch, not data read.
    bool metadata_only = g.has(a, rdf_type(), provio("Access"));
    std::string start;
    for (const auto& c : g.objects(a, prov("used"))) {
      if (c.kind != Cell::Kind::kIri) continue;
      if (metadata_only && g.has(c.value, rdf_type(), provio("Directory"))) continue;
      const std::string& file = v_.file_of(c.value);
      if (c.value == file && !file.empty()) {
        if (start.empty()) start = g.value(a, prov("startedAtTime"));
        std::string& first = first_use[file];
        if (!start.empty() && (first.empty() || start < first)) first = start;
      }
      used.push_back(file);
      used.push_back(c.value);
    }
  }
  sort_unique(gen);
  sort_unique(used);
  bind_unversioned_uses(used, gen, first_use);
  add_covered_versions(gen);
  // A version read or left stands for its file and the file's objects.
  std::vector<std::string> read_versions_of, left_versions_of;
  for (const auto& e : used)
    if (v_.is_version(e)) read_versions_of.push_back(v_.file_of(e));
  for (const auto& e : gen)
    if (v_.is_version(e)) left_versions_of.push_back(v_.file_of(e));
  sort_unique(read_versions_of);
  sort_unique(left_versions_of);
  auto among = [](const std::vector<std::string>& v, const std::string& x) {
    return std::binary_search(v.begin(), v.end(), x);
  };
  // A version stands for its file; the HDF5 objects inside it stay, bound to it (within()).
  std::vector<std::string> in, out, read, left;
  for (auto& e : used) {
    if (among(gen, e)) continue;
    if (v_.is_version(e)) {
      read.push_back(e);
      in.push_back(std::move(e));
      continue;
    }
    const std::string& file = v_.file_of(e);
    if (among(gen, file) || (among(read_versions_of, file) && e == file)) continue;
    in.push_back(std::move(e));
  }
  for (const auto& e : gen) {
    if (v_.is_version(e)) left.push_back(e);
    if (v_.is_version(e) || !among(left_versions_of, v_.file_of(e)) || e != v_.file_of(e)) out.push_back(e);
  }
  generated_[p] = std::move(gen);
  inputs_[p] = std::move(in);
  outputs_[p] = std::move(out);
  read_[p] = std::move(read);
  left_[p] = std::move(left);
}

// An HDF5 object reached through P lives in the versions of its file P read (upward) or left
// (downward); a file, a version or an object of a file P saw no version of is bound to none.
std::vector<std::string> Lineage::within(const std::string& x, const std::string& p, bool upward) {
  std::vector<std::string> out;
  const std::string& file = v_.file_of(x);
  if (file.empty() || file == x || v_.is_version(x)) return out;
  if (!read_.count(p)) compute(p);
  for (const auto& ver : upward ? read_[p] : left_[p])
    if (v_.file_of(ver) == file) out.push_back(ver);
  return out;
}

// The programs one step from `n`: for an object bound to versions, only those that made (or
// read) the object in one of those versions, never the writers of its file's other versions.
std::vector<std::string> Lineage::step(const Node& n, bool upward) {
  if (n.within.empty()) return upward ? generators(n.iri) : users(n.iri);
  std::vector<std::string> out;
  for (const auto& ver : n.within)
    for (auto& p : upward ? generators(ver) : users(ver)) {
      const auto& made = upward ? generated(p) : inputs(p);
      if (std::binary_search(made.begin(), made.end(), n.iri)) out.push_back(std::move(p));
    }
  sort_unique(out);
  return out;
}

const std::vector<std::string>& Lineage::outputs(const std::string& p) {
  if (!outputs_.count(p)) compute(p);
  return outputs_[p];
}

bool Lineage::left_version_of(const std::string& p, const std::string& file) {
  return has_version_of(v_, outputs(p), file);
}

const std::vector<std::string>& Lineage::generated(const std::string& p) {
  if (!generated_.count(p)) compute(p);
  return generated_[p];
}

const std::vector<std::string>& Lineage::inputs(const std::string& p) {
  if (!inputs_.count(p)) compute(p);
  return inputs_[p];
}

// The entity itself and everything that rolls up to it: its HDF5 objects and the attributes of
// both. Candidates only: callers keep the programs whose G / inputs really contain `e`.
std::vector<std::string> Lineage::rolled_up(const std::string& e) {
  const QueryGraph& g = v_.graph();
  std::vector<std::string> out{e};
  for (auto& o : g.subjects(provio("inFile"), e)) {
    for (auto& a : g.subjects(provio("attributeOf"), o)) out.push_back(std::move(a));
    out.push_back(std::move(o));
  }
  for (auto& a : g.subjects(provio("attributeOf"), e)) out.push_back(std::move(a));
  return out;
}

std::vector<std::string> Lineage::generators(const std::string& e) {
  const QueryGraph& g = v_.graph();
  std::vector<std::string> candidates;
  auto add_generators_of = [&](const std::string& x) {
    for (const auto& c : g.objects(x, prov("wasGeneratedBy"))) {
      if (c.kind != Cell::Kind::kIri) continue;
      const std::string& p = v_.program_of_activity(c.value);
      if (!p.empty()) candidates.push_back(p);
    }
  };
  for (const auto& x : rolled_up(e)) add_generators_of(x);
  // A version no program generated may lie within a writer's run (add_covered_versions): the
  // candidates are the writers of the file's other versions.
  if (candidates.empty() && v_.is_version(e))
    for (const auto& w : g.subjects(prov("specializationOf"), v_.file_of(e))) add_generators_of(w);
  sort_unique(candidates);
  std::vector<std::string> out;
  for (auto& p : candidates) {
    const auto& gen = generated(p);
    if (std::binary_search(gen.begin(), gen.end(), e)) out.push_back(std::move(p));
  }
  if (!v_.is_version(e)) return out;
  const std::string file = v_.file_of(e);
  if (out.empty()) {
    for (auto& p : generators(file))
      if (!left_version_of(p, file)) out.push_back(std::move(p));
    return out;
  }
  // The ranks of one MPI job step writing one shared file make one version, though each names
  // the content its own close saw (and ranks that wrote only through HDF5's collective
  // aggregators name none): every rank of a writer's run (same job, executable and command
  // line, as runs.h groups them) that wrote the file.
  auto key = [&](const std::string& p) { return run_key(v_.program(p)); };
  std::set<std::string> writer_runs;
  for (const auto& p : out)
    if (!key(p).empty()) writer_runs.insert(key(p));
  if (writer_runs.empty()) return out;
  for (auto& p : generators(file))
    if (writer_runs.count(key(p))) out.push_back(std::move(p));
  sort_unique(out);
  return out;
}

// The programs whose activities used `e`, what rolls up to it or (for a file or an object) a
// version of its file. Candidates only: users() keeps those whose inputs really contain `e`.
std::vector<std::string> Lineage::user_candidates(const std::string& e) {
  const QueryGraph& g = v_.graph();
  std::vector<std::string> candidates;
  for (const auto& x : rolled_up(e)) {
    for (const auto& a : g.subjects(prov("used"), x)) {
      const std::string& p = v_.program_of_activity(a);
      if (!p.empty()) candidates.push_back(p);
    }
  }
  // A file or object is also an input of the programs that read a version of its file.
  const std::string file = v_.file_of(e);
  bool plain = !v_.is_version(e);
  if (plain)
    for (const auto& ver : g.subjects(prov("specializationOf"), file))
      for (const auto& a : g.subjects(prov("used"), ver)) {
        const std::string& p = v_.program_of_activity(a);
        if (!p.empty()) candidates.push_back(p);
      }
  sort_unique(candidates);
  return candidates;
}

std::vector<std::string> Lineage::users(const std::string& e) {
  const std::string file = v_.file_of(e);
  bool plain = !v_.is_version(e);
  std::vector<std::string> out;
  for (auto& p : user_candidates(e)) {
    const auto& in = inputs(p);
    if (std::binary_search(in.begin(), in.end(), e) || (plain && has_version_of(v_, in, file)))
      out.push_back(std::move(p));
  }
  return out;
}

bool Lineage::has_tasks() {
  if (!tasks_) tasks_ = std::make_unique<WorkflowView>(v_);
  return !tasks_->tasks().empty();
}

std::vector<std::string> Lineage::unit_step(const Node& n, bool upward,
                                            const std::vector<std::string>& whole) {
  auto contains = [](const std::vector<std::string>& v, const std::string& x) {
    return std::binary_search(v.begin(), v.end(), x);
  };
  std::vector<std::string> out;
  if (!has_tasks()) return out;
  if (upward) {
    for (const auto& p : whole)
      for (const auto& u : units_of(p))
        if (contains(generated(u), n.iri)) out.push_back(u);
    return out;
  }
  // As users() and step() decide for a program, for each unit of the programs that are none.
  const std::string file = v_.file_of(n.iri);
  bool plain = n.within.empty() && !v_.is_version(n.iri);
  std::vector<std::string> sources = n.within.empty() ? std::vector<std::string>{n.iri} : n.within;
  std::vector<std::string> programs;
  for (const auto& x : sources)
    for (auto& p : user_candidates(x)) programs.push_back(std::move(p));
  sort_unique(programs);
  for (const auto& p : programs) {
    if (std::find(whole.begin(), whole.end(), p) != whole.end()) continue;
    for (const auto& u : units_of(p)) {
      const auto& in = inputs(u);
      if (contains(in, n.iri) || (plain && has_version_of(v_, in, file))) out.push_back(u);
    }
  }
  return out;
}

std::vector<LineageStep> Lineage::walk(const std::string& start, int depth, bool upward) {
  const QueryGraph& g = v_.graph();
  std::vector<LineageStep> out;
  // An object is seen once per set of versions it is bound to: the same dataset in two versions
  // of its file is two nodes.
  auto seen_key = [](const Node& n) {
    std::string k = n.iri;
    for (const auto& v : n.within) k += "\n" + v;
    return k;
  };
  std::unordered_set<std::string> seen_entities{start}, seen_programs;
  std::vector<Node> frontier{{start, {}}};
  for (int level = 1; !frontier.empty() && (depth < 0 || level <= depth); ++level) {
    std::vector<Node> next;
    for (const auto& n : frontier) {
      const std::string& e = n.iri;
      // One step through `key`, a program or one of its units.
      auto through = [&](const std::string& key, const std::string& p) {
        if (seen_programs.insert(p).second) out.push_back({level, true, p, upward ? "generated" : "used", e});
        const auto& read_by_p = inputs(p);
        for (const auto& x : upward ? inputs(key) : outputs(key)) {
          Node reached{x, within(x, key, upward)};
          if (seen_entities.insert(seen_key(reached)).second) {
            bool across = upward && key != p && !std::binary_search(read_by_p.begin(), read_by_p.end(), x);
            out.push_back({level, false, x, upward ? "used by" : "generated by", p, across});
            next.push_back(std::move(reached));
          }
        }
      };
      std::vector<std::string> programs = step(n, upward);
      for (const auto& p : programs) through(p, p);
      for (const auto& u : unit_step(n, upward, programs)) through(u, unit_program_.at(u));
      std::vector<std::string> derived;
      if (upward) {
        for (const auto& c : g.objects(e, prov("wasDerivedFrom")))
          if (c.kind == Cell::Kind::kIri) derived.push_back(c.value);
      } else {
        derived = g.subjects(prov("wasDerivedFrom"), e);
      }
      sort_unique(derived);
      for (const auto& x : derived) {
        if (seen_entities.insert(x).second) {
          out.push_back({level, false, x, upward ? "source of" : "derived from", e});
          next.push_back({x, {}});
        }
      }
    }
    frontier = std::move(next);
  }
  return out;
}

std::vector<LineageStep> Lineage::up(const std::string& entity, int depth) {
  return walk(entity, depth, true);
}
std::vector<LineageStep> Lineage::down(const std::string& entity, int depth) {
  return walk(entity, depth, false);
}

}  // namespace provio::query
