// One thread's provenance: its activity table (level summary, store/summary_table.h) or event
// buffer (level trace), the buffer of its workflow records, and when they are flushed into its
// raw file (store/raw_writer.h).
//
// Hard rule: record() is the hot path. It takes no lock, makes no syscall and allocates nothing
// unless it has to flush (or the table grows, summary_table.h). All formatting happens at flush
// time. The only other thread that may touch a log is one flushing every log (process exit,
// flush_all), and it first claims the log through `state_` (idle → outside), the
// compare-and-swap the owner does (idle → owner) around each record(). The owner waits out such
// a flush (for a bounded time); a signal handler that finds its own thread inside provio drops
// its event and counts it (store/incomplete.h) — it must never wait for its own thread.
#pragma once

#include <sys/types.h>

#include <atomic>
#include <cstdint>
#include <memory>
#include <string>

#include "model/config.h"
#include "model/event.h"
#include "store/background_writer.h"
#include "store/raw_writer.h"
#include "store/record_buffer.h"
#include "store/summary_table.h"

namespace provio::store {

// Cache-line aligned: a recorded call touches the first two lines of the object only.
class alignas(64) ThreadLog {
 public:
  enum State : std::uint8_t { kIdle, kOwner, kOutside };
  static constexpr std::size_t kWriteChunk = RawWriter::kWriteChunk;

  // `capacity`: summary slots or trace events; `thread_index`: 0, 1, … in order of first record.
  ThreadLog(model::Level level, std::size_t capacity, unsigned thread_index, pid_t tid);
  ThreadLog(const ThreadLog&) = delete;
  ThreadLog& operator=(const ThreadLog&) = delete;

  // Owner thread only.
  void record(const model::Event& ev);
  // Owner thread only: a workflow-level record (record_buffer.h). Same rules as record(Event);
  // the record buffer is allocated on the thread's first one.
  void record(const Record& r);

  // Any thread: claims the log, flushes what it holds, releases it. Gives up (false) if the owner
  // stays busy for longer than `patience_ns`. `closing` also writes the program's end time.
  bool flush_from_outside(std::uint64_t patience_ns, bool closing);
  // Owner thread: flush now (thread exit, fork prepare).
  void flush_now();
  // Fork child: drop the buffer and the descriptor; the parent still owns both.
  void abandon() { writer_.abandon(); }

  // After process exit has begun, every record is flushed at once (events recorded by other
  // libraries' exit handlers, such as HDF5 closing files, are not lost).
  static void set_write_through(bool on);

  std::size_t memory_bytes() const;
  const std::string& path() const { return writer_.path(); }
  std::uint64_t recorded() const { return recorded_; }

 private:
  // idle → owner: one compare-and-swap, inline (every record() takes it); false with the state
  // seen in `seen`, for claim_contended(), out of line.
  bool try_claim(std::uint8_t& seen) {
    seen = kIdle;
    return state_.compare_exchange_strong(seen, kOwner, std::memory_order_acquire);
  }
  bool claim_as_owner() {
    std::uint8_t seen;
    return try_claim(seen) || claim_contended(seen);
  }
  bool claim_contended(std::uint8_t seen);
  // Whether this record must be followed by a flush: its time is past the next periodic one, or
  // the process is exiting (write-through).
  bool flush_due(std::uint64_t time_ns) const;
  void release() { state_.store(kIdle, std::memory_order_release); }
  std::uint64_t pending_events() const;  // events held in the buffers, for loss counts
  // record() whose claim found the log in state `seen`: claims it (waiting if it must), then
  // record_claimed().
  [[gnu::noinline]] void record_slow(const model::Event& ev, std::uint8_t seen);
  // record() with the log claimed: adds the event to `recent` (its recent slot, or null), to the
  // pending batch or to the trace buffer, flushes if due, and releases the log.
  [[gnu::noinline]] void record_claimed(const model::Event& ev, SummarySlot* recent);
  // Appends the event to the trace buffer, handing a full one to the background writer; true
  // when the buffer is full still (the writer refused it): flush now.
  [[gnu::noinline]] bool add_trace(const model::Event& ev);
  // Adds the table's pending batch, restarting the table when it is full even of coarse
  // activities (restart_summary). Before anything reads the table.
  void add_pending();
  // The table is full even of coarse activities: writes what it holds and starts it afresh.
  void restart_summary();
  void flush_locked(bool closing = false);
  // Hands the full bank of workflow records to the background writer; false if it cannot be
  // handed off now (a hand-off still in flight, exit has begun, no memory for a second bank).
  bool hand_off_records();
  // This log's job for the background writer: write_handed_off().
  HandOff hand_off();
  // Writer thread (background_writer.h), or this one when the writer refuses: formats and writes
  // what record() handed off (a full trace buffer, a full bank of workflow records), then marks it
  // returned. The writer thread's last access to this log.
  void write_handed_off();
  // Waits until the buffer handed to the background writer, if any, is written.
  void wait_handed_off() const;

  std::atomic<std::uint8_t> state_{kIdle};
  model::Level level_;
  // What a recorded call reads and writes of the log itself, from state_ on, in its first two
  // cache lines (the table's recent slots and pending batch first).
  std::uint64_t next_flush_ns_ = 0;
  std::uint64_t recorded_ = 0;
  SummaryTable table_;      // summary; empty in a trace log
  bool restarted_ = false;  // the table was started afresh: measures go on parts only
  // trace
  std::unique_ptr<model::Event[]> events_;
  std::size_t event_capacity_ = 0;
  std::size_t events_used_ = 0;
  // A full buffer handed to the background writer (and the record bank handed off with
  // hand_off_records): owned by it while in_flight_.
  std::unique_ptr<model::Event[]> spare_;
  std::size_t spare_used_ = 0;
  std::atomic<bool> in_flight_{false};
  std::unique_ptr<RecordBuffer> records_;  // workflow-level records; null until the first
  RawWriter writer_;
};

}  // namespace provio::store
