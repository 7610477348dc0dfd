// Which version of a file a question answers for: `lineage FILE` answers for the latest version
// (a rewritten file's earlier contents have other ancestors), `FILE@N` for the N-th (oldest
// first), `FILE@2026-11-28T10:00` for the one the file held then (UTC, as versions are shown),
// and --all-versions for the path, every version at once (docs/prov-query.md, "Versions").
// Hard rule: versions are ordered by the modification time in their keys (model/version_key.h),
// the only clock every layer and process that named them shares.
#pragma once

#include <string>
#include <vector>

#include "graph/status.h"
#include "model/version_key.h"
#include "query/view.h"

namespace provio::query {

// The versions of `file` in the graph, oldest first.
std::vector<std::string> versions_of(View& v, const std::string& file);

struct VersionChoice {
  std::string iri;  // what to answer for: a version, or the file when it has none / all asked
  int ordinal = 0;  // 1-based position among the file's versions, 0 when `iri` is the file
  int count = 0;    // how many versions the file has
};

// `spec`: "" for the latest, a number N for the N-th, or a time YYYY-MM-DDTHH:MM[:SS[.frac]][Z]
// for the latest version at or before it. An error names the file, the spec and what exists.
Status choose_version(View& v, const std::string& file, const std::string& spec, VersionChoice& out);

// YYYY-MM-DDTHH:MM[:SS[.fraction]][Z] (UTC) as a stamp; a time given to the minute or the second
// stands for its last nanosecond (so "10:00" includes what happened at 10:00:30).
bool parse_utc_time(const std::string& text, model::VersionStamp& out);

// The version `file` held at `time` (an xsd:dateTime, µs): the latest of its versions modified at
// or before it, "" when it had none yet. Binds a use that named no version (an open never read
// from, a shell's redirection before its exec) to the content there when it happened.
std::string version_at(View& v, const std::string& file, const std::string& time);

// "dec.h5 @2026-11-28T10:00:01.123456789Z, version 2 of 3": which version an answer is for.
std::string describe_choice(View& v, const VersionChoice& c);

// How a lineage question named where it starts: `arg` is ENTITY or FILE@N / FILE@TIME, as typed.
struct LineageAsk {
  std::string command;        // "lineage": for messages
  std::string arg;            // ENTITY[@VERSION]
  bool all_versions = false;  // --all-versions
  bool down_only = false;     // descendants only (--down without --up)
};

// The entity a lineage starts from (prov-query lineage, prov-viz lineage): ENTITY as resolved,
// except that a file stands for one of its versions (FILE@N: its N-th, FILE@TIME: the one it held
// then), by default its latest upward, all of them (the path) downward and with --all-versions:
// what a file's last content came from, what came from any of its contents. `answered` says
// which, when a file was asked for ("" otherwise).
Status lineage_root(View& v, const LineageAsk& ask, std::string& iri, std::string& answered);

}  // namespace provio::query
