// Checkpoint versions and loads (see checkpoints.h).
#include "query/checkpoints.h"

#include <algorithm>
#include <cstdlib>
#include <set>
#include <tuple>

#include "graph/terms.h"

namespace provio::query {

namespace {

long long step_or_min(const std::optional<long long>& s) {
  return s ? *s : INT64_MIN;
}

bool older(const CheckpointVersion& a, const CheckpointVersion& b) {
  return std::make_tuple(a.file, a.time, step_or_min(a.step), a.record) <
         std::make_tuple(b.file, b.time, step_or_min(b.step), b.record);
}

}  // namespace

Checkpoints::Checkpoints(WorkflowView& w) : w_(w) {
  const QueryGraph& g = w_.graph();
  for (const auto& m : g.subjects(rdf_type(), provio("ModelReference"))) {
    std::string stored = g.value(m, provio("storedIn"));
    if (stored.empty()) continue;
    CheckpointVersion v;
    v.record = m;
    v.file = w_.view().file_of(stored);
    v.task = g.value(m, prov("wasGeneratedBy"));
    if (!w_.task(v.task)) v.task.clear();
    v.program = g.value(m, prov("wasAttributedTo"));
    if (v.program.empty() && !v.task.empty()) v.program = w_.task(v.task)->program;
    v.config = g.value(m, provio("trainedWith"));
    std::string step = g.value(m, provio("step"));
    if (!step.empty()) v.step = std::strtoll(step.c_str(), nullptr, 10);
    auto t = rdf::parse_datetime_us(g.value(m, prov("generatedAtTime")));
    if (t) v.time = *t;
    versions_.push_back(std::move(v));
  }
  std::sort(versions_.begin(), versions_.end(), older);
}

std::vector<const CheckpointVersion*> Checkpoints::versions_of(const std::string& file) const {
  std::vector<const CheckpointVersion*> out;
  auto first = std::lower_bound(versions_.begin(), versions_.end(), file,
                                [](const CheckpointVersion& v, const std::string& f) { return v.file < f; });
  for (auto it = first; it != versions_.end() && it->file == file; ++it) out.push_back(&*it);
  return out;
}

const CheckpointVersion* Checkpoints::version_read(const std::string& file, std::int64_t t) const {
  const CheckpointVersion* seen = nullptr;
  for (const CheckpointVersion* v : versions_of(file))
    if (t == kNoTime || v->time == kNoTime || v->time <= t) seen = v;
  return seen;
}

std::vector<CheckpointLoad> Checkpoints::loads() {
  std::vector<CheckpointLoad> out;
  std::set<std::pair<const CheckpointVersion*, std::string>> seen;
  std::set<std::string> files;
  for (const auto& v : versions_) files.insert(v.file);
  for (const auto& file : files) {
    for (const Reader& r : w_.readers(file)) {
      const CheckpointVersion* v = version_read(file, r.time);
      if (!v) continue;
      std::string loader = r.task.empty() ? r.program : r.task;
      std::string writer = v->task.empty() ? v->program : v->task;
      // A read outside any task of the writing program is the writer's own (HDF5 reading back
      // its superblock, a final flush).
      if (loader.empty() || loader == writer || (r.task.empty() && r.program == v->program)) continue;
      if (!seen.emplace(v, loader).second) continue;
      out.push_back({v, loader, r.time});
    }
  }
  std::sort(out.begin(), out.end(), [](const CheckpointLoad& a, const CheckpointLoad& b) {
    return std::make_tuple(a.version->file, a.version->time, a.time, a.loader) <
           std::make_tuple(b.version->file, b.version->time, b.time, b.loader);
  });
  return out;
}

}  // namespace provio::query
