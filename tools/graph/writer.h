// Writing a Graph: pretty Turtle (prefixes, subjects grouped) and N-Triples by hand, in a
// deterministic order; every other syntax through raptor's serializers. (The Redland store:
// store.h.)
//
// Hard rule: a failed write is reported, never ignored: write_graph returns the error, and the
// caller checks the result of closing its output.
#pragma once

#include <cstdio>
#include <string>

#include "graph/graph.h"
#include "graph/status.h"

namespace provio::rdf {

// "turtle", "ntriples" and the names of raptor's serializers ("rdfxml", "json", …).
bool is_output_format(const std::string& name);

Status write_graph(const Graph& graph, const std::string& format, std::FILE* out);

}  // namespace provio::rdf
