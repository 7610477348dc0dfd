// The I/O activities summed by the SPARQL server itself (prov-query --endpoint: stats, files,
// objects). Pulling every activity's description costs the server ~10 k result rows per second
// (75 k activities at 1 M triples: 80 s); a GROUP BY answer is one row per group.
// Hard rule: a group holds what View::compute_activities would read from each activity (the same
// entity, op, thread, nested flag; count, bytes, elapsed to the ns, missing ones as 0), so sums
// over groups equal sums over the activities and every question keeps its one implementation.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "graph/sparql_server.h"

namespace provio::query {

// Fields an aggregate may be grouped by: "op", "api", "entity", "thread" (nested always is).
struct ActivityGroup {
  std::string op, api, entity, thread;  // "" when not grouped by (or absent)
  bool nested = false;
  std::uint64_t count = 0, bytes = 0, elapsed_ns = 0;
};

// The groups of the I/O activities over the union of the job graphs, by `keys` (sorted); false
// with the server's message.
[[nodiscard]] bool fetch_activity_groups(sparql::Server& server, const std::vector<std::string>& keys,
                                         std::vector<ActivityGroup>& out, std::string& error);

}  // namespace provio::query
