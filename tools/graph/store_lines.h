// The lines form of a store (store_layout.h): the graph as canonical N-Triples in one file, read
// back by the tools' own reader. Where Redland has no Berkeley DB it is the only local store;
// docs/prov-merge.md ("The store") gives the figures of both forms.
#pragma once

#include <cstdint>
#include <string>

#include "graph/graph.h"
#include "graph/status.h"

namespace provio::rdf {

// Adds the triples of the lines store in `dir` to `graph`; `read` (if given) counts them. Fails
// if any of it cannot be read (the caller must then not replace the store).
Status load_lines(const std::string& dir, Graph& graph, std::uint64_t* read);
// Writes `graph` into `dir`, a new directory of the caller's, synced to disk before it returns.
Status write_lines(const std::string& dir, const Graph& graph);

}  // namespace provio::rdf
