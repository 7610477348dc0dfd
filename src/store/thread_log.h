// One thread's provenance: a fixed-size activity table (level summary) or event buffer (level
// trace), and the Turtle file it is flushed to.
//
// Hard rule: record() is the hot path. It takes no lock, makes no syscall and allocates nothing
// unless it has to flush. All formatting happens at flush time. The only other thread that may
// touch a log is one flushing every log (process exit, flush_all), and it first claims the log
// through `state_` (idle → outside), the compare-and-swap the owner does (idle → owner) around each
// record(). The owner waits out such a flush (for a bounded time); a signal handler that finds
// its own thread inside provio drops its event and counts it (store/incomplete.h) — it must never
// wait for its own thread.
//
// Summary output grows with distinct (API, operation, object) only: a slot lives as long as the
// log, its activity is described once per file, and a flush writes only the slots that changed
// since the previous one (docs/format.md). When the table is 3/4 full it doubles, as long as the
// process stays within its memory bound (PROVIO_MEMORY), so every object is kept: a doubling
// allocates, once per doubling, log2(keys / PROVIO_SUMMARY_SLOTS) times in a thread's life. At
// the bound, new keys are recorded on their file (coarse activities), each such call counted as
// lost (Loss::kMemoryLimit, provio:incomplete "memory-limit") with a warning once; only a table
// full even of those is flushed and started afresh. Slots are stored densely in order of
// creation, in chunks that never move, and found through an index of 8-byte entries (slot number
// and hash bits), so a new key writes one slot and one entry, and growing adds chunks and moves
// the index entries only (placed by their hash bits: no slot is read or copied, nothing hashed
// again).
//
// A call whose key is among the recent ones (recent_) adds to its slot at once. Any other waits
// in a small pending batch (pending_events() counts it), added to the table when the batch is
// full and before anything reads the table (every flush): the table's code then runs once per
// batch, with the batch's index loads prefetched before the first is used, instead of once per
// call between stretches of the application's own code (issue 11, ninth VOL pass).
#pragma once

#include <sys/types.h>

#include <atomic>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "model/config.h"
#include "model/event.h"
#include "store/file_names.h"
#include "store/output_file.h"
#include "store/record_buffer.h"
#include "store/trace_subject.h"
#include "store/turtle.h"

namespace provio::model {
struct Entity;
}

namespace provio::store {

// Activities aggregated per (API, operation, entity, other entity, flags). The measures are those
// since the last flush (a part); `described` says the activity is already in the file. The key
// fields are laid out as model::Event's first 12 bytes, so that a key compares as two loads.
struct SummarySlot {
  model::Op op;
  std::uint8_t flags;
  model::ApiId api;
  model::EntityId entity;
  model::EntityId other;
  bool described;
  std::uint64_t count;
  std::uint64_t bytes;
  std::uint64_t elapsed_ns;
  std::uint64_t first_start_ns;
  std::uint64_t last_end_ns;
};

// Cache-line aligned: a recorded call touches the first two lines of the object only.
class alignas(64) ThreadLog {
 public:
  enum State : std::uint8_t { kIdle, kOwner, kOutside };
  // Events of new keys waiting to be added to the summary table (pending_).
  static constexpr std::size_t kPending = 64;
  // Memory of a summary table of `index_size` entries: index entry, slot and changed-slot entry,
  // and the pending batch.
  static constexpr std::size_t summary_bytes(std::size_t index_size) {
    return index_size * sizeof(std::uint64_t) +
           (index_size - index_size / 8) * (sizeof(SummarySlot) + sizeof(SummarySlot*)) +
           kPending * sizeof(model::Event);
  }
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
  // Writer thread (background_writer.h): formats and writes what record() handed off (a full
  // trace buffer, a full bank of workflow records), then marks it returned. Its last access to
  // this log.
  void write_handed_off();

  // After process exit has begun, every record is flushed at once (events recorded by other
  // libraries' exit handlers, such as HDF5 closing files, are not lost).
  static void set_write_through(bool on);

