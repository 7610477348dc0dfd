// Checkpoint versions and their loads, for the Megatron-LM consistency check (seed 000) and for
// "which checkpoint holds this result" (best). A checkpoint rewritten under one name every epoch
// is a sequence of versions; a load is a read of one version by a task or program other than its
// writer.
// Hard rule: a version is identified here and only here (docs/ml-questions.md, "Checkpoint
// versions"): today one provio:ModelReference record is one version of the file it is stored in,
// and a read loads the last version recorded at or before the read. When the graph carries file
// version entities (prov:specializationOf, DESIGN.md "Versions"), versions_of and version_read
// are the two functions to switch to them.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "query/workflow_view.h"

namespace provio::query {

struct CheckpointVersion {
  std::string record;   // the provio:ModelReference IRI: the version's name today
  std::string file;     // the file it is stored in (View::file_of of provio:storedIn)
  std::string task;     // the task that wrote it ("" when written outside a task)
  std::string program;  // the program execution that wrote it
  std::string config;   // provio:trainedWith, "" when not given
  std::optional<long long> step;
  std::int64_t time = kNoTime;  // prov:generatedAtTime, µs
};

struct CheckpointLoad {
  const CheckpointVersion* version = nullptr;
  std::string loader;  // a task IRI, or a program IRI when no task was open
  std::int64_t time = kNoTime;
};

class Checkpoints {
 public:
  explicit Checkpoints(WorkflowView& w);
  // Every version of every checkpoint file, by file, then time, then step.
  const std::vector<CheckpointVersion>& versions() const { return versions_; }
  // The versions of one file, oldest first.
  std::vector<const CheckpointVersion*> versions_of(const std::string& file) const;
  // The version a read of `file` at time `t` saw: the last one recorded at or before t (all of
  // them when t is unknown); nullptr when none was.
  const CheckpointVersion* version_read(const std::string& file, std::int64_t t) const;
  // One load per (version, loader), the writer's own reads left out.
  std::vector<CheckpointLoad> loads();

 private:
  WorkflowView& w_;
  std::vector<CheckpointVersion> versions_;
};

}  // namespace provio::query
