// The last flush of a process that ends by _exit, _Exit or a terminating signal: the part both
// capture layers share. The preload library calls it from its _exit wrapper and signal handler;
// without the preload library, the exit hook (exit_hook.h) calls it from the program's _exit.
#pragma once

namespace provio::store {

// Flushes every thread's buffer with the program's end time, unless this is a child that shares
// our memory without being a fork child (a raw vfork or clone: another pid), whose buffers are its
// parent's, or a crash handler (then what was flushed before is kept, as after SIGKILL). A kernel
// timer ends the process if the flush cannot finish (PROVIO_EXIT_TIMEOUT). errno is kept.
// `first`, if given, runs under that timer before the flush (the preload library's held closes).
void flush_before_end(void (*first)() = nullptr);

}  // namespace provio::store
