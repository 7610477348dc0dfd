// Workflow records as runs (see workflow_view.h).
#include "query/workflow_view.h"

#include <algorithm>
#include <cstdlib>
#include <set>
#include <tuple>

#include "graph/terms.h"
#include "query/questions.h"

namespace provio::query {

namespace {

std::string rdfs_label(const QueryGraph& g, const std::string& iri) {
  return g.value(iri, std::string(kRdfs) + "label");
}

}  // namespace

double seconds_between(std::int64_t start_us, std::int64_t end_us) {
  return static_cast<double>(end_us - start_us) / 1e6;
}

WorkflowView::WorkflowView(View& v) : v_(v) {
  const QueryGraph& g = v_.graph();
  for (const auto& t : g.subjects(rdf_type(), provio("Task"))) {
    TaskInfo info;
    info.iri = t;
    info.label = rdfs_label(g, t);
    info.parent = g.value(t, provio("parentTask"));
    for (const auto& a : g.objects(t, prov("wasAssociatedWith"))) {
      if (a.kind != Cell::Kind::kIri) continue;
      std::string prog = v_.program_of_thread(a.value);
      if (prog.empty()) continue;
      info.thread = a.value;
      info.program = prog;
      break;
    }
    info.start = time_of(t, "startedAtTime");
    info.end = time_of(t, "endedAtTime");
    for (const auto& c : g.objects(t, prov("used")))
      if (c.kind == Cell::Kind::kIri && g.has(c.value, rdf_type(), provio("Configuration")))
        info.configs.push_back(c.value);
    std::sort(info.configs.begin(), info.configs.end());
    if (!info.thread.empty()) by_thread_[info.thread].push_back(t);
    order_.push_back(t);
    tasks_.emplace(t, std::move(info));
  }
  std::sort(order_.begin(), order_.end(), [&](const std::string& a, const std::string& b) {
    return std::tie(tasks_[a].start, a) < std::tie(tasks_[b].start, b);
  });
}

std::int64_t WorkflowView::time_of(const std::string& s, const char* predicate) const {
  std::string text = v_.graph().value(s, prov(predicate));
  auto us = rdf::parse_datetime_us(text);
  return us ? *us : kNoTime;
}

const TaskInfo* WorkflowView::task(const std::string& iri) const {
  auto it = tasks_.find(iri);
  return it == tasks_.end() ? nullptr : &it->second;
}

const std::string& WorkflowView::run_of(const std::string& t) {
  auto it = run_of_.find(t);
  if (it != run_of_.end()) return it->second;
  std::string run = t, outermost = t;
  std::set<std::string> seen;  // a malformed graph may loop through provio:parentTask
  bool found = false;
  for (std::string cur = t; !cur.empty() && seen.insert(cur).second;) {
    const TaskInfo* info = task(cur);
    if (!info) break;
    outermost = cur;
    for (const auto& c : info->configs) {
      if (config_kind(c) == "HyperparameterSetting") {
        run = cur;
        found = true;
        break;
      }
    }
    if (found) break;
    cur = info->parent;
  }
  return run_of_.emplace(t, found ? run : outermost).first->second;
}

std::string WorkflowView::label(const std::string& who) {
  if (const TaskInfo* t = task(who)) return t->label.empty() ? basename_of(who) : t->label;
  return who.empty() ? "" : v_.program_label(who);
}

std::string WorkflowView::program_label_of(const std::string& who) {
  const TaskInfo* t = task(who);
  std::string prog = t ? t->program : who;
  return prog.empty() ? "" : v_.program_label(prog);
}

std::string WorkflowView::config_kind(const std::string& c) const {
  for (const char* kind : {"HyperparameterSetting", "DataSelection"})
    if (v_.graph().has(c, rdf_type(), provio(kind))) return kind;
  return "Configuration";
}

std::vector<std::string> WorkflowView::configs_of(const std::string& who, const std::string& kind) {
  auto of_kind = [&](const std::vector<std::string>& configs) {
    std::vector<std::string> out;
    for (const auto& c : configs)
      if (kind.empty() || config_kind(c) == kind) out.push_back(c);
    return out;
  };
  std::string program = who;
  std::set<std::string> seen;
  for (std::string cur = who; !cur.empty() && seen.insert(cur).second;) {
    const TaskInfo* info = task(cur);
    if (!info) break;
    program = info->program;
    auto found = of_kind(info->configs);
    if (!found.empty()) return found;
    cur = info->parent;
  }
  if (program.empty()) return {};
  std::vector<std::string> attributed;
  for (const auto& c : graph().subjects(prov("wasAttributedTo"), program))
    if (graph().has(c, rdf_type(), provio("Configuration"))) attributed.push_back(c);
  auto found = of_kind(attributed);
  if (found.size() != 1) return {};
  return found;
}

std::map<std::string, Cell> parameters(const QueryGraph& g, const std::vector<std::string>& configs) {
  std::map<std::string, Cell> out;
  for (const auto& c : configs) {
    for (const auto& p : g.objects(c, provio("parameter"))) {
      if (p.kind != Cell::Kind::kIri) continue;
      auto vals = g.objects(p.value, provio("value"));
      out[g.value(p.value, provio("key"))] = vals.empty() ? Cell::unbound() : vals.front();
    }
  }
  return out;
}

std::vector<MetricRecord> WorkflowView::metrics() {
  const QueryGraph& g = graph();
  std::vector<MetricRecord> out;
  for (const auto& m : g.subjects(rdf_type(), provio("Metric"))) {
    auto vals = g.objects(m, provio("value"));
    if (vals.empty()) continue;
    MetricRecord r;
    r.iri = m;
    r.name = g.value(m, provio("metricName"));
    r.stage = g.value(m, provio("stage"));
    r.task = g.value(m, prov("wasGeneratedBy"));
    r.run = run_of(r.task);
    r.value = vals.front();
    r.number = std::strtod(r.value.value.c_str(), nullptr);
    std::string step = g.value(m, provio("step"));
    if (!step.empty()) r.step = std::strtoll(step.c_str(), nullptr, 10);
    r.time = time_of(m, "generatedAtTime");
    out.push_back(std::move(r));
  }
  std::sort(out.begin(), out.end(), [](const MetricRecord& a, const MetricRecord& b) {
    return std::tie(a.time, a.iri) < std::tie(b.time, b.iri);
  });
  return out;
}

std::string WorkflowView::task_at(const std::string& thread, std::int64_t t) const {
  if (t == kNoTime) return "";
  auto it = by_thread_.find(thread);
  if (it == by_thread_.end()) return "";
  std::string best;
  std::int64_t best_start = kNoTime;
  for (const auto& iri : it->second) {
    const TaskInfo& info = tasks_.at(iri);
    if (info.start == kNoTime || info.start > t || (info.end != kNoTime && info.end < t)) continue;
    // Innermost: tasks of a thread nest strictly, so the open task that began last.
    if (best.empty() || info.start > best_start || (info.start == best_start && iri > best)) {
      best = iri;
      best_start = info.start;
    }
  }
  return best;
}

std::string WorkflowView::task_of(const std::string& activity) const {
  return task_at(v_.graph().value(activity, prov("wasAssociatedWith")), time_of(activity, "startedAtTime"));
}

// A read of a file version (docs/format.md, "Versions") that the reading task wrote itself is its
// own content read back, not a read of what another wrote. Tasks are the unit: a version one task
// of a program wrote (pretrain saving a checkpoint) and another task of it read (resume loading
// it) is a load. Outside any task, the program is the unit.
// A read that names no version (an H5Dread names its dataset) read the versions of that file its
// task read (the open's: docs/format.md, "Versions"): its own content when the task wrote every
// one of them (a summary activity may hold both a load and a read-back of what it saved).
bool WorkflowView::reads_own_version(const std::string& activity, const Reader& reader) {
  const QueryGraph& g = graph();
  auto own = [&](const std::string& version) {
    for (const auto& gen : g.objects(version, prov("wasGeneratedBy")))
      if (gen.kind == Cell::Kind::kIri && v_.program_of_activity(gen.value) == reader.program &&
          task_of(gen.value) == reader.task)
        return true;
    return false;
  };
  std::vector<std::string> versions, named;
  for (const auto& u : g.objects(activity, prov("used"))) {
    if (u.kind != Cell::Kind::kIri) continue;
    (v_.is_version(u.value) ? versions : named).push_back(u.value);
  }
  if (!versions.empty()) return std::any_of(versions.begin(), versions.end(), own);
  const auto& by_file = versions_read_in(reader.program, reader.task);
  for (const auto& e : named) {
    auto it = by_file.find(v_.file_of(e));
    if (it != by_file.end()) versions.insert(versions.end(), it->second.begin(), it->second.end());
  }
  return !versions.empty() && std::all_of(versions.begin(), versions.end(), own);
}

const std::map<std::string, std::vector<std::string>>& WorkflowView::versions_read_in(
    const std::string& program, const std::string& task) {
  auto known = versions_read_.find(program);
  if (known == versions_read_.end()) {
    auto& by_task = versions_read_[program];
    for (const auto& a : v_.activities_of(program)) {
      std::string t = task_of(a);
      for (const auto& u : graph().objects(a, prov("used")))
        if (u.kind == Cell::Kind::kIri && v_.is_version(u.value))
          by_task[t][v_.file_of(u.value)].push_back(u.value);
    }
    known = versions_read_.find(program);
  }
  static const std::map<std::string, std::vector<std::string>> kNone;
  auto it = known->second.find(task);
  return it == known->second.end() ? kNone : it->second;
}

std::vector<Reader> WorkflowView::readers(const std::string& file) {
  const QueryGraph& g = graph();
  std::set<std::string> entities = {file};
  for (const auto& o : g.subjects(provio("inFile"), file)) entities.insert(o);
  std::vector<std::string> owners(entities.begin(), entities.end());
  for (const auto& o : owners)
    for (const auto& a : g.subjects(provio("attributeOf"), o)) entities.insert(a);
  std::vector<Reader> out;
  for (const auto& e : entities) {
    for (const auto& a : g.objects(e, provio("wasReadBy"))) {
      if (a.kind != Cell::Kind::kIri) continue;
      std::string thread = g.value(a.value, prov("wasAssociatedWith"));
      Reader r;
      r.time = time_of(a.value, "startedAtTime");
      r.task = task_at(thread, r.time);
      r.program = v_.program_of_thread(thread);
      if (reads_own_version(a.value, r)) continue;
      out.push_back(std::move(r));
    }
    for (const auto& t : g.subjects(prov("used"), e)) {
      const TaskInfo* info = task(t);
      if (info) out.push_back({t, info->program, info->start});
    }
  }
  return out;
}

std::vector<std::string> WorkflowView::selected_data(
    const std::vector<std::pair<std::string, std::string>>& selection) {
  const QueryGraph& g = graph();
  auto matches = [](const Cell& value, const std::string& text) {
    if (value.value == text) return true;
    char* end = nullptr;
    double x = std::strtod(text.c_str(), &end);
    return !text.empty() && *end == '\0' && compare_cells(value, Cell::number(x)) == 0;
  };
  std::set<std::string> files;
  for (const auto& c : g.subjects(rdf_type(), provio("DataSelection"))) {
    auto params = parameters(g, {c});
    bool all = true;
    for (const auto& [key, text] : selection) {
      auto it = params.find(key);
      all = all && it != params.end() && matches(it->second, text);
    }
    if (!all) continue;
    for (const auto& t : g.subjects(prov("used"), c)) {
      if (!task(t)) continue;
      for (const auto& f : g.subjects(prov("wasGeneratedBy"), t))
        if (g.has(f, rdf_type(), provio("File"))) files.insert(f);
    }
  }
  return {files.begin(), files.end()};
}

std::vector<std::string> WorkflowView::runs_reading(const std::string& entity) {
  std::set<std::string> runs;
  for (const auto& r : readers(v_.file_of(entity)))
    if (!r.task.empty()) runs.insert(run_of(r.task));
  return {runs.begin(), runs.end()};
}

}  // namespace provio::query
