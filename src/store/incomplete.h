// What provio could not record, counted per reason, and the statements that say so in the graph
// (docs/format.md, "Incomplete provenance"): the program execution gets a provio:incomplete node
// per reason and flush, carrying provio:reason and provio:lost; prov-query and the report sum
// the counts. Darshan's "partial" flag is the model, with the reason and the amount.
//
// Hard rule: count_loss() is async-signal-safe (a lock-free atomic add): it is what a signal
// handler that cannot record safely does instead.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

namespace provio::store {

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

// Appends, for every reason with losses not yet written, one incomplete node to `out` and marks
// those losses written. `node_base`: an IRI unique to this flush (thread and flush number), to
// which "/<reason>" is added, so that nodes from different flushes never merge.
void append_losses(std::string& out, const std::string& exec_iri, const std::string& node_base);

}  // namespace provio::store
