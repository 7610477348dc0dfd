// What the workflow API recorded (docs/workflow-api.md), read back as a machine-learning user
// asks about it: tasks and their nesting, runs, the configuration a task ran with, metric
// records, and which task read a file when (from explicit prov:used and from the I/O records).
// Hard rule: a question is answered about runs, not records; every rule that decides what a
// run is, which configuration a task used or which task did a read is here, once, and written
// down in docs/ml-questions.md.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <unordered_map>
#include <vector>

#include "query/view.h"

namespace provio::query {

inline constexpr std::int64_t kNoTime = INT64_MIN;

struct TaskInfo {
  std::string iri, label, parent, thread, program;
  std::int64_t start = kNoTime, end = kNoTime;  // µs since the epoch
  std::vector<std::string> configs;             // provio:Configuration IRIs the task used
};

struct MetricRecord {
  std::string iri, name, stage, task, run;  // stage: the full provio:Training/... IRI or ""
  Cell value;
  double number = 0;
  std::optional<long long> step;
  std::int64_t time = kNoTime;
};

// Who read a file and when: a task (the innermost open one of the reading thread), or a
// program when no task was open.
struct Reader {
  std::string task, program;
  std::int64_t time = kNoTime;
};

class WorkflowView {
 public:
  explicit WorkflowView(View& v);
  View& view() { return v_; }
  const QueryGraph& graph() const { return v_.graph(); }

  // nullptr when `iri` is not a provio:Task.
  const TaskInfo* task(const std::string& iri) const;
  const std::vector<std::string>& tasks() const { return order_; }
  // The run a task belongs to: the nearest ancestor-or-self that used a hyperparameter setting,
  // else the outermost ancestor. "" for "".
  const std::string& run_of(const std::string& task);
  std::string label(const std::string& task_or_program);
  // Readable program of a task or a program IRI ("" when unknown).
  std::string program_label_of(const std::string& task_or_program);

  // "HyperparameterSetting", "DataSelection" or "Configuration" (general).
  std::string config_kind(const std::string& config) const;
  // The configurations of `kind` ("" = any) `who` (a task or a program) ran with: those used by
  // the nearest ancestor-or-self task that used one, else the program's only configuration of
  // that kind. Empty when unknown (several candidates are no answer, not all of them).
  std::vector<std::string> configs_of(const std::string& who, const std::string& kind);

  // Every provio:Metric record, with its run.
  std::vector<MetricRecord> metrics();

  // The readers of a file (or of its HDF5 objects and attributes): tasks that declared it as an
  // input (at their start time), and Read activities (at their first call), attributed to the
  // innermost task of their thread open at that time. A read of a version the reading task (or,
  // outside any task, the reading program) wrote itself is not one.
  std::vector<Reader> readers(const std::string& file);
  // Files generated (declared outputs) by tasks that used a data selection configuration with
  // every KEY=VALUE given (numbers compare by value: 31 matches "31"^^xsd:long and 31.0).
  std::vector<std::string> selected_data(const std::vector<std::pair<std::string, std::string>>& selection);
  // The runs among `readers(file_of(entity))`.
  std::vector<std::string> runs_reading(const std::string& entity);
  // The task an I/O activity was done in: the innermost task of its thread open at its start
  // ("" when none was open). At summary level an activity holds the calls of one task
  // (docs/format.md), so this is exact at both levels.
  std::string task_of(const std::string& activity) const;

 private:
  bool reads_own_version(const std::string& activity, const Reader& reader);
  // File → the versions of it the activities of `program` in `task` ("": outside any) used.
  const std::map<std::string, std::vector<std::string>>& versions_read_in(const std::string& program,
                                                                          const std::string& task);
  std::int64_t time_of(const std::string& s, const char* predicate) const;
  std::string task_at(const std::string& thread, std::int64_t t) const;

  View& v_;
  std::unordered_map<std::string, TaskInfo> tasks_;
  std::vector<std::string> order_;                                       // by start time, then IRI
  std::unordered_map<std::string, std::vector<std::string>> by_thread_;  // thread → tasks
  std::unordered_map<std::string, std::string> run_of_;
  // versions_read_in(): program → task → file → versions.
  std::unordered_map<std::string, std::map<std::string, std::map<std::string, std::vector<std::string>>>>
      versions_read_;
};

// Key → value of the provio:parameter nodes of `configs` (later configurations win on a shared
// key).
std::map<std::string, Cell> parameters(const QueryGraph& g, const std::vector<std::string>& configs);

// Seconds between two µs times, as a number.
double seconds_between(std::int64_t start_us, std::int64_t end_us);

}  // namespace provio::query
