// The calling thread's runs of write epochs (versions.h, docs/format.md "Runs of write
// epochs"): one per file, direct-mapped by entity in a table of 32, made at the thread's first
// run. Declared here so that a close within a run is recognised and held inline (versions.h);
// versions.cc starts, ends and records them.
//
// Hard rule: only the thread itself touches its table (no lock, no atomic).
#pragma once

#include <sys/types.h>

#include <cstddef>
#include <cstdint>

#include "model/event.h"

namespace provio::posix {

// One run: write epochs of `file` by this thread with no read of it by this thread between them.
// `dev`/`ino` are those of the version its first close named. The held close (`has_held`) is its
// latest: recorded without a version when the next close of the file comes, or with the version
// the file holds when the run ends.
struct Run {
  model::EntityId file = model::kNoEntity;
  model::ApiId api = 0;
  std::uint8_t flags = 0;
  bool has_held = false;
  dev_t dev = 0;
  ino_t ino = 0;
  std::uint64_t start_ns = 0, elapsed_ns = 0;

  model::Event held_close(model::EntityId version) const {
    return {model::Op::kClose, flags, api, file, version, 0, model::kNoOffset, start_ns, elapsed_ns};
  }
};
inline constexpr std::size_t kRuns = 32;
struct Runs {
  Run slot[kRuns];
};

// The thread's table, made at its first run and freed at its exit, after which (the main
// thread's TLS dies inside exit(), before the atexit handlers that may still close files) every
// close names its version at once. initial-exec, as tls_inside (wrapper.h): the shim is loaded at
// start-up, and a close must not pay a __tls_get_addr call to look its run up.
inline thread_local Runs* tls_runs __attribute__((tls_model("initial-exec"))) = nullptr;

// The run of `file` on this thread, or null.
inline Run* run_of(model::EntityId file) {
  Runs* t = tls_runs;
  if (!t) return nullptr;
  Run& r = t->slot[file % kRuns];
  return r.file == file ? &r : nullptr;
}

}  // namespace provio::posix
