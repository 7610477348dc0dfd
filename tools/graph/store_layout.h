// Where a prov-merge store lives (docs/prov-merge.md, "The store"): Redland "hashes" storage with
// hash-type 'bdb' in a directory, storage name kStoreName, so its files are provio-*.db. Open it
// in Redland with
//   librdf_new_storage(world, "hashes", kStoreName, store_options(dir, …).c_str())
// Hard rule: the one test of "is this directory a store" (prov-merge --store, prov-query's and
// prov-viz's inputs, the tools' default input); header-only and without Redland, so that
// provio_cli, which prov-run links, uses it too.
#pragma once

#include <filesystem>
#include <string>

namespace provio::rdf {

inline constexpr const char* kStoreName = "provio";

// Whether `dir` holds a store: its subject-predicate index file is there.
inline bool is_store(const std::string& dir) {
  std::error_code ec;
  return std::filesystem::exists(std::filesystem::path(dir) / (std::string(kStoreName) + "-sp2o.db"), ec);
}

enum class StoreAccess { kRead, kWrite, kCreate };

inline std::string store_options(const std::string& dir, StoreAccess access) {
  std::string options = "hash-type='bdb',dir='" + dir + "'";
  if (access == StoreAccess::kRead) options += ",write='no'";
  if (access == StoreAccess::kCreate) options += ",new='yes'";
  return options;
}

}  // namespace provio::rdf
