// The names one raw provenance file uses (docs/format.md, "Raw per-thread files"): an @prefix
// for each directory and each HDF5 file its entities live in, declared in the file just before
// its first use, and each entity's compact term in that file (a prefixed name such as
// `d1:data.h5` or `f1:\/run%201\/temperature`, else the full <IRI>).
//
// Hard rule: a prefix line is appended to the output before any block that uses it, so every
// prefix of a file is declared above its first use, whatever a flush cuts.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "model/event.h"

namespace provio::store {

class FileNames {
 public:
  // The entity's term in this file. The first time a base (directory or HDF5 file) is met, its
  // "@prefix" line is appended to `out`. An unknown id gives an empty term.
  const std::string& term(model::EntityId id, std::string& out);
  // Bytes held (counted in the thread's memory).
  std::size_t memory_bytes() const { return bytes_; }

 private:
  // The prefix name of a base ("d1:" / "f1:"), declared in `out` the first time.
  const std::string& prefix(std::string_view base, bool in_file, std::string& out);

  std::unordered_map<std::string, std::string> prefixes_;  // base IRI → "d1:" / "f1:"
  std::string_view last_base_;                             // the last base prefix() gave,
  const std::string* last_prefix_ = nullptr;               // and its name (both in prefixes_)
  std::vector<std::string> terms_;                         // by entity id; empty: not named yet
  std::size_t bytes_ = 0;
  std::string empty_;
};

}  // namespace provio::store
