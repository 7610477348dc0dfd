// A read-only in-memory index of a graph read and folded by provio_rdf: interned terms and two
// sorted triple indexes (spo, pos). Building it costs a fraction of Redland's hashes-memory store
// (whose per-statement index updates dominate), and navigation is a binary search. SPARQL goes
// through Redland (Graph loads the same folded graph into it on demand).
// Hard rule: the same answers as the Redland path: duplicates removed, terms compared exactly.
#pragma once

#include <array>
#include <cstdint>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "common/graph.h"
#include "table.h"

namespace provio::query {

class MemGraph {
 public:
  // Adds every triple of a graph read by provio_rdf (completed and folded).
  void add(const rdf::Graph& graph);
  // Sorts and indexes; call once after the last add.
  void finish();

  std::vector<Cell> objects(std::string_view s, std::string_view p) const;
  std::vector<std::string> subjects(std::string_view p, std::string_view o) const;
  bool has_subject(std::string_view s) const;
  bool has_object(std::string_view o) const;
  std::size_t size() const { return spo_.size(); }

 private:
  std::uint32_t intern(Cell c);
  using Triple = std::array<std::uint32_t, 3>;
  static constexpr std::uint32_t kNone = 0xFFFFFFFFu;
  std::uint32_t find_iri(std::string_view iri) const;

  std::vector<Cell> terms_;
  std::unordered_map<std::string, std::uint32_t> ids_;  // kind-tagged key → id
  std::vector<Triple> spo_, pos_;                       // pos_ holds {p, o, s}
  std::vector<bool> is_object_;
};

}  // namespace provio::query
