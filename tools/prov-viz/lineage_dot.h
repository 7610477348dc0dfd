// The lineage subgraph as Graphviz DOT, in PROV's conventional shapes and colours: entities are
// yellow ellipses, activities blue boxes, agents (program executions) orange houses; edges point
// from the dependent to what it depends on (PROV's direction) and carry counts and bytes.
// Hard rule: repeated activities are collapsed: one box per (program, entity, direction), however
// many calls, threads or flushes made it; labels are short names, never raw IRIs.
#pragma once

#include <string>
#include <vector>

#include "query/lineage.h"
#include "query/runs.h"
#include "query/view.h"

namespace provio::viz {

struct DotOptions {
  int depth = -1;               // -1: all
  bool up = true;               // what the roots came from
  bool down = false;            // what came from the roots
  std::size_t max_nodes = 400;  // beyond this the graph is cut and says so
  bool by_rank = false;         // one node per program execution, not per run (query/runs.h)
  bool expand = false;          // every entity its own node, siblings not grouped (sibling_groups.h)
};

// DOT text for the lineage of `roots` (entity IRIs).
std::string lineage_dot(query::View& v, const std::vector<query::ActivityRecord>& records,
                        const std::vector<std::string>& roots, const DotOptions& opt);

// "12.5 KiB"
std::string human_bytes(std::uint64_t bytes);

// Runs Graphviz `dot -T<format>` on `dot_text`, writing `out_path`.
rdf::Status render(const std::string& dot_text, const std::string& format, const std::string& out_path);

}  // namespace provio::viz
