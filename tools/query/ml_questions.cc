// Machine-learning questions (see ml_questions.h).
#include "query/ml_questions.h"

#include <algorithm>
#include <cstdint>
#include <cstdlib>
#include <map>
#include <set>
#include <tuple>

#include "query/questions.h"

namespace provio::query {

namespace {

constexpr const char* kStages[][2] = {
    {"training", "Training"}, {"validation", "Validation"}, {"testing", "Testing"}};

std::string stage_name(const std::string& iri) {
  for (const auto& s : kStages)
    if (iri == provio(s[1])) return s[0];
  return iri.empty() ? "" : abbreviate(iri);
}

std::string join_params(const std::map<std::string, Cell>& params) {
  std::string s;
  for (const auto& [k, val] : params) s += (s.empty() ? "" : " ") + k + "=" + val.value;
  return s;
}

Cell optional_step(const std::optional<long long>& s) {
  return s ? Cell{Cell::Kind::kLiteral, std::to_string(*s), std::string(kXsd) + "long", {}} : Cell::unbound();
}

// The stage a question about `metric` looks at: the one asked for, else validation when any
// record of the metric has it, else every stage ("*").
std::string effective_stage(const std::vector<MetricRecord>& records, const std::string& metric,
                            const std::string& asked) {
  if (!asked.empty()) return asked;
  for (const auto& r : records)
    if (r.name == metric && r.stage == provio("Validation")) return r.stage;
  return "*";
}

bool in_stage(const MetricRecord& r, const std::string& stage) {
  return stage.empty() || stage == "*" || r.stage == stage;
}

// The runs `f` keeps (when f.any()).
std::set<std::string> kept_runs(WorkflowView& w, const RunFilter& f) {
  std::set<std::string> by_used, by_selection;
  for (auto& r : f.used.empty() ? std::vector<std::string>{} : w.runs_reading(f.used))
    by_used.insert(std::move(r));
  for (const auto& file : f.selection.empty() ? std::vector<std::string>{} : w.selected_data(f.selection))
    for (auto& r : w.runs_reading(file)) by_selection.insert(std::move(r));
  if (f.used.empty()) return by_selection;
  if (f.selection.empty()) return by_used;
  std::set<std::string> both;
  for (const auto& r : by_used)
    if (by_selection.count(r)) both.insert(r);
  return both;
}

// Later is greater: by step when both have one, else by time.
bool later(const MetricRecord& a, const MetricRecord& b) {
  if (a.step && b.step && *a.step != *b.step) return *a.step > *b.step;
  return std::tie(a.time, a.iri) > std::tie(b.time, b.iri);
}

// The checkpoint version holding the result of metric record `m` among its run's versions:
// the one of the same step, else the last one of an earlier step, else (no steps) the last one
// recorded before the metric.
const CheckpointVersion* version_for(const std::vector<const CheckpointVersion*>& versions,
                                     const MetricRecord& m) {
  const CheckpointVersion* best = nullptr;
  auto key = [](const CheckpointVersion* x) {
    return std::make_tuple(x->step ? *x->step : INT64_MIN, x->time);
  };
  for (const CheckpointVersion* v : versions) {
    bool fits = m.step && v->step ? *v->step <= *m.step : (m.time == kNoTime || v->time <= m.time);
    if (fits && (!best || key(v) >= key(best))) best = v;
  }
  return best;
}

}  // namespace

Status parse_selection(const std::string& text, RunFilter& filter) {
  for (std::string::size_type i = 0, j; i <= text.size(); i = j + 1) {
    j = std::min(text.find(',', i), text.size());
    std::string pair = text.substr(i, j - i);
    auto eq = pair.find('=');
    if (eq == std::string::npos || eq == 0)
      return Status::error("malformed selection '" + pair + "' (KEY=VALUE,...)");
    filter.selection.emplace_back(pair.substr(0, eq), pair.substr(eq + 1));
  }
  return Status::success();
}

Status parse_stage(const std::string& text, std::string& iri) {
  if (text == "any") {
    iri = "*";
    return Status::success();
  }
  for (const auto& s : kStages) {
    if (text == s[0]) {
      iri = provio(s[1]);
      return Status::success();
    }
  }
  return Status::error("unknown stage '" + text + "' (training, validation, testing, any)");
}

Table best_table(WorkflowView& w, Checkpoints& c, const BestSpec& spec) {
  auto records = w.metrics();
  std::string stage = effective_stage(records, spec.metric, spec.stage);
  auto kept = kept_runs(w, spec.runs);
  // The record that stands for each run: its best value, or its last one with --final.
  std::map<std::string, const MetricRecord*> chosen;
  for (const auto& r : records) {
    if (r.name != spec.metric || !in_stage(r, stage) || r.run.empty()) continue;
    if (spec.runs.any() && !kept.count(r.run)) continue;
    const MetricRecord*& cur = chosen[r.run];
    bool better =
        !cur || (spec.final_value ? later(r, *cur)
                                  : (spec.maximise ? r.number > cur->number : r.number < cur->number));
    if (better) cur = &r;  // on equal values the first reached stays
  }
  std::vector<std::pair<std::string, const MetricRecord*>> runs(chosen.begin(), chosen.end());
  std::stable_sort(runs.begin(), runs.end(), [&](const auto& a, const auto& b) {
    if (a.second->number != b.second->number)
      return spec.maximise ? a.second->number > b.second->number : a.second->number < b.second->number;
    return std::tie(a.second->time, a.first) < std::tie(b.second->time, b.first);
  });
  if (spec.k >= 0 && runs.size() > static_cast<std::size_t>(spec.k)) runs.resize(spec.k);
  Table t;
  t.columns = {"rank",    "value",           "step",       "stage",      "run",
               "program", "hyperparameters", "evaluation", "checkpoint", "checkpoint_step",
               "model",   "metric"};
  // Per run, once: its records and its checkpoint versions (rows look them up).
  std::map<std::string, std::vector<const MetricRecord*>> records_of;
  for (const auto& r : records)
    if (chosen.count(r.run)) records_of[r.run].push_back(&r);
  std::map<std::string, std::vector<const CheckpointVersion*>> versions_of;
  for (const auto& v : c.versions())
    if (!v.task.empty()) versions_of[w.run_of(v.task)].push_back(&v);
  std::uint64_t n = 0;
  for (const auto& [run, m] : runs) {
    auto configs = w.configs_of(run, "HyperparameterSetting");
    if (configs.empty()) configs = w.configs_of(run, "");
    // The other metrics of the run at the same step and stage: the model's evaluation.
    std::map<std::string, Cell> evaluation;
    for (const MetricRecord* r : records_of[run])
      if (r->name != m->name && r->stage == m->stage && r->step == m->step) evaluation[r->name] = r->value;
    const CheckpointVersion* v = version_for(versions_of[run], *m);
    t.rows.push_back({Cell::integer(++n), m->value, optional_step(m->step), Cell::text(stage_name(m->stage)),
                      Cell::text(w.label(run)), Cell::text(w.program_label_of(run)),
                      Cell::text(join_params(parameters(w.graph(), configs))),
                      Cell::text(join_params(evaluation)),
                      v ? Cell::text(w.view().entity_label(v->file, true)) : Cell::unbound(),
                      v ? optional_step(v->step) : Cell::unbound(),
                      v ? Cell::iri(v->record) : Cell::unbound(), Cell::iri(m->iri)});
  }
  return t;
}

namespace {

// One value a metrics question summarises: a metric record, or a task's duration.
struct Sample {
  std::string name, stage, task, run, iri;
  Cell value;
  double number = 0;
  Cell step;               // the step, or for a task duration the task it is nested in
  std::int64_t order = 0;  // how steps sort: the step number, or the enclosing task's start
};

std::vector<Sample> samples(WorkflowView& w, const MetricsSpec& spec) {
  std::vector<Sample> out;
  auto kept = kept_runs(w, spec.runs);
  auto keep_run = [&](const std::string& run) { return !spec.runs.any() || kept.count(run) != 0; };
  bool all_metrics = spec.names.empty() && spec.task_time.empty();
  for (const auto& r : w.metrics()) {
    bool named = std::find(spec.names.begin(), spec.names.end(), r.name) != spec.names.end();
    if ((!all_metrics && !named) || !in_stage(r, spec.stage) || !keep_run(r.run)) continue;
    out.push_back({r.name, stage_name(r.stage), r.task, r.run, r.iri, r.value, r.number,
                   optional_step(r.step), r.step ? *r.step : INT64_MIN});
  }
  if (spec.task_time.empty()) return out;
  for (const auto& iri : w.tasks()) {
    const TaskInfo* t = w.task(iri);
    if (t->label != spec.task_time || t->start == kNoTime || t->end == kNoTime) continue;
    const std::string& run = w.run_of(iri);
    if (!keep_run(run)) continue;
    double secs = seconds_between(t->start, t->end);
    const TaskInfo* parent = w.task(t->parent);
    out.push_back({t->label, "", iri, run, iri, Cell::number(secs), secs,
                   parent ? Cell::text(w.label(t->parent)) : Cell::unbound(),
                   parent ? parent->start : INT64_MIN});
  }
  return out;
}

}  // namespace

Table metrics_table(WorkflowView& w, const MetricsSpec& spec) {
  auto all = samples(w, spec);
  auto run_start = [&](const std::string& run) {
    const TaskInfo* t = w.task(run);
    return t ? t->start : kNoTime;
  };
  std::stable_sort(all.begin(), all.end(), [&](const Sample& a, const Sample& b) {
    return std::make_tuple(run_start(a.run), a.run, a.name, a.stage, a.order) <
           std::make_tuple(run_start(b.run), b.run, b.name, b.stage, b.order);
  });
  Table t;
  if (spec.per.empty()) {
    t.columns = {"metric", "value", "step", "stage", "task", "run", "program", "iri"};
    for (const auto& s : all) {
      std::string prog = w.program_label_of(s.task);
      t.rows.push_back({Cell::text(s.name), s.value, s.step, Cell::text(s.stage), Cell::text(w.label(s.task)),
                        Cell::text(w.label(s.run)), prog.empty() ? Cell::unbound() : Cell::text(prog),
                        Cell::iri(s.iri)});
    }
    return t;
  }
  bool per_step = spec.per == "step";
  t.columns = {"run", "program", "metric", "stage"};
  if (per_step) t.columns.push_back("step");
  for (const char* c : {"n", "min", "avg", "max"}) t.columns.emplace_back(c);
  // Samples are sorted so that each group is one contiguous range.
  auto same_group = [&](const Sample& a, const Sample& b) {
    return a.run == b.run && a.name == b.name && a.stage == b.stage &&
           (!per_step || (a.order == b.order && a.step.value == b.step.value));
  };
  for (std::size_t i = 0; i < all.size();) {
    std::size_t j = i;
    double lo = all[i].number, hi = all[i].number, sum = 0;
    for (; j < all.size() && same_group(all[i], all[j]); ++j) {
      lo = std::min(lo, all[j].number);
      hi = std::max(hi, all[j].number);
      sum += all[j].number;
    }
    const Sample& s = all[i];
    std::string prog = w.program_label_of(s.run.empty() ? s.task : s.run);
    std::vector<Cell> row = {Cell::text(w.label(s.run)), prog.empty() ? Cell::unbound() : Cell::text(prog),
                             Cell::text(s.name), Cell::text(s.stage)};
    if (per_step) row.push_back(s.step);
    row.push_back(Cell::integer(j - i));
    row.push_back(Cell::number(lo));
    row.push_back(Cell::number(sum / static_cast<double>(j - i)));
    row.push_back(Cell::number(hi));
    t.rows.push_back(std::move(row));
    i = j;
  }
  return t;
}

Table configs_table(View& v) {
  const QueryGraph& g = v.graph();
  Table t;
  t.columns = {"config", "name", "program", "key", "value", "iri"};
  auto configs = g.subjects(rdf_type(), provio("Configuration"));
  std::sort(configs.begin(), configs.end());
  for (const auto& c : configs) {
    std::string prog = g.value(c, prov("wasAttributedTo"));
    Cell pl = prog.empty() ? Cell::unbound() : Cell::text(v.program_label(prog));
    auto params = parameters(g, {c});
    if (params.empty()) params[""] = Cell::unbound();
    for (const auto& [k, val] : params)
      t.rows.push_back({Cell::text(basename_of(c)), Cell::text(g.value(c, std::string(kRdfs) + "label")), pl,
                        Cell::text(k), val, Cell::iri(c)});
  }
  return t;
}

namespace {

// "lr:0.1->0.2 tp:2->4": the keys whose values differ (numbers by value: 1 and 1.0 agree).
std::string differences(const std::map<std::string, Cell>& written, const std::map<std::string, Cell>& used) {
  std::set<std::string> keys;
  for (const auto& [key, val] : written) keys.insert(key);
  for (const auto& [key, val] : used) keys.insert(key);
  std::string diff;
  for (const auto& key : keys) {
    auto a = written.find(key), b = used.find(key);
    if (a != written.end() && b != used.end() && compare_cells(a->second, b->second) == 0) continue;
    diff += (diff.empty() ? "" : " ") + key + ":" + (a == written.end() ? "(unset)" : a->second.value) +
            "->" + (b == used.end() ? "(unset)" : b->second.value);
  }
  return diff;
}

}  // namespace

Table checkpoint_mismatch_table(WorkflowView& w, Checkpoints& c) {
  Table t;
  t.columns = {"checkpoint",  "step",    "written_by",   "loaded_by",
               "differences", "version", "written_with", "loaded_with"};
  for (const auto& load : c.loads()) {
    const CheckpointVersion& v = *load.version;
    // What writer and loader declared, over every kind (the learning rate in the
    // hyperparameters, the parallel sizes in a general configuration): their unions compare.
    std::set<std::string> writer_set;
    if (!v.config.empty()) writer_set.insert(v.config);
    for (auto& x : w.configs_of(v.task.empty() ? v.program : v.task, "")) writer_set.insert(std::move(x));
    if (writer_set.empty()) continue;  // nothing to judge against
    auto loaded = w.configs_of(load.loader, "");
    std::vector<std::string> written_with(writer_set.begin(), writer_set.end());
    std::string diff;
    if (loaded.empty()) {
      diff = "(could not be judged: the loader declared no configuration, or several)";
    } else {
      std::sort(loaded.begin(), loaded.end());
      if (loaded == written_with) continue;
      diff = differences(parameters(w.graph(), written_with), parameters(w.graph(), loaded));
      if (diff.empty()) continue;  // a resume under an equal configuration
    }
    auto joined = [](const std::vector<std::string>& configs) {
      std::string out;
      for (const auto& x : configs) out += (out.empty() ? "" : " ") + x;
      return out;
    };
    std::string loaded_with = joined(loaded), written = joined(written_with);
    auto who = [&](const std::string& x) {
      std::string prog = w.program_label_of(x);
      return w.task(x) && !prog.empty() ? w.label(x) + " (" + prog + ")" : w.label(x);
    };
    t.rows.push_back({Cell::text(w.view().entity_label(v.file, true)), optional_step(v.step),
                      Cell::text(who(v.task.empty() ? v.program : v.task)), Cell::text(who(load.loader)),
                      Cell::text(diff), Cell::iri(v.record),
                      written_with.size() == 1 ? Cell::iri(written) : Cell::text(written),
                      loaded.size() == 1 ? Cell::iri(loaded_with) : Cell::text(loaded_with)});
  }
  return t;
}

}  // namespace provio::query
