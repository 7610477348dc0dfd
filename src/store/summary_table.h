// A thread's activity table at level summary: one slot per distinct (API, operation, entity,
// other entity, flags, task), holding the measures since the last flush. A plain data structure: no
// lock (its ThreadLog's claim guards it), no Turtle (raw_writer.h reads the changed slots).
//
// Hard rule: adding a call to a recent key (recent()/add()) and queueing a new one (queue())
// touch no memory but the table's own and allocate nothing; only growth allocates, once per
// doubling.
//
// A slot lives as long as the table, and a flush reads only the slots that changed since the
// previous one (the dirty list). When the table is 3/4 full it doubles, as long as the process
// stays within its memory bound (PROVIO_MEMORY, store/memory_budget.h), so every object is kept:
// log2(keys / PROVIO_SUMMARY_SLOTS) allocations in a thread's life. At the bound, new keys are
// recorded on their file (coarse activities), each such call counted as lost (Loss::kMemoryLimit,
// provio:incomplete "memory-limit") with a warning once; only a table full even of those is
// emptied (by the caller's `full` callback, which flushes it first). Slots are stored densely in
// order of creation, in chunks that never move, and found through an index of 8-byte entries
// (slot number and hash bits), so a new key writes one slot and one entry, and growing adds
// chunks and moves the index entries only (placed by their hash bits: no slot is read or copied,
// nothing hashed again).
//
// A call whose key is among the recent ones (recent()) adds to its slot at once. Any other waits
// in a small pending batch (queue()), added to the table when the batch is full and before
// anything reads the table (every flush): the table's code then runs once per batch, with the
// batch's index loads prefetched before the first is used, instead of once per call between
// stretches of the application's own code (issue 11, ninth VOL pass).
//
// The task (the workflow API's innermost open task of the thread, 0 for none) is part of the key
// without being part of an event: the table holds the current one (set_task), which changes
// only between calls. A change empties the recent slots, so recent() needs no task compare: a
// recent slot is always one of the current task.
#pragma once

#include <algorithm>
#include <array>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <memory>
#include <vector>

#include "model/access_size.h"
#include "model/event.h"

namespace provio::store {

// Activities aggregated per (API, operation, entity, other entity, flags, task). The measures are
// those since the last flush (a part); `described` says the activity is already in the file. The
// key fields but the task are laid out as model::Event's first 12 bytes, so that a key compares as
// two loads.
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
  // Reads' (writes') access sizes per bucket of model/access_size.h, for a read (write) slot
  // only: other slots leave them unset. 32 bits keep the slot small; a part holding more than
  // 2^32 calls of one bucket is told by the buckets not adding up to `count` (raw_writer.cc).
  // A call is put in its bucket only when the size changes: this part's calls from number
  // `run_from` on all moved `run_bytes` bytes and are not in `sizes` yet (sizes_of() adds them),
  // so a run of equal sizes, the common case, costs one comparison a call.
  std::uint32_t sizes[model::kSizeBuckets];
  std::uint64_t run_bytes;
  std::uint64_t run_from;
  // The task all the slot's calls were made in (0: none): a summary activity belongs to one task.
  std::uint64_t task;
};

// Whether a slot of operation `op` keeps access sizes: the operations moving data.
constexpr bool keeps_sizes(model::Op op) {
  return op == model::Op::kRead || op == model::Op::kWrite;
}

// A read (write) slot's calls per access-size bucket in this part, its current run included.
std::array<std::uint64_t, model::kSizeBuckets> sizes_of(const SummarySlot& s);

class SummaryTable {
 public:
  // Events of new keys waiting to be added (queue()).
  static constexpr std::size_t kPending = 64;
  // Memory of a table of `index_size` entries: index entry, slot and changed-slot entry, and the
  // pending batch.
  static constexpr std::size_t bytes(std::size_t index_size) {
    return index_size * sizeof(std::uint64_t) +
           (index_size - index_size / 8) * (sizeof(SummarySlot) + sizeof(SummarySlot*)) +
           kPending * sizeof(model::Event);
  }

  // An empty table holds nothing and allocates nothing (a trace log's): recent() is null.
  SummaryTable() = default;
  SummaryTable(const SummaryTable&) = delete;
  SummaryTable& operator=(const SummaryTable&) = delete;
  // Room for `capacity` keys (rounded up to a power of two, at least 16); throws std::bad_alloc.
  void allocate(std::size_t capacity);

