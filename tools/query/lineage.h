// Lineage: what an entity was derived from (up) or what was derived from it (down), through
// which program executions, at any depth, across jobs. Rasqal has no property paths, so the
// closure is a breadth-first search here; the visited set makes it cycle-safe.
//
// The step relation (docs/prov-query.md, "Lineage"), over entities E and program executions P:
//   G(P)      = entities P generated (prov:wasGeneratedBy an activity of P's threads), plus the
//               files of the HDF5 objects and versions P generated (a file's lineage includes
//               its datasets'), plus the versions no program generated whose modification time
//               lies between the first and the last version P generated of their file on the
//               same inode (what others read within P's run of write epochs)
//   inputs(P) = the versions P used that are not in G(P) (a file updated in place: the version
//               read is an input of the one left) and the objects P used inside them; for files
//               of which P used no version, the entities P used plus their files; minus G(P) and
//               minus the objects inside files in G(P) (P's own outputs)
//               (a file P used only by its path, with no version of it read or left, stands
//               for the version it held at P's first such use, when one is recorded; a stat of
//               a directory is no input at all)
//   outputs(P)= G(P), with a file replaced by the versions P left of it
//   an object reached through P is bound to the versions of its file P read (up) or left (down):
//               one step from it goes only to the writers (readers) of those versions that wrote
//               (read) the object
//   up(E)     = inputs(P) for each P with E in G(P), plus E prov:wasDerivedFrom X; for a version,
//               also every rank of such a P's run (runs.h: same job, executable and command line)
//               that wrote the same file (the ranks of a job step writing one shared file make
//               one version); for a version no
//               program generated (its writer was not traced with versions), the programs that
//               wrote its file without leaving any version of it
//   down(E)   = outputs(P) for each P with E (or, for a file or object, a version of its file)
//               in inputs(P), plus X prov:wasDerivedFrom E
// Versions (docs/format.md) are what keeps a rewritten path from joining the lineage of what
// was made from an earlier content of it.
//
// Tasks (docs/prov-query.md, "Tasks"): a program whose I/O happened inside tasks (the workflow
// API) is also seen as its units: for each task T, the activities done while T or one of its
// subtasks was the innermost open task of their thread (workflow_view.h, task_of), and one unit
// of those outside any task. The same relations over a unit U give G(U), inputs(U), outputs(U).
// A version one unit of P wrote and another read is in G(P) and so in no inputs(P); through the
// units it still counts:
//   up(E)     also inputs(U) for each unit U of such a P with E in G(U)
//   down(E)   also outputs(U) for each unit U, of a P with E not in inputs(P), with E in inputs(U)
// A version the same unit wrote and read back stays its own content, as for a program.
#pragma once

#include <map>
#include <memory>
#include <string>
#include <unordered_map>
#include <unordered_set>
#include <vector>

#include "query/view.h"

namespace provio::query {

struct LineageStep {
  int level = 0;         // 1 = direct
  bool program = false;  // a program execution (else an entity)
  std::string iri;
  std::string relation;  // "generated", "used", "wasDerivedFrom", "derived"
  std::string via;       // the node it was reached from
  // A "used by" input that one task of `via` read from another of its units: a version `via`
  // also left, which is no internal version of its run (runs.h, steps_by_run).
  bool across_tasks = false;
};

class WorkflowView;

class Lineage {
 public:
  explicit Lineage(View& v);
  ~Lineage();
  // depth < 0 means unbounded.
  std::vector<LineageStep> up(const std::string& entity, int depth);
  std::vector<LineageStep> down(const std::string& entity, int depth);

  const std::vector<std::string>& generated(const std::string& program);  // G(P)
  const std::vector<std::string>& inputs(const std::string& program);     // inputs(P)
  const std::vector<std::string>& outputs(const std::string& program);    // outputs(P)
  std::vector<std::string> generators(const std::string& entity);         // {P : E in G(P)}
  std::vector<std::string> users(const std::string& entity);              // {P : E in inputs(P)}

 private:
  // An entity reached in a walk, with the versions of its file it is bound to (an HDF5 object
  // read or written inside a version; empty for anything else).
  struct Node {
    std::string iri;
    std::vector<std::string> within;
  };
  // `key`: a program, or one of its units (units_of).
  void compute(const std::string& key);
  // The units of a program with tasks; empty for a program without (it is its own unit).
  const std::vector<std::string>& units_of(const std::string& program);
  // The units, of programs one step from `n`, through which `n` is one step further: upward,
  // those of its generators (`whole`, step()'s answer) that made it; downward, those that read
  // it where their program as a whole (not in `whole`) did not.
  std::vector<std::string> unit_step(const Node& n, bool upward, const std::vector<std::string>& whole);
  bool has_tasks();  // whether the graph holds any provio:Task
  std::vector<std::string> user_candidates(const std::string& entity);
  void bind_unversioned_uses(std::vector<std::string>& used, const std::vector<std::string>& generated,
                             const std::map<std::string, std::string>& first_use);
  std::vector<std::string> within(const std::string& entity, const std::string& program, bool upward);
  std::vector<std::string> step(const Node& node, bool upward);
  void add_covered_versions(std::vector<std::string>& generated);
  std::vector<std::string> rolled_up(const std::string& entity);
  std::vector<LineageStep> walk(const std::string& entity, int depth, bool upward);

  View& v_;
  bool left_version_of(const std::string& program, const std::string& file);
  // read_/left_: the versions each program read (not left itself) and left.
  std::unordered_map<std::string, std::vector<std::string>> generated_, inputs_, outputs_, read_, left_;
  std::unique_ptr<WorkflowView> tasks_;  // made on the first units_of()
  // units_of()'s answers, and each unit's program and activities.
  std::unordered_map<std::string, std::vector<std::string>> units_, unit_activities_;
  std::unordered_map<std::string, std::string> unit_program_;
};

}  // namespace provio::query