  std::size_t memory_bytes() const;
  const std::string& path() const { return file_.path(); }
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
  // The slot of `ev`'s key if it is among the recent ones (summary), else null.
  SummarySlot* recent_slot(const model::Event& ev) const;
  // Appends the event to the trace buffer, handing a full one to the background writer; true
  // when the buffer is full still (the writer refused it): flush now.
  [[gnu::noinline]] bool add_trace(const model::Event& ev);
  // Adds the pending batch to the table. Before anything reads the table.
  void add_pending();
  // Adds the event to its slot (a new one if needed); false if the table is full. `tag`: the
  // key's hash bits as an index entry holds them (key_tag).
  bool add_new_key(const model::Event& ev, std::uint64_t tag);
  // The table is full even of coarse activities: writes what it holds and starts it afresh.
  void restart_summary();
  bool add_to_slot(SummarySlot& s, const model::Event& ev);
  // The slot of `key` (whose key_tag is `tag`), or a new one holding the event `key` alone
  // (`added`); nullptr when `limit` slots are in use and the key is not among them.
  SummarySlot* find_or_add(const model::Event& key, std::uint64_t tag, std::size_t limit, bool& added);
  // Doubles the activity table (rare: allocates chunks of slots and a new index, moves the index
  // entries); false if it may not grow (PROVIO_MEMORY).
  bool grow_summary();
  // Room for a table of `index_size` entries; false (nothing changed) when out of memory.
  bool allocate_summary(std::size_t index_size);
  void clear_summary();
  void flush_locked(bool closing = false);
  void write_header();
  void declare_entity(model::EntityId id);
  // declare_entity's common case, an HDF5 object or attribute in a file whose name needs no
  // escaping, written in one stack buffer and appended once; false if it is not that case.
  bool declare_object(model::EntityId id, const model::Entity& e);
  // `t:<thread>\/<api>-<Op>-e`: an activity's term up to its entity's number.
  void activity_term_prefix(model::ApiId api, model::Op op, std::string& term);
  void activity_term_for(const SummarySlot& s, std::string& term);
  // The API's part of activity terms (percent-encoded, escaped as a local name), made once per API.
  const std::string& api_local_name(model::ApiId api);
  // Starts the activity's block: class, API, thread, entity relation, flags (and writes the other
  // entity's derivation before it). The caller adds measures and ends the block.
  Turtle describe_activity(std::string_view act, model::Op op, model::ApiId api, std::uint8_t flags,
                           model::EntityId entity, model::EntityId other);
  void write_summaries();
  void write_traces(const model::Event* events, std::size_t n);
  // Opens the file and writes the header if not done yet; false if the file has failed.
  bool prepare_output();
  // Hands the full bank of workflow records to the background writer; false if it cannot be
  // handed off now (a hand-off still in flight, exit has begun, no memory for a second bank).
  bool hand_off_records();
  RecordContext record_context();
  // Waits until the buffer handed to the background writer, if any, is written.
  void wait_handed_off() const;
  void write_chunk_if_full();

  std::atomic<std::uint8_t> state_{kIdle};
  model::Level level_;
  unsigned thread_index_;
  pid_t tid_;
  // What a recorded call reads and writes of the log itself, from state_ on, in its first two
  // cache lines.
  std::uint64_t next_flush_ns_ = 0;
  std::uint64_t recorded_ = 0;
  // The slots of recent keys, direct-mapped by API and entity: a loop repeats one call (write),
  // alternates two (open, close) or cycles through a few (fopen, fwrite, fclose), and then needs
  // no hash and no probe.
  static constexpr std::size_t kRecent = 8;
  SummarySlot* recent_[kRecent] = {};
  std::unique_ptr<model::Event[]> pending_;  // kPending events of keys not among recent_ (summary)
  std::size_t pending_used_ = 0;
  std::string thread_iri_;
  std::string thread_term_;        // thread_iri_ as a prefixed name: "t:<index>"
  std::int64_t run_start_us_ = 0;  // the program's start: raw times are µs after it