  // The slot of `ev`'s key if it is among the recent ones, else null.
  SummarySlot* recent(const model::Event& ev) const {
    SummarySlot* s = recent_[recent_index(ev)];
    return s && has_key(s, ev) ? s : nullptr;
  }
  // From now on, calls are made in `task` (0: none). The caller adds the pending batch first
  // (add_pending): those calls were made in the task before.
  void set_task(std::uint64_t task) {
    task_ = task;
    std::fill(std::begin(recent_), std::end(recent_), nullptr);
  }
  // Adds `ev` to its slot `s` (found by recent()).
  void add(SummarySlot& s, const model::Event& ev) {
    if (!in_run(s, ev)) start_run(s, ev.bytes);
    add_in_run(s, ev);
  }
  // Whether `ev` continues the slot's run of equal access sizes (or starts its part): then
  // add_in_run() is add(), in straight-line code with no call.
  static bool in_run(const SummarySlot& s, const model::Event& ev) {
    return ev.bytes == s.run_bytes || s.count == 0;
  }
  void add_in_run(SummarySlot& s, const model::Event& ev) {
    std::uint64_t end = ev.start_ns + ev.elapsed_ns;
    if (s.count++ == 0) {
      dirty_[dirty_used_++] = &s;
      s.first_start_ns = ev.start_ns;
      s.last_end_ns = end;
      s.run_bytes = ev.bytes;
      s.run_from = 0;
    } else {
      if (ev.start_ns < s.first_start_ns) s.first_start_ns = ev.start_ns;
      if (end > s.last_end_ns) s.last_end_ns = end;
    }
    s.bytes += ev.bytes;
    s.elapsed_ns += ev.elapsed_ns;
  }
  // Queues an event whose key is not among the recent ones; true when the batch is full: the
  // caller then calls add_pending().
  bool queue(const model::Event& ev) {
    pending_[pending_used_++] = ev;
    return pending_used_ == kPending;
  }
  // Adds the pending batch to the table; before anything reads it. When the table is full even of
  // coarse activities, calls `full(context)`, which must write the changed slots and clear()
  // the table, and carries on in the emptied table.
  void add_pending(void (*full)(void* context), void* context);
  bool has_pending() const { return pending_used_ != 0; }

  // The slots with measures since the last reset_changed(), in order of change.
  SummarySlot* const* changed() const { return dirty_.get(); }
  std::size_t changed_count() const { return dirty_used_; }
  // The changed slots have been written: they start their next part.
  void reset_changed() { dirty_used_ = 0; }
  // Calls held by the table: queued, and counted in changed slots (for loss counts).
  std::uint64_t held_calls() const;

  // Forgets every slot (the table starts afresh); keeps its memory.
  void clear();
  bool allocated() const { return index_ != nullptr; }
  std::size_t memory_bytes() const { return slot_mask_ ? bytes(slot_mask_ + 1) : 0; }
  std::size_t slots_used() const { return slots_used_; }
  std::size_t index_size() const { return slot_mask_ + 1; }

 private:
  // Puts the slot's run of equal sizes in its bucket; the calls from the next one (number
  // s.count) on move `bytes` bytes.
  static void start_run(SummarySlot& s, std::uint64_t bytes);
  // The key (operation, flags, API, entity, other entity): bytes 0–11 of an event or a slot.
  static bool has_key(const SummarySlot* s, const model::Event& ev) {
    std::uint64_t a, b;
    std::uint32_t c, d;
    std::memcpy(&a, s, 8);
    std::memcpy(&b, &ev, 8);
    std::memcpy(&c, reinterpret_cast<const char*>(s) + 8, 4);
    std::memcpy(&d, reinterpret_cast<const char*>(&ev) + 8, 4);
    return a == b && c == d;
  }
  static std::size_t recent_index(const model::Event& ev) {
    return (std::size_t{ev.api} + ev.entity) & (kRecent - 1);
  }
  // Adds the event to its slot (a new one if needed) of the current task; false if the table is
  // full. `tag`: the key's hash bits as an index entry holds them (summary_table.cc, key_tag).
  bool add_new_key(const model::Event& ev, std::uint64_t tag);
  // The slot of `key` (whose tag is `tag`), or a new one holding the event `key` alone (`added`);
  // nullptr when `limit` slots are in use and the key is not among them.
  SummarySlot* find_or_add(const model::Event& key, std::uint64_t tag, std::size_t limit, bool& added);
  // Doubles the table (rare: allocates chunks of slots and a new index, moves the index entries);
  // false if it may not grow (PROVIO_MEMORY).
  bool grow();
  // Room for a table of `index_size` entries; false (nothing changed) when out of memory.
  bool allocate_index(std::size_t index_size);
  SummarySlot& slot(std::size_t k) {
    return slot_chunks_[k >> chunk_shift_][k & ((std::size_t{1} << chunk_shift_) - 1)];
  }

  // First, as a recorded call reads them: the slots of recent keys, direct-mapped by API and
  // entity. A loop repeats one call (write), alternates two (open, close) or cycles through a
  // few (fopen, fwrite, fclose), and then needs no hash and no probe.
  static constexpr std::size_t kRecent = 8;
  SummarySlot* recent_[kRecent] = {};
  std::unique_ptr<model::Event[]> pending_;  // kPending events of keys not among recent_
  std::uint64_t task_ = 0;                   // the task of the calls added now (set_task)
  std::size_t pending_used_ = 0;
  std::unique_ptr<SummarySlot*[]> dirty_;  // slots with measures since reset_changed()
  std::size_t dirty_used_ = 0;

  std::unique_ptr<std::uint64_t[]> index_;  // slot_mask_ + 1 entries: hash << 32 | slot + 1, 0 free
  std::size_t slot_mask_ = 0;
  std::size_t slots_used_ = 0;
  std::size_t fine_limit_ = 0;   // past this many slots, new keys go on their file (3/4)
  std::size_t slots_limit_ = 0;  // past this many, the table is full (7/8)
  unsigned chunk_shift_ = 0;     // slots are in chunks of 1 << chunk_shift_ (first size / 8)
  // Slot k is slot_chunks_[k >> chunk_shift_][k & mask]; a doubling appends chunks.
  std::vector<std::unique_ptr<SummarySlot[]>> slot_chunks_;
};

}  // namespace provio::store
