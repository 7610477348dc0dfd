// The machine-learning questions of prov-query (configs, metrics, best, checkpoints): the
// ProvLake queries Q3-Q5 and the Megatron-LM checkpoint check, answered about runs.
// Hard rule: one row per thing asked about — per run in `best`, per (checkpoint version,
// loading task) in `checkpoints`, per record or per group in `metrics` — never per pair of
// records that happen to join (docs/ml-questions.md).
#pragma once

#include <string>
#include <vector>

#include "checkpoints.h"
#include "table.h"
#include "workflow_view.h"

namespace provio::query {

// "training" | "validation" | "testing" → the provio: stage IRI; "any" → "*". Returns "" or an
// error message.
std::string parse_stage(const std::string& text, std::string& iri);

struct BestSpec {
  std::string metric;
  bool maximise = true;
  bool final_value = false;  // rank by the value at the run's last step instead of its best
  std::string stage;         // stage IRI, "*" for any, "" for validation when recorded, else any
  std::string used;          // only runs that read this entity (IRI), when not ""
  long k = 10;               // -1: all
};
// One row per run: rank value step stage run program hyperparameters evaluation checkpoint
// checkpoint_step model metric.
Table best_table(WorkflowView& w, Checkpoints& c, const BestSpec& spec);

struct MetricsSpec {
  std::vector<std::string> names;  // metric names; empty: all (unless task_time is given)
  std::string stage;               // stage IRI, "" or "*" for any
  std::string per;                 // "" (one row per record), "run" or "step"
  std::string task_time;           // also the durations of the tasks with this label
  std::string used;                // only runs that read this entity (IRI), when not ""
};
// Records: metric value step stage task run program iri. With per: run program metric stage
// [step] n min avg max. Task durations are seconds, their step the task they are nested in.
Table metrics_table(WorkflowView& w, const MetricsSpec& spec);

Table configs_table(View& v);

// Loads of a checkpoint version under a configuration that differs from the one it was written
// with: checkpoint step written_by loaded_by differences version written_with loaded_with.
Table checkpoint_mismatch_table(WorkflowView& w, Checkpoints& c);

}  // namespace provio::query
