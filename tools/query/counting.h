// How every tool counts I/O (prov-query's statistics, prov-viz's report and lineage pictures): the
// one rule, in one place.
//
// Under both layers, the POSIX pwrite/pread that HDF5 makes inside an H5Dwrite/H5Dread is
// recorded too, marked provio:nested: it moves the same bytes in the same time as the HDF5 call
// around it. Nested I/O is its own layer, counted once: totals, per-file and per-rank figures sum
// the outermost call only, unless a question asks for the nested layer (prov-query --nested).
#pragma once

#include <vector>

#include "query/view.h"

namespace provio::query {

// The records a total sums: without `with_nested`, the nested ones are left out.
std::vector<ActivityRecord> counted(std::vector<ActivityRecord> records, bool with_nested = false);

}  // namespace provio::query
