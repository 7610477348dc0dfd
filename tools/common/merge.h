// provio_rdf: the one-call API other tools use to read provenance the way prov-merge does.
//
//   provio::rdf::Graph graph;
//   provio::rdf::MergeResult r = provio::rdf::merge_inputs({"provio/"}, 0, graph);
//   for (auto& m : r.messages) fprintf(stderr, "prov-query: %s\n", m.c_str());
//   provio::rdf::add_to_model(graph, world, model, error);   // into a librdf model (writer.h)
//
// Hard rule: the result is exactly what `prov-merge INPUT...` writes (same triples).
#pragma once

#include <string>
#include <vector>

#include "common/fold.h"
#include "common/graph.h"
#include "common/reader.h"
#include "common/writer.h"

namespace provio::rdf {

struct MergeResult {
  ReadResult read;
  FoldResult fold;
  std::vector<std::string> messages;  // read then fold messages, "file:line: text"
  bool damaged() const { return read.damaged != 0; }
};

// Lists, reads (jobs threads, 0: all cores) and folds `inputs` (directories, files) into `graph`.
MergeResult merge_inputs(const std::vector<std::string>& inputs, unsigned jobs, Graph& graph);

}  // namespace provio::rdf
