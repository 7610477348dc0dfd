// A memory barrier on every running thread of the process, paid by the one thread that asks for
// it (Linux membarrier, private expedited): what lets a log's owner claim it with a plain store
// and a load instead of a compare-and-swap (thread_log.h).
//
// Hard rule: process_barrier() may be relied on only after register_process_barrier() returned
// true in this process image (a fork child keeps the registration; an exec'd program registers
// again as its logs are made).
#pragma once

namespace provio::store {

// Idempotent and cheap once registered; false where the kernel (or a seccomp filter) has no
// membarrier: then logs are claimed by compare-and-swap.
bool register_process_barrier();
// Every thread of the process that is running executes a full memory barrier before this
// returns; false if the kernel refused.
bool process_barrier();

}  // namespace provio::store
