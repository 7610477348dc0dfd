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
#include "query/view.h"

namespace provio::query {

// The versions of `file` in the graph, oldest first.
std::vector<std::string> versions_of(View& v, const std::string& file);

struct VersionChoice {
  std::string iri;     // what to answer for: a version, or the file when it has none / all asked
  int ordinal = 0;     // 1-based position among the file's versions, 0 when `iri` is the file
  int count = 0;       // how many versions the file has
};

// `spec`: "" for the latest, a number N for the N-th, or a time YYYY-MM-DDTHH:MM[:SS[.frac]][Z]
// for the latest version at or before it. An error names the file, the spec and what exists.
Status choose_version(View& v, const std::string& file, const std::string& spec, VersionChoice& out);

// "dec.h5 @2026-11-28T10:00:01.123456789Z, version 2 of 3": which version an answer is for.
std::string describe_choice(View& v, const VersionChoice& c);

}  // namespace provio::query
