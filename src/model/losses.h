// What provio could not record, counted per reason: the model of "incomplete provenance"
// (docs/format.md). Any layer counts here (entity interning, the store, the preload shim); the
// store writes the counts as provio:incomplete nodes (store/incomplete.h). Darshan's "partial"
// flag is the model, with the reason and the amount.
//
// Hard rule: count_loss() is async-signal-safe (a lock-free atomic add): it is what a signal
// handler that cannot record safely does instead.
#pragma once

#include <cstdint>
#include <string_view>

namespace provio::model {

enum class Loss : std::uint8_t {
  kSignalHandler,   // an event recorded from a handler that interrupted provio on its thread
  kBusy,            // the thread's log stayed held by another thread's flush
  kOutputFailed,    // events in a buffer whose file could not be written
  kFreeSpace,       // events not written to keep the free-space reserve
  kUnresolvedName,  // a relative name met while the working directory cannot be named
  kMemoryLimit,     // a call recorded on its file, not its object: the activity table is at PROVIO_MEMORY
  kCount_
};

// The reason as written in provio:reason.
std::string_view loss_reason(Loss l);

// Counts `n` events lost for `l`. Async-signal-safe.
void count_loss(Loss l, std::uint64_t n = 1) noexcept;

// Total counted since the process started (tests, diagnostics).
std::uint64_t losses(Loss l);

// The losses for `l` counted since the last call, which a writer is about to write.
std::uint64_t take_unwritten_losses(Loss l);

}  // namespace provio::model
