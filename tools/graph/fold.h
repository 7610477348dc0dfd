// Folding summary parts (docs/format.md, "Merged graphs"): for every activity with
// `provio:partial` parts, count / bytes / elapsed are summed, prov:startedAtTime is the minimum and
// prov:endedAtTime the maximum; the measures go on the activity and the parts and links are dropped.
//
// Hard rule: folding is idempotent. Merging a merged graph again with raw files it already
// contains must not count anything twice. An activity's existing measures count as one more part,
// and `provio:lastPart` on the activity records the highest part (flush) number folded into them;
// parts numbered at or below it are already included and are dropped without being added
// (docs/prov-merge.md explains why flush numbers make this exact).
#pragma once

#include <cstddef>
#include <string>
#include <vector>

#include "graph/graph.h"

namespace provio::rdf {

struct FoldResult {
  std::size_t activities = 0;  // activities whose parts were folded
  std::size_t parts = 0;       // part nodes folded in (or found already included)
  std::vector<std::string> messages;
};

// Completes raw statements (complete.h), folds parts, then marks runs that never ended
// (unfinished.h): every tool that reads provenance gets the same graph from this one call.
FoldResult fold(Graph& graph);

}  // namespace provio::rdf
