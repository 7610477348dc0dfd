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

#include "sparql/sparql_server.h"

namespace provio::query {

// Fields an aggregate may be grouped by: "op", "api", "entity", "file", "thread" (nested always
// is). "file" is the file of the activity's entity as View::file_of defines it (provio:inFile,
// else prov:specializationOf, else the provio:attributeOf owner's file, else the entity itself),
// computed by the server: grouped by file, 1 M triples make thousands of groups, not the tens of
// thousands of entities whose descriptions would each have to be fetched.
struct ActivityGroup {
  std::string op, api, entity, file, thread;  // "" when not grouped by (or absent)
  bool nested = false;
  std::uint64_t count = 0, bytes = 0, elapsed_ns = 0;  // sums
  std::uint64_t activities = 0;                        // how many were summed
  // The least and greatest count, bytes and elapsed_ns of one activity in the group.
  std::uint64_t least[3] = {}, most[3] = {};
};

struct ActivityGrouping {
  std::vector<std::string> keys;  // sorted
  std::string in_file;            // when set: only the activities on this file's entities
  bool operator<(const ActivityGrouping& o) const {
    return keys != o.keys ? keys < o.keys : in_file < o.in_file;
  }
};

// The groups of the I/O activities over the union of the job graphs; false with the server's
// message.
[[nodiscard]] bool fetch_activity_groups(sparql::Server& server, const ActivityGrouping& grouping,
                                         std::vector<ActivityGroup>& out, std::string& error);

}  // namespace provio::query
