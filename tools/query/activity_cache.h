// prov-query's index of a store's I/O activities (prov-query-activities.tsv, beside the store):
// one line per activity record (view.h), sorted by IRI, behind a header that fingerprints the
// store's own files (names, sizes, mtimes), so a store changed since is never answered from it.
// Read and written one record at a time: a campaign's millions of activities are never held at
// once (stats, files and objects sum them as they come, View::activity_totals).
// Hard rule: a reader never sees half an index (written beside it, renamed into place), and an
// index that does not read whole is no index (the caller rebuilds it from the store).
#pragma once

#include <fstream>
#include <string>

#include "graph/output.h"
#include "query/view.h"

namespace provio::query {

inline constexpr const char* kActivityCacheName = "prov-query-activities.tsv";

// Identifies a store's content: name, size and mtime (ns) of each of its own files.
std::string store_fingerprint(const std::string& dir);

class ActivityCacheReader {
 public:
  // Whether `dir` holds an index of the store as `fingerprint` identifies it.
  bool open(const std::string& dir, const std::string& fingerprint);
  // The next record; false at the end or at a line that does not read (then done() is false).
  bool next(ActivityRecord& r);
  // Whether every line read, to the end of the file.
  bool done() const { return done_; }

 private:
  std::ifstream in_;
  std::string line_;
  bool done_ = false;
};

class ActivityCacheWriter {
 public:
  // Starts a new index of the store in `dir`; false (no index written) if it cannot.
  bool open(const std::string& dir, const std::string& fingerprint);
  void add(const ActivityRecord& r);
  // Moves the index into place if the store is still the one fingerprinted (best effort: a
  // read-only store directory just means no index). Gets the mode of the store's own files.
  void commit();

 private:
  std::string dir_, fingerprint_, line_;
  rdf::OutputFile out_;
  bool ok_ = false;
};

}  // namespace provio::query
