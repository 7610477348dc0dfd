// The per-process background writer: formats and writes full trace buffers on its own thread, so
// that a recording thread whose buffer fills only swaps it for its spare and carries on; and
// compresses and writes what a recording thread's own flush handed to its file (output_file.h). The
// thread lives only while there are jobs: a program with one thread of its own stays one between
// hand-offs (a second thread makes every one of its system calls dearer; background_writer.cc).
//
// Hard rule: bounded and never lossy. A log has at most one buffer in flight (the queue holds at
// most one job per log or file, and at most kMaxJobs in all); when submit() refuses, the recording
// thread formats (or compresses) and writes itself. Every synchronous flush (thread exit, process exit, fork,
// MPI_Finalize, provio_flush) first waits for its log's buffer in flight, so a file's content
// keeps the order of its calls.
#pragma once

#include <cstddef>

namespace provio::store {

inline constexpr std::size_t kMaxJobs = 64;

// A buffer handed off by its owner (a ThreadLog): `write(owner)` formats and writes it, then
// returns it to the owner. A plain function and pointer, so that this queue knows nothing of
// what it writes.
struct HandOff {
  void (*write)(void* owner);
  void* owner;
};

// Queues a handed-off buffer (its `write` runs on the writer thread); false if the queue is full
// or the writer thread cannot be started: the caller writes itself.
bool submit(HandOff job);
// Whether the calling thread is the writer thread.
bool on_background_writer();
// Waits until no job is queued or running (fork prepare).
void drain_background();
// The same at process exit, given up after `patience_ms` (false): the exit may run in a signal
// handler that interrupted this very thread while it held the queue's lock.
bool drain_background_within(long patience_ms);
// Fork: prepare drains and holds the queue; the parent releases it; the child, where the writer
// thread does not exist, drops the queue (its logs are the parent's) and starts one on demand.
void background_fork_prepare();
void background_fork_parent();
void background_fork_child();

}  // namespace provio::store
