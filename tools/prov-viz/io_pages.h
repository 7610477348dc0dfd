// The report's I/O pages, the Darshan job summary a Darshan user recognises: I/O cost per rank and
// the slowest rank of each job, access-size histograms, the files table with the fastest and
// slowest rank of shared files, and the data flow between runs (a picture grouping the files that
// share a producer and consumers, and the table).
// Hard rule: every number is a cell of prov-query io's or flow's tables (query/io_view.h,
// query/flow.h), shown as it is there; nothing is counted a second way.
#pragma once

#include <sstream>
#include <vector>

#include "query/view.h"

namespace provio::viz {

// `records`: the counted I/O records (query/counting.h). Fails only when Graphviz cannot draw the
// data flow.
[[nodiscard]] rdf::Status io_pages(std::ostringstream& out, query::View& v,
                                   const std::vector<query::ActivityRecord>& records);

}  // namespace provio::viz
