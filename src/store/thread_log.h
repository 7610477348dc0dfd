// One thread's provenance: a fixed-size summary table (level summary) or event buffer (level
// trace), and the Turtle file it is flushed to.
//
// Hard rule: record() is the hot path. It takes no lock, makes no syscall and allocates nothing
// unless it has to flush. All formatting happens at flush time. The only other thread that may
// touch a log is one flushing every log (process exit, flush_all), and it first claims the log
// through `state_` (idle → outside), the compare-and-swap the owner does (idle → owner) around each
// record(). The owner waits out such a flush (for a bounded time); a signal handler that finds
// its own thread inside provio drops its event and counts it (store/incomplete.h) — it must never
// wait for its own thread.
#pragma once

#include <sys/types.h>

#include <atomic>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "model/config.h"
#include "model/event.h"
#include "store/output_file.h"
#include "store/record_buffer.h"

namespace provio::store {

// Activities aggregated per (API, operation, entity, other entity, flags).
struct SummarySlot {
  model::EntityId entity;
  model::EntityId other;
  model::ApiId api;
  model::Op op;
  std::uint8_t flags;
  bool used;
  std::uint64_t count;
  std::uint64_t bytes;
  std::uint64_t elapsed_ns;
  std::uint64_t first_start_ns;
  std::uint64_t last_end_ns;
};

class ThreadLog {
 public:
  enum State : std::uint8_t { kIdle, kOwner, kOutside };
  // The formatting buffer is written out whenever it reaches this size.
  static constexpr std::size_t kWriteChunk = 64 << 10;

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
  void abandon() { file_.abandon(); }

  // After process exit has begun, every record is flushed at once (events recorded by other
  // libraries' exit handlers, such as HDF5 closing files, are not lost).
  static void set_write_through(bool on);

  std::size_t memory_bytes() const;
  const std::string& path() const { return file_.path(); }
  std::uint64_t recorded() const { return recorded_; }

 private:
  bool claim_as_owner();
  void release();
  std::uint64_t pending_events() const;  // events held in the buffers, for loss counts
  void add_summary(const model::Event& ev);
  void flush_locked(bool closing = false);
  void write_header();
  void declare_entity(model::EntityId id);
  void activity_term_for(const SummarySlot& s, std::string& term) const;
  void describe_activity(std::string_view act, model::Op op, model::ApiId api, std::uint8_t flags,
                         model::EntityId entity, model::EntityId other);
  void write_summaries();
  void write_traces();

  std::atomic<std::uint8_t> state_{kIdle};
  model::Level level_;
  unsigned thread_index_;
  pid_t tid_;
  std::string thread_iri_;
  std::string thread_term_;  // thread_iri_ as a Turtle term

  // summary
  std::unique_ptr<SummarySlot[]> slots_;
  std::size_t slot_mask_ = 0;
  std::size_t slots_used_ = 0;
  std::size_t slots_limit_ = 0;  // flush when this many are used (3/4 of the table)
  // trace
  std::unique_ptr<model::Event[]> events_;
  std::size_t event_capacity_ = 0;
  std::size_t events_used_ = 0;
  std::uint64_t call_seq_ = 0;

  std::uint64_t next_flush_ns_ = 0;
  std::uint64_t flush_seq_ = 0;
  std::uint64_t recorded_ = 0;
  std::unique_ptr<RecordBuffer> records_;  // workflow-level records; null until the first
  std::vector<bool> declared_;             // entities already described in this file
  std::string out_;                        // formatting buffer, reused
  OutputFile file_;
  bool header_written_ = false;
};

}  // namespace provio::store
