// Program executions that ended without their final flush (docs/format.md, "Incomplete
// provenance"): a provio:Program without provio:endTime that no exec replaced (no run of the same
// host and pid names it as its provio:parentRun) was killed, crashed, could not write its last
// buffer, or is still running. Such a run gets a provio:incomplete node with reason
// "no-end-time" (lost: 0, unknown), so the graph says what the raw files cannot: that its last
// buffer may be missing.
//
// Hard rule: the marks are derived afresh at every merge: those of an earlier merge (a merged
// graph or store merged again, prov-merge --follow) are dropped first, so a run that has ended
// since loses its mark.
#pragma once

#include <cstddef>

#include "graph/graph.h"

namespace provio::rdf {

// Marks the unfinished runs of `graph`; returns how many.
std::size_t mark_unfinished(Graph& graph);

}  // namespace provio::rdf
