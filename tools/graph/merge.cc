// merge_inputs (see merge.h).
#include "graph/merge.h"

namespace provio::rdf {

MergeResult merge_inputs(const std::vector<std::string>& inputs, unsigned jobs, Graph& graph,
                         bool other_files_are_damage, cli::OtherOwners other_owners) {
  MergeResult r;
  std::vector<std::string> files = list_inputs(inputs, r.read, other_files_are_damage, other_owners);
  read_files(files, jobs, graph, r.read);
  r.fold = fold(graph);
  r.messages = r.read.messages;
  r.messages.insert(r.messages.end(), r.fold.messages.begin(), r.fold.messages.end());
  return r;
}

}  // namespace provio::rdf
