// Completing raw provenance (docs/format.md, "What prov-merge adds"): raw files leave out every
// statement the vocabulary implies, and the merged graph has them all, exactly as the statements
// the format before it wrote out. Given I/O activity A of class C (provio:Read, …) run by thread T
// on behalf of program P, and entity E:
//
//   A a C                       adds  A a prov:Activity
//   E a provio:File|Dataset|…   adds  E a prov:Entity
//   X a provio:User|Program|Rank|Thread   adds  X a prov:Agent
//   A prov:used E               adds  E provio:was<C>By A            (provio:wasReadBy, …)
//   A prov:generated E          becomes  E prov:wasGeneratedBy A, E provio:was<C>By A,
//                                        E prov:wasAttributedTo P
//   bare numbers of provio:count, provio:bytes (xsd:integer), provio:offset (xsd:integer) and
//   provio:elapsed (xsd:decimal) take their property's range: xsd:unsignedLong, xsd:long, xsd:double
//
// Hard rule: idempotent, and a no-op on graphs that are already complete (merged graphs, files of
// the format before), so it runs on every input before folding.
#pragma once

#include <cstddef>

#include "graph/graph.h"

namespace provio::rdf {

// Adds the implied statements; returns how many triples were added or rewritten.
std::size_t complete(Graph& graph);

}  // namespace provio::rdf
