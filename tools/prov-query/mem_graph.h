// A read-only in-memory graph for merged Turtle / N-Triples files: raptor parses straight into
// interned terms and two sorted triple indexes (spo, pos). Loading a million triples this way
// costs a fraction of Redland's hashes-memory store (whose per-statement index updates dominate),
// and navigation is a binary search. SPARQL still goes through Redland (Graph loads it lazily).
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
  // Parses one file (Turtle, or N-Triples when `ntriples`). On failure `error` is
  // "path:line:col: message" and false is returned.
  bool parse(const std::string& path, bool ntriples, std::string& error);
  // Adds every triple of a graph read by provio_rdf (raw per-thread files, completed and folded).
  void add(const rdf::Graph& graph);
  // Sorts and indexes; call once after the last parse.
  void finish();

  std::vector<Cell> objects(std::string_view s, std::string_view p) const;
  std::vector<std::string> subjects(std::string_view p, std::string_view o) const;
  bool has_subject(std::string_view s) const;
  bool has_object(std::string_view o) const;
  std::size_t size() const { return spo_.size(); }

  // Internal, used by the raptor statement handler.
  std::uint32_t intern(Cell c, const std::string& blank_scope);
  void add(std::uint32_t s, std::uint32_t p, std::uint32_t o) { spo_.push_back({s, p, o}); }

 private:
  using Triple = std::array<std::uint32_t, 3>;
  static constexpr std::uint32_t kNone = 0xFFFFFFFFu;
  std::uint32_t find_iri(std::string_view iri) const;

  std::vector<Cell> terms_;
  std::unordered_map<std::string, std::uint32_t> ids_;  // kind-tagged key → id
  std::vector<Triple> spo_, pos_;                       // pos_ holds {p, o, s}
  std::vector<bool> is_object_;
};

}  // namespace provio::query
