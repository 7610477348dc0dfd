// One update of a store at a time (docs/prov-merge.md, "The store").
//
// Hard rule: whoever reads a store to write it back holds its lock from the read to the rename
// (prov-merge --store; prov-run merges through it), or two merges into one store keep only one
// job. The lock is flock(2) on DIR.lock beside the store: the store itself is replaced by
// renaming, so a lock inside it would go with the old one. Holding the lock, an update first
// finishes what a killed one left: its dead temporaries are removed (temporary.h) and a store
// moved aside as DIR.old-PID and never replaced (save_store on a file system without
// RENAME_EXCHANGE, or an older provio) is put back.
#pragma once

#include <functional>
#include <string>

#include "graph/status.h"

namespace provio::rdf {

class StoreLock {
 public:
  StoreLock() = default;
  ~StoreLock();  // releases the lock
  StoreLock(const StoreLock&) = delete;
  StoreLock& operator=(const StoreLock&) = delete;

  // Takes the lock of the store in `dir`, calling `on_wait` first when another update holds it
  // and waiting for it; then recovers the store from a killed update.
  Status acquire(const std::string& dir, const std::function<void()>& on_wait);

 private:
  int fd_ = -1;
};

// Where save_store moves the old store on a file system without RENAME_EXCHANGE.
std::string moved_aside_name(const std::string& dir);

}  // namespace provio::rdf