  // summary
  std::unique_ptr<std::uint64_t[]> index_;  // slot_mask_ + 1 entries: hash << 32 | slot + 1, 0 free
  std::size_t slot_mask_ = 0;
  std::size_t slots_used_ = 0;
  std::size_t fine_limit_ = 0;             // past this many slots, new keys go on their file (3/4)
  std::size_t slots_limit_ = 0;            // past this many, flush and start afresh (7/8)
  std::unique_ptr<SummarySlot*[]> dirty_;  // slots with measures since the last flush
  std::size_t dirty_used_ = 0;
  unsigned chunk_shift_ = 0;  // slots are in chunks of 1 << chunk_shift_ (first size / 8)
  // Slot k is slot_chunks_[k >> chunk_shift_][k & mask]; a doubling appends chunks.
  std::vector<std::unique_ptr<SummarySlot[]>> slot_chunks_;
  SummarySlot& slot(std::size_t k) {
    return slot_chunks_[k >> chunk_shift_][k & ((std::size_t{1} << chunk_shift_) - 1)];
  }
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
  TraceSubject trace_subject_;  // the next traced call's name, t:<index>\/c<n>

  // Trace: the block head (class to flags, after the subject) of recent (object, other object,
  // API, operation, flags), so that a repeated call costs its subject and measures. Only heads
  // whose other object is none or a version (a read's) are kept: a rename's or copy's derivation
  // names the call. Direct-mapped, per file.
  struct TraceHead {
    struct Key {
      model::EntityId entity;
      model::EntityId other;
      model::ApiId api;
      model::Op op;
      std::uint8_t flags;
      bool operator==(const Key& o) const {
        return entity == o.entity && other == o.other && api == o.api && op == o.op && flags == o.flags;
      }
    } key{};
    bool valid = false;
    std::string text;
  };
  static constexpr std::size_t kTraceHeads = 64;
  std::unique_ptr<TraceHead[]> trace_heads_;
  // Summary: the text of a new activity's block around its entity term (after the subject, up to
  // the measures), by (API, operation, flags), for activities with no other object. Every
  // activity of a summary is new in its file, and most share these with an earlier one: then its
  // block is subject, head, entity term, head, measures (the text describe_activity would write).
  // Direct-mapped; the text names no entity, so it holds for the log's life.
  struct SummaryHead {
    model::ApiId api = 0;
    model::Op op{};
    std::uint8_t flags = 0;
    bool valid = false;
    std::string subject;  // the activity's term up to its entity's number (activity_term_prefix)
    std::string before;   // from after the subject to the entity term
    std::string after;    // from after the entity term to the end of describe_activity's text
  };
  static constexpr std::size_t kSummaryHeads = 64;
  SummaryHead summary_heads_[kSummaryHeads];
  SummaryHead& summary_head(const SummarySlot& s);
  // Writes a new activity's whole block, subject included, from its summary head; false when
  // there is none yet.
  bool write_from_summary_head(const SummarySlot& s);
  void describe_summary(const SummarySlot& s, std::string_view act, bool inline_measures);
  std::size_t block_start_ = 0;  // where describe_activity's block began in out_
  std::size_t entity_at_ = 0;    // where describe_activity wrote the entity term in out_ (0: none)
  std::uint64_t flush_seq_ = 0;
  std::unique_ptr<RecordBuffer> records_;     // workflow-level records; null until the first
  std::vector<bool> declared_;                // entities already described in this file
  std::vector<std::string> api_local_names_;  // by ApiId, for api_local_name()
  std::string term_copies_[2];                // entity terms being written (declare/describe)
  FileNames names_;                           // prefixes and entity terms of this file
  std::string out_;                           // formatting buffer, reused
  OutputFile file_;
  bool header_written_ = false;
};

}  // namespace provio::store
