// The persistent store prov-merge writes (--store) and prov-query reads: a graph into and out of
// a store directory in either form, Redland's or lines (store_layout.h says where each lives).
// Hard rule: a store is replaced whole: the new one is built beside it and swapped into place in
// one rename, so a reader never opens half a store, and a failed write or a kill at any moment
// leaves a whole store (the old one or the new one). Updates hold its lock (store_lock.h).
#pragma once

#include <redland.h>

#include <cstdint>
#include <string>

#include "graph/graph.h"
#include "graph/status.h"
#include "graph/store_layout.h"

namespace provio::rdf {

// Adds the triples of the store in `dir` to `graph`; `read` (if given) counts the statements read.
// Fails if the store cannot be read whole (then it must not be replaced: it holds earlier jobs).
Status load_store(const std::string& dir, Graph& graph, std::uint64_t* read = nullptr);
// Adds every triple of `graph` to a librdf model (any storage).
Status add_to_model(const Graph& graph, librdf_world* world, librdf_model* model);
// Replaces the store in `dir` with `graph`, in the form PROVIO_STORE_FORM names (lines, redland)
// or else Redland's where Redland has Berkeley DB, lines where not; in the modes of the raw files (0700/0600,
// 0750/0640 with PROVIO_SHARE=group). The caller holds the store's lock.
Status save_store(const std::string& dir, const Graph& graph);

}  // namespace provio::rdf
