// Where a prov-merge store lives (docs/prov-merge.md, "The store"). A store is a directory in one
// of two forms:
// - Redland: "hashes" storage with hash-type 'bdb', storage name kStoreName, so its files are
//   provio-*.db; open it in Redland with
//     librdf_new_storage(world, "hashes", kStoreName, store_options(dir, …).c_str())
// - lines: one file kLinesFile, the graph in canonical N-Triples, read by the tools' own reader;
//   for a Redland without Berkeley DB (Debian sid's), and wherever PROVIO_STORE_FORM=lines asks.
// Hard rule: the one test of "is this directory a store" (prov-merge --store, prov-query's and
// prov-viz's inputs, the tools' default input); header-only and without Redland, so that
// provio_cli, which prov-run links, uses it too.
#pragma once

#include <filesystem>
#include <string>

namespace provio::rdf {

inline constexpr const char* kStoreName = "provio";
inline constexpr const char* kLinesFile = "provio-triples.nt";

enum class StoreForm { kNone, kRedland, kLines };

// The file that makes `dir` a store of `form`: Redland's subject-predicate index, or the lines.
inline std::string store_mark(const std::string& dir, StoreForm form) {
  return (std::filesystem::path(dir) /
          (form == StoreForm::kLines ? std::string(kLinesFile) : std::string(kStoreName) + "-sp2o.db"))
      .string();
}

// Which store `dir` holds, if any.
inline StoreForm store_form(const std::string& dir) {
  std::error_code ec;
  for (StoreForm form : {StoreForm::kRedland, StoreForm::kLines})
    if (std::filesystem::exists(store_mark(dir, form), ec)) return form;
  return StoreForm::kNone;
}

inline bool is_store(const std::string& dir) {
  return store_form(dir) != StoreForm::kNone;
}

enum class StoreAccess { kRead, kWrite, kCreate };

inline std::string store_options(const std::string& dir, StoreAccess access) {
  std::string options = "hash-type='bdb',dir='" + dir + "'";
  if (access == StoreAccess::kRead) options += ",write='no'";
  if (access == StoreAccess::kCreate) options += ",new='yes'";
  return options;
}

}  // namespace provio::rdf
