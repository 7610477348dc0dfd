// A cached, read-only view of the provenance model over a QueryGraph: who (program, thread, rank)
// did each activity, which file each entity lives in, readable names, and the I/O activity
// records every statistics question starts from.
// Hard rule: the view never changes the graph; caches only memoise QueryGraph lookups.
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <unordered_map>
#include <vector>

#include "query/activity_groups.h"
#include "query/query_graph.h"

namespace provio::query {

// One I/O activity (summary or trace), attributed to its primary entity (the subject of its
// provio:wasXxxBy relation).
struct ActivityRecord {
  std::string iri;
  std::string op;       // "Write" (the provio: class), "" if none
  std::string api;      // "H5Dwrite"
  std::string entity;   // primary entity IRI
  std::string file;     // the file holding the entity (the entity itself for files)
  std::string thread;   // thread agent IRI
  std::string program;  // program execution IRI
  std::string rank;     // MPI rank number, "" when unknown
  std::uint64_t count = 0, bytes = 0;
  std::uint64_t elapsed_ns = 0;  // exact: sums of seconds stay exact to the ns
  // A POSIX call HDF5 made inside a VOL callback (provio:nested): its bytes are already counted by
  // the HDF5 activity around it, so I/O totals leave it out unless asked (--nested).
  bool nested = false;
  std::string start, end;  // xsd:dateTime lexical forms
  // A record of View::activity_totals from a server (`group`) sums `activities` activities, whose
  // least and greatest count, bytes and elapsed_ns `least` and `most` hold; a single activity
  // (not `group`) is its own extremes and leaves them 0.
  std::uint64_t activities = 1;
  bool group = false;
  std::uint64_t least[3] = {}, most[3] = {};
  // Readable names (View::entity_label full, program_label, thread label), resolved once.
  std::string entity_label, file_label, program_label, thread_label;
};

struct ProgramInfo {
  std::string iri, executable, command_line, working_directory, host, pid, rank, job, workflow, start, end,
      user;
  std::string name;  // basename of the executable
  // What provio could not record (docs/format.md, "Incomplete provenance"): "reason: lost, …" with
  // the counts of each reason summed; "" when complete.
  std::string incomplete;
};

// What the ranks of one MPI job step share (job, executable, command line): runs.h groups program
// executions by it, lineage.h treats their versions of one shared file as one. "" for a program
// without a rank or job, which is a run of its own.
std::string run_key(const ProgramInfo& p);

class View {
 public:
  explicit View(const QueryGraph& g) : g_(g) {}
  const QueryGraph& graph() const { return g_; }

  // The program execution an activity was done for (via its thread agent), "" if unknown.
  const std::string& program_of_activity(const std::string& activity);
  const std::string& program_of_thread(const std::string& thread);
  // The file an entity belongs to (itself for a file or directory, the file for a version).
  const std::string& file_of(const std::string& entity);
  // A version of a file (provio:Version, prov:specializationOf its file)?
  bool is_version(const std::string& entity);
  // Activities done on behalf of a program.
  std::vector<std::string> activities_of(const std::string& program);
  const ProgramInfo& program(const std::string& iri);

  // "WestSac.h5", "/data/WestSac.h5:/das/strain", "run.h5:/@units": short (basename) or full.
  std::string entity_label(const std::string& iri, bool full = false);
  std::string program_label(const std::string& iri);  // "decimate (pid 42)"

  std::vector<std::string> programs();
  // The I/O activity records, sorted by IRI. From a prov-merge store they are read from its
  // activity index (activity_cache.h), written first if missing or stale: a full scan of a
  // Berkeley DB store costs seconds per million triples, the index a fraction of that.
  std::vector<ActivityRecord> activities();
  // The same records handed to `each` one at a time, none held here; `restart` is called when
  // those handed so far must be forgotten (a store's index found damaged midway: the store
  // answers instead). prov-merge writes a new store's index with it.
  void each_activity(const std::function<void(ActivityRecord&&)>& each, const std::function<void()>& restart);
  // The I/O activities summed by `grouping` (sorted fields among op, api, entity, file, thread,
  // and optionally only those on one file's entities; see activity_groups.h): one record per
  // group (iri, start and end empty; the fields not grouped by empty), summed by the server, or
  // here, one activity at a time, without holding every activity's record. Questions that only
  // sum (stats, files, objects) answer the same as from activities().
  std::vector<ActivityRecord> activity_totals(const ActivityGrouping& grouping);

  // Resolves a command-line ENTITY (IRI, path, file.h5:/object) to an IRI present in the graph.
  Status resolve(const std::string& arg, std::string& iri);
  std::string thread_label(const std::string& thread);

 private:
  const QueryGraph& g_;
  std::unordered_map<std::string, std::string> program_of_thread_, program_of_activity_, file_of_;
  std::unordered_map<std::string, ProgramInfo> programs_;
  std::vector<std::pair<std::string, std::string>> relation_of_;  // relations()
  const std::vector<std::pair<std::string, std::string>>& relations();
  // An I/O activity's own facts (not those complete() derives; start and end only if `times`);
  // false for an activity that is not I/O.
  bool read_activity(const std::string& activity, ActivityRecord& r, bool times);
  std::vector<ActivityRecord> local_totals(const ActivityGrouping& grouping);
  void complete(ActivityRecord& r, std::unordered_map<std::string, std::string>& labels);
};

std::string basename_of(const std::string& path);
// The modification time that names a version ("2026-11-22T16:30:01.123456789Z").
std::string version_time(const std::string& version_iri);

}  // namespace provio::query
