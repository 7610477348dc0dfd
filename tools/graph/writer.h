// Writing a Graph: pretty Turtle (prefixes, subjects grouped) and N-Triples by hand, in a
// deterministic order; every other syntax through raptor's serializers; and the persistent
// Redland store prov-query opens.
//
// Hard rule: a failed write is reported, never ignored: every function returns false with a
// message, and the caller checks the result of closing its output.
#pragma once

#include <redland.h>

#include <cstdint>
#include <cstdio>
#include <string>
#include <vector>

#include "common/graph.h"

namespace provio::rdf {

// "turtle", "ntriples" and the names of raptor's serializers ("rdfxml", "json", …).
bool is_output_format(const std::string& name);
std::vector<std::string> output_formats();

[[nodiscard]] bool write_graph(const Graph& graph, const std::string& format, std::FILE* out,
                               std::string& error);

// The persistent store: Redland "hashes" storage with hash-type 'bdb' in directory `dir`, storage
// name kStoreName. Open it in Redland with
//   librdf_new_storage(world, "hashes", "provio", "hash-type='bdb',dir='<dir>'")
inline constexpr const char* kStoreName = "provio";
bool store_exists(const std::string& dir);
// Adds the triples of the store in `dir` to `graph`; `read` (if given) counts the statements read.
[[nodiscard]] bool load_store(const std::string& dir, Graph& graph, std::string& error,
                              std::uint64_t* read = nullptr);
// Adds every triple of `graph` to a librdf model (any storage).
[[nodiscard]] bool add_to_model(const Graph& graph, librdf_world* world, librdf_model* model,
                                std::string& error);
// Replaces the store in `dir` with `graph` (built beside it, then renamed into place).
[[nodiscard]] bool save_store(const std::string& dir, const Graph& graph, std::string& error);

}  // namespace provio::rdf
