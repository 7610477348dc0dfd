// Siblings in a lineage picture: entities whose names differ only in their numbers
// ("in_7.dat", "in_12.dat"), in one directory, tied to the same program nodes in the same
// directions. Drawn one by one, a program over 500 files is a strip 500 nodes wide; drawn as one
// node with a count, the picture keeps its shape whatever the number of files. What a group holds
// stays on demand: the node's tooltip lists its members, and prov-viz lineage --expand draws them
// one by one.
#pragma once

#include <cstddef>
#include <map>
#include <string>
#include <vector>

namespace provio::viz {

// Fewer siblings than this are drawn one by one.
constexpr std::size_t kMinSiblings = 4;

struct SiblingGroup {
  std::string label;                 // "in_*.dat ×50"
  std::vector<std::string> members;  // entity IRIs, sorted
};

// `named`: entity IRI -> (directory, short name; a version's name ends in " @…"), the entities
// that may group; `ties`: entity IRI -> what it is tied to (program nodes and directions), equal
// for siblings. Returns the groups of kMinSiblings or more.
std::vector<SiblingGroup> group_siblings(
    const std::map<std::string, std::pair<std::string, std::string>>& named,
    const std::map<std::string, std::string>& ties);

// The text of a group's tooltip: its members' labels, at most `max` of them, then how many more.
std::string members_text(const std::vector<std::string>& labels, std::size_t max = 40);

}  // namespace provio::viz
