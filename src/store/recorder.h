// The recording API: the one entry point the VOL connector, the preload shim and the public
// C/C++ API use to hand an event to the core, and the process-level flush points.
//
//   static const auto api = provio::model::api_id("H5Dwrite");
//   provio::model::clock::Stopwatch sw;
//   herr_t ret = under_call(...);
//   provio::store::record({Op::kWrite, kFlagCollective, api, dataset, kNoEntity, bytes,
//                          kNoOffset, sw.start_wall_ns(), sw.elapsed_ns()});
//
// record() is thread-safe and lock-free: each thread writes its own log. It never changes errno.
#pragma once

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "model/config.h"
#include "model/event.h"

namespace provio::store {

void record(const model::Event& ev);
// A workflow-level record (store/record_buffer.h): same thread-local, lock-free path.
struct Record;
void record(const Record& r);

// Whether recording is on at all (level != off). Inline, one relaxed load: the preload shim asks
// before timing every call, and a call into the library costs as much as the load.
namespace detail {
extern std::atomic<std::uint8_t> g_level;  // 0 = not read yet, else model::Level + 1
bool read_level_enabled();
}  // namespace detail
inline bool enabled() {
  std::uint8_t l = detail::g_level.load(std::memory_order_relaxed);
  return l == 0 ? detail::read_level_enabled() : l != static_cast<std::uint8_t>(model::Level::kOff) + 1;
}

// Applies settings a layer received through its own channel (the VOL connector's info string),
// over the environment: see model::set_overrides. Threads that already record keep their level
// and buffers; threads that start afterwards, and the output directory of files not yet created,
// follow the new settings.
void apply_overrides(std::vector<std::pair<std::string, std::string>> settings);

// Flushes every thread's buffer (MPI_Finalize, checkpoints). Safe from any thread.
void flush_all();

// The same, returning once what it handed to the writer thread (compressed files' frames) is in
// the files: before an exec, which ends this image and the writer thread with it, and for
// provio_flush, whose caller may _exit next.
void flush_all_to_files();

// The process is ending (exit, _exit, MPI_Abort, a terminating signal): flushes every thread's
// buffer with the program's end time, and from then on writes every record through.
void flush_at_process_end();

// The calling thread's recording state. A caller that records on every call (the preload shim,
// the VOL connector) looks it up once per thread and keeps it in a thread-local of its own:
// libprovio's thread-locals cost a __tls_get_addr call per use (libprovio may be dlopen'ed with
// the VOL plugin), and a caller's one lookup per call then serves every use. Valid for the
// thread's whole life (and in a fork child of it). Its fields are the recorder's (recorder.cc);
// they are declared here so that callers read the HDF5 scope inline.
class ThreadLog;
struct ThreadState {
  ThreadLog* log = nullptr;
  unsigned hdf5_depth = 0;  // Hdf5Scope nesting
  bool detached = false;    // this thread's log was finalised (thread exiting)
};
ThreadState* thread_state();
// record() by the thread that owns `state`, the event as it is: the VOL connector's and the
// preload shim's entry point (the shim's events carry nested_flag() of their time, also those
// recorded later than their call: posix/versions.h's held closes).
void record_as_owner(ThreadState* state, const model::Event& ev);

// Marks the thread that owns `state` (by default the calling thread) as running inside an HDF5
// VOL callback (the connector holds one for the duration of each callback). The preload shim
// builds its events with nested_flag() so that the POSIX calls HDF5 makes meanwhile are tagged
// kFlagNested and not counted twice (docs/format.md).
class Hdf5Scope {
 public:
  // Inline: the VOL connector holds one per callback, and two calls into libprovio for a counter
  // cost more than the counter. A null `state` marks nothing (the connector at level off).
  Hdf5Scope() : Hdf5Scope(thread_state()) {}
  explicit Hdf5Scope(ThreadState* state) : state_(state) {
    if (state_) ++state_->hdf5_depth;
  }
  ~Hdf5Scope() {
    if (state_) --state_->hdf5_depth;
  }
  Hdf5Scope(const Hdf5Scope&) = delete;
  Hdf5Scope& operator=(const Hdf5Scope&) = delete;

 private:
  ThreadState* state_;
};
// The flag of an event the thread that owns `state` makes now: kFlagNested inside an HDF5 VOL
// callback, else none. Inline: the preload shim builds every event with it and hands it to
// record_as_owner(), one call into libprovio per event (a call that added the flag and passed the
// event on was ~25 instructions of each).
inline std::uint8_t nested_flag(const ThreadState* state) {
  return state->hdf5_depth != 0 ? model::kFlagNested : model::kFlagNone;
}

// Statistics for tests and benchmarks.
struct Stats {
  std::size_t threads = 0;       // logs alive
  std::size_t memory_bytes = 0;  // their buffers
  std::uint64_t recorded = 0;    // events accepted by live logs
};
Stats stats();

// Tests: forget all state as if the process had just started (flushes first). Not thread-safe
// against concurrent record() calls.
void reset_for_testing();

}  // namespace provio::store
