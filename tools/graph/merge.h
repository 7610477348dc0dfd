// The one call prov-query and prov-viz read every input with (tools/query/query_graph.cc): list,
// read with the damage-tolerant reader, complete and fold, the way prov-merge does (prov-merge
// itself calls the same steps one by one, because under MPI each rank reads its share).
//
// Hard rule: the result is exactly what `prov-merge INPUT...` writes (same triples).
#pragma once

#include <string>
#include <vector>

#include "graph/fold.h"
#include "graph/graph.h"
#include "graph/reader.h"
#include "graph/writer.h"

namespace provio::rdf {

struct MergeResult {
  ReadResult read;
  FoldResult fold;
  std::vector<std::string> messages;  // read then fold messages, "file:line: text"
  bool damaged() const { return read.damaged != 0; }
};

// Lists, reads (jobs threads, 0: all cores) and folds `inputs` (directories, files) into `graph`.
// `other_files_are_damage`, `other_owners`: as list_inputs (reader.h).
MergeResult merge_inputs(const std::vector<std::string>& inputs, unsigned jobs, Graph& graph,
                         bool other_files_are_damage, cli::OtherOwners other_owners);

}  // namespace provio::rdf
