// The workflow's data flow (prov-query flow, the report's data-flow page): which run (an MPI job
// step is one run, runs.h) produced each product (a file version, a file without versions, an
// HDF5 dataset), which runs consumed it, and how many bytes went each way; products nobody read
// and inputs read by many runs stand out by their consumer count.
//
// Hard rule: who produced and who consumed what is lineage's step relation (lineage.h: outputs
// and inputs of each program), the bytes are the counted records (counting.h); nothing here
// decides either a second way.
#pragma once

#include <vector>

#include "query/table.h"
#include "query/view.h"

namespace provio::query {

// One row per (product, producer, consumer); a product nobody read has one row with an empty
// consumer, a product no traced run produced (an input from outside) an empty producer.
// Columns: product kind producer consumer bytes_produced bytes_consumed consumers.
Table flow_table(View& v, const std::vector<ActivityRecord>& records);

}  // namespace provio::query
