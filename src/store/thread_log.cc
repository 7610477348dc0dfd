// Per-thread provenance log (see thread_log.h). docs/format.md describes what a flush writes.
#include "store/thread_log.h"

#include <algorithm>
#include <cerrno>
#include <cstddef>
#include <cstring>
#include <iterator>
#include <new>
#include <thread>

#include "model/api_names.h"
#include "model/clock.h"
#include "model/entities.h"
#include "model/errno_saver.h"
#include "model/identity.h"
#include "model/iri.h"
#include "model/log.h"
#include "store/background_writer.h"
#include "store/decimal.h"
#include "store/incomplete.h"
#include "store/recorder.h"
#include "store/reentry.h"
#include "store/turtle.h"

namespace provio::store {
namespace {

using model::EntityClass;
using model::EntityId;
using model::Op;

std::atomic<bool> g_write_through{false};
std::atomic<bool> g_memory_limit_warned{false};            // the warning that comes with Loss::kMemoryLimit
constexpr std::size_t kRecordCapacity = 256;               // workflow records per thread between flushes
constexpr std::size_t kRecordArenaBytes = 32 << 10;        // their strings
constexpr std::uint64_t kOwnerPatienceNs = 1'000'000'000;  // for another thread's flush of our log

std::size_t round_up_pow2(std::size_t n) {
  std::size_t p = 16;
  while (p < n) p <<= 1;
  return p;
}

static_assert(offsetof(SummarySlot, op) == offsetof(model::Event, op) &&
                  offsetof(SummarySlot, flags) == offsetof(model::Event, flags) &&
                  offsetof(SummarySlot, api) == offsetof(model::Event, api) &&
                  offsetof(SummarySlot, entity) == offsetof(model::Event, entity) &&
                  offsetof(SummarySlot, other) == offsetof(model::Event, other) &&
                  offsetof(model::Event, other) == 8,
              "a summary key is compared as the first 12 bytes of both");

// The key (operation, flags, API, entity, other entity): bytes 0–11 of an event or a slot.
inline bool has_key(const SummarySlot* s, const model::Event& ev) {
  std::uint64_t a, b;
  std::uint32_t c, d;
  std::memcpy(&a, s, 8);
  std::memcpy(&b, &ev, 8);
  std::memcpy(&c, reinterpret_cast<const char*>(s) + 8, 4);
  std::memcpy(&d, reinterpret_cast<const char*>(&ev) + 8, 4);
  return a == b && c == d;
}

// The recent_ entry a key may be remembered in.
inline std::size_t recent_index(const model::Event& ev, std::size_t n) {
  return (std::size_t{ev.api} + ev.entity) & (n - 1);
}

// An event's key (bytes 0–11: operation, flags, API, entity, other entity) hashed to the 32 bits an
// index entry keeps above its slot number. The index compares them before reading a slot, and
// places an entry by their low bits (entry_home), so that growing moves entries without reading
// slots or hashing again. Multiplicative: a product's high bits are its well-mixed ones, and
// entities numbered in a row (as interning numbers them) get distinct low bits of these.
inline std::uint64_t key_tag(const model::Event& ev) {
  std::uint64_t a;
  std::uint32_t b;
  std::memcpy(&a, &ev, 8);
  std::memcpy(&b, reinterpret_cast<const char*>(&ev) + 8, 4);
  return (a * 0x9E3779B97F4A7C15ull ^ b * 0xBF58476D1CE4E5B9ull) & ~std::uint64_t{0xFFFFFFFF};
}

// An index entry's first probe position in an index of mask + 1 entries.
inline std::size_t entry_home(std::uint64_t entry, std::size_t mask) {
  return static_cast<std::size_t>(entry >> 32) & mask;
}

}  // namespace

void ThreadLog::set_write_through(bool on) {
  g_write_through.store(on, std::memory_order_relaxed);
}

ThreadLog::ThreadLog(model::Level level, std::size_t capacity, unsigned thread_index, pid_t tid)
    : level_(level), thread_index_(thread_index), tid_(tid) {
  if (level_ == model::Level::kTrace) {
    event_capacity_ = capacity;
    events_.reset(new model::Event[capacity]);
    spare_.reset(new model::Event[capacity]);
    trace_heads_.reset(new TraceHead[kTraceHeads]);
  } else {
    std::size_t n = round_up_pow2(capacity);  // at least 16 (config.cc)
    pending_.reset(new model::Event[kPending]);
    while ((std::size_t{8} << chunk_shift_) < n) ++chunk_shift_;  // chunks of n / 8 slots
    if (!allocate_summary(n)) throw std::bad_alloc();             // as the trace buffers' new[] would
  }
  next_flush_ns_ = model::clock::wall_ns() + model::config().flush_interval_ns;
}

std::size_t ThreadLog::memory_bytes() const {
  // The formatting buffer is counted at its working size: it grows to that at the first flush.
  return (slot_mask_ ? summary_bytes(slot_mask_ + 1) : 0) + 2 * event_capacity_ * sizeof(model::Event) +
         kWriteChunk;
}

bool ThreadLog::claim_contended(std::uint8_t expected) {
  // A signal handler interrupted this thread inside provio: inside record() (the owner holds the
  // log), or while flushing logs from outside. Waiting would wait for ourselves: drop and count.
  if (expected == kOwner || tls_flushing_outside) {
    count_loss(Loss::kSignalHandler);
    return false;
  }
  // Another thread is flushing this log (exit, flush_all): a flush is short, wait for it, but
  // never without bound.
  std::uint64_t give_up = model::clock::mono_ns() + kOwnerPatienceNs;
  do {
    if (model::clock::mono_ns() > give_up) {
      count_loss(Loss::kBusy);
      return false;
    }
    std::this_thread::yield();
    expected = kIdle;
  } while (!state_.compare_exchange_weak(expected, kOwner, std::memory_order_acquire));
  return true;
}

std::uint64_t ThreadLog::pending_events() const {
  std::uint64_t n = events_used_ + pending_used_ + (records_ ? records_->size() : 0);
  for (std::size_t k = 0; k < dirty_used_; ++k) n += dirty_[k]->count;  // calls since the last flush
  return n;
}

inline bool ThreadLog::add_to_slot(SummarySlot& s, const model::Event& ev) {
  std::uint64_t end = ev.start_ns + ev.elapsed_ns;
  if (s.count++ == 0) {
    dirty_[dirty_used_++] = &s;
    s.first_start_ns = ev.start_ns;
    s.last_end_ns = end;
  } else {
    if (ev.start_ns < s.first_start_ns) s.first_start_ns = ev.start_ns;
    if (end > s.last_end_ns) s.last_end_ns = end;
  }
  s.bytes += ev.bytes;
  s.elapsed_ns += ev.elapsed_ns;
  return true;
}

inline bool ThreadLog::flush_due(std::uint64_t time_ns) const {
  return time_ns >= next_flush_ns_ || g_write_through.load(std::memory_order_relaxed);
}

// Null in a trace log, whose recent_ stays empty.
inline SummarySlot* ThreadLog::recent_slot(const model::Event& ev) const {
  SummarySlot* recent = recent_[recent_index(ev, kRecent)];
  return recent && has_key(recent, ev) ? recent : nullptr;
}

void ThreadLog::add_pending() {
  // Taken at once: a table-full flush in the loop writes what the table holds, and these events
  // are then added to the fresh table, as they would have been one by one.
  std::size_t n = pending_used_;
  pending_used_ = 0;
  // Every event's first index entry is requested before the first is used, so that their misses
  // overlap each other and the work on the events before them (a batch is 4 KiB of index lines
  // at most, in a 32 KiB L1).
  std::uint64_t tags[kPending];
  for (std::size_t k = 0; k < n; ++k) {
    tags[k] = key_tag(pending_[k]);
    __builtin_prefetch(&index_[entry_home(tags[k], slot_mask_)]);
  }
  for (std::size_t k = 0; k < n; ++k) {
    while (!add_new_key(pending_[k], tags[k])) restart_summary();  // an empty table has room
  }
}

void ThreadLog::restart_summary() {
  model::warn_once("activity-table-full",
                   "activity table full (PROVIO_SUMMARY_SLOTS): activities are described again "
                   "after each full table");
  flush_locked();
  clear_summary();
  restarted_ = true;
}

// Inline in add_pending's loop: its one caller, once per new key.
[[gnu::always_inline]] inline bool ThreadLog::add_new_key(const model::Event& ev, std::uint64_t tag) {
  SummarySlot*& recent = recent_[recent_index(ev, kRecent)];
  bool added = false;
  SummarySlot* s = find_or_add(ev, tag, fine_limit_, added);
  if (!s && grow_summary()) s = find_or_add(ev, tag, fine_limit_, added);
  if (s) {  // a coarse slot (below) never has an event's own key: not kept
    recent = s;
  } else {
    // Degrade: an object's call is recorded on its file, a file's on no entity, in one coarse
    // activity per (API, operation, file), so the table keeps room while the program meets ever
    // more objects. Counts and bytes stay exact; which objects is what is lost, and said so.
    model::Event coarse = ev;
    model::EntityId file = model::file_of(ev.entity);
    coarse.entity = file != ev.entity ? file : model::kNoEntity;
    coarse.other = model::kNoEntity;
    coarse.flags = static_cast<std::uint8_t>(ev.flags | model::kFlagCoarse);
    s = find_or_add(coarse, key_tag(coarse), slots_limit_, added);
    if (!s) return false;
    count_loss(Loss::kMemoryLimit);
    if (!g_memory_limit_warned.exchange(true, std::memory_order_relaxed)) {  // warn_once locks
      model::warn_once("summary-memory-limit",
                       "memory limit PROVIO_MEMORY=%zu reached: calls on new objects are recorded on "
                       "their file only (provio:incomplete \"memory-limit\")",
                       model::config().memory_limit);
    }
  }
  return added || add_to_slot(*s, ev);
}

// A summary log's call of a recent key with nothing to flush (a loop repeating one call) is done
// here, in code that calls nothing and so needs no frame; every other call continues in
// record_claimed() (a new key, a flush due, a trace log: its recent_ stays empty) or record_slow()
// (a claim that must wait), as a tail call.
void ThreadLog::record(const model::Event& ev) {
  std::uint8_t seen;
  if (!try_claim(seen)) return record_slow(ev, seen);
  SummarySlot* recent = recent_slot(ev);
  if (!recent || flush_due(ev.start_ns)) return record_claimed(ev, recent);
  ++recorded_;
  add_to_slot(*recent, ev);
  release();
}

void ThreadLog::record_slow(const model::Event& ev, std::uint8_t seen) {
  if (!claim_contended(seen)) return;
  record_claimed(ev, recent_slot(ev));
}

void ThreadLog::record_claimed(const model::Event& ev, SummarySlot* recent) {
  ++recorded_;
  // The trace path out of line: the summary path is then straight-line code from here to
  // release(), in fewer instruction-cache lines.
  bool flush = false;
  if (level_ == model::Level::kTrace) {
    flush = add_trace(ev);
  } else if (recent) {
    add_to_slot(*recent, ev);
  } else {  // a new key waits in the batch
    pending_[pending_used_++] = ev;
    if (pending_used_ == kPending) add_pending();
  }
  if (flush || flush_due(ev.start_ns)) flush_locked();
  release();
}

bool ThreadLog::add_trace(const model::Event& ev) {
  events_[events_used_++] = ev;
  if (events_used_ == event_capacity_ && !in_flight_.load(std::memory_order_acquire) &&
      !g_write_through.load(std::memory_order_relaxed)) {
    // Hand the full buffer to the background writer and carry on with the spare. If the writer
    // refuses (queue full), fall through to flushing here.
    events_.swap(spare_);
    spare_used_ = events_used_;
    events_used_ = 0;
    in_flight_.store(true, std::memory_order_release);
    if (!submit(this)) {
      in_flight_.store(false, std::memory_order_relaxed);
      events_.swap(spare_);
      events_used_ = spare_used_;
      spare_used_ = 0;
    }
  }
  return events_used_ == event_capacity_;
}

void ThreadLog::record(const Record& r) {
  if (!claim_as_owner()) return;
  if (!records_) records_ = std::make_unique<RecordBuffer>(kRecordCapacity, kRecordArenaBytes);
  ++recorded_;
  if (!records_->add(r)) {
    if (!hand_off_records()) flush_locked();
    if (!records_->add(r)) {  // larger than the whole arena: write it straight from the caller
      records_->set_overflow(&r);
      flush_locked();
    }
  } else if (flush_due(r.time_ns)) {
    flush_locked();
  }
  release();
}

inline SummarySlot* ThreadLog::find_or_add(const model::Event& key, std::uint64_t tag, std::size_t limit,
                                           bool& added) {
  for (std::size_t i = entry_home(tag, slot_mask_);; i = (i + 1) & slot_mask_) {
    std::uint64_t entry = index_[i];
    if (entry == 0) {
      if (slots_used_ >= limit) return nullptr;
      // Written once with the event's measures: most metadata calls make a new slot.
      SummarySlot& s = slot(slots_used_);
      dirty_[dirty_used_++] = &s;
      s = SummarySlot{key.op,
                      key.flags,
                      key.api,
                      key.entity,
                      key.other,
                      false,
                      1,
                      key.bytes,
                      key.elapsed_ns,
                      key.start_ns,
                      key.start_ns + key.elapsed_ns};
      index_[i] = tag | ++slots_used_;
      added = true;
      return &s;
    }
    if ((entry & ~std::uint64_t{0xFFFFFFFF}) == tag) {
      SummarySlot& s = slot((entry & 0xFFFFFFFF) - 1);
      if (has_key(&s, key)) return &s;
    }
  }
}

bool ThreadLog::allocate_summary(std::size_t n) {
  std::size_t limit = n - n / 8;  // a multiple of the chunk size (n / 8 at first, then more)
  std::unique_ptr<std::uint64_t[]> index(new (std::nothrow) std::uint64_t[n]());
  std::unique_ptr<SummarySlot*[]> dirty(new (std::nothrow) SummarySlot*[limit]);
  if (!index || !dirty) return false;
  if (slot_chunks_.size() < limit >> chunk_shift_) {
    try {
      slot_chunks_.resize(limit >> chunk_shift_);
    } catch (const std::bad_alloc&) {
      return false;
    }
  }
  // The chunks that hold slots up to the new limit; those that exist stay where they are. Slots
  // are written before they are read: no need to clear them. A chunk made before a later one
  // fails stays, for the next attempt.
  for (std::size_t c = 0; c < limit >> chunk_shift_; ++c) {
    if (!slot_chunks_[c])
      slot_chunks_[c].reset(new (std::nothrow) SummarySlot[std::size_t{1} << chunk_shift_]);
    if (!slot_chunks_[c]) return false;
  }
  if (dirty_used_) std::memcpy(dirty.get(), dirty_.get(), dirty_used_ * sizeof(SummarySlot*));
  index_.swap(index);
  dirty_.swap(dirty);
  slot_mask_ = n - 1;
  fine_limit_ = n - n / 4;
  slots_limit_ = limit;
  return true;
}

bool ThreadLog::grow_summary() {
  std::size_t n = slot_mask_ + 1, m = 2 * n;
  // An index entry holds a slot number in 32 bits; PROVIO_MEMORY bounds the table long before.
  if (m > (std::size_t{1} << 31) || !reserve_memory(summary_bytes(m) - summary_bytes(n))) return false;
  std::unique_ptr<std::uint64_t[]> old(index_.release());
  if (!allocate_summary(m)) {  // the reservation stays: this log keeps its claim
    index_.reset(old.release());
    return false;
  }
  // No slot moved (nor recent_ and dirty_, which point at them). Only the index is rebuilt, from
  // the old one: its entries carry their positions (entry_home).
  for (std::size_t k = 0; k < n; ++k) {
    std::uint64_t entry = old[k];
    if (entry == 0) continue;
    std::size_t i = entry_home(entry, slot_mask_);
    while (index_[i] != 0) i = (i + 1) & slot_mask_;
    index_[i] = entry;
  }
  return true;
}

void ThreadLog::clear_summary() {
  std::memset(index_.get(), 0, (slot_mask_ + 1) * sizeof(std::uint64_t));
  slots_used_ = 0;
  dirty_used_ = 0;
  std::fill(std::begin(recent_), std::end(recent_), nullptr);
}

bool ThreadLog::flush_from_outside(std::uint64_t patience_ns, bool closing) {
  std::uint64_t give_up = model::clock::mono_ns() + patience_ns;
  std::uint8_t expected = kIdle;
  while (!state_.compare_exchange_weak(expected, kOutside, std::memory_order_acquire)) {
    expected = kIdle;
    if (model::clock::mono_ns() > give_up) return false;
    std::this_thread::yield();
  }
  flush_locked(closing);
  release();
  return true;
}

void ThreadLog::flush_now() {
  if (!claim_as_owner()) return;
  flush_locked();
  release();
}

void ThreadLog::wait_handed_off() const {
  while (in_flight_.load(std::memory_order_acquire)) std::this_thread::yield();
}

bool ThreadLog::prepare_output() {
  if (!file_.is_open()) {
    if (file_.failed()) return false;
    const model::Identity& id = model::identity();
    file_.open(model::output_dir(),
               id.host + "-" + std::to_string(id.pid) + "-t" + std::to_string(thread_index_));
  }
  out_.clear();
  if (!header_written_) write_header();
  return true;
}

bool ThreadLog::hand_off_records() {
  if (in_flight_.load(std::memory_order_acquire) || g_write_through.load(std::memory_order_relaxed) ||
      !records_->hand_off())
    return false;
  in_flight_.store(true, std::memory_order_release);
  if (!submit(this)) write_handed_off();  // the writer's queue is full: this thread writes them
  return true;
}

RecordContext ThreadLog::record_context() {
  return RecordContext{model::identity().exec_iri, thread_iri_, [this](EntityId e) { declare_entity(e); }};
}

void ThreadLog::write_handed_off() {
  model::ErrnoSaver errno_saver;
  std::uint64_t pending = spare_used_ + (records_ ? records_->handed_off() : 0);
  bool ready = prepare_output();
  if (ready) write_traces(spare_.get(), spare_used_);
  // Formatted even when the file has failed: the bank must be emptied for the next hand-off.
  if (records_ && records_->handed_off()) records_->write_handed_off(out_, record_context());
  if (ready) file_.write(out_);
  out_.clear();
  if (file_.failed()) count_loss(file_.failure(), pending);
  spare_used_ = 0;
  in_flight_.store(false, std::memory_order_release);
}

void ThreadLog::flush_locked(bool closing) {
  model::ErrnoSaver errno_saver;
  wait_handed_off();  // the buffer before this one goes first
  next_flush_ns_ = model::clock::wall_ns() + model::config().flush_interval_ns;
  if (pending_used_) add_pending();
  bool empty = dirty_used_ == 0 && events_used_ == 0 && (!records_ || records_->empty());
  if (empty && !closing) return;
  if (!prepare_output()) {
    count_loss(file_.failure(), pending_events());
    events_used_ = 0;
    if (records_) records_->clear();
    if (index_) clear_summary();
    return;
  }
  std::uint64_t pending = pending_events();
  ++flush_seq_;
  if (level_ == model::Level::kTrace) {
    write_traces(events_.get(), events_used_);
    events_used_ = 0;
  } else {
    write_summaries();
  }
  if (records_ && !records_->empty()) {
    records_->write_all(out_, record_context());
  }
  append_losses(out_, model::identity().exec_iri, thread_iri_ + "/incomplete/" + std::to_string(flush_seq_));
  if (closing) {
    const model::Identity& id = model::identity();
    Turtle(out_).iri(id.exec_iri).name("provio:endTime").time(model::clock::wall_ns()).end();
  }
  file_.write(out_);
  if (file_.failed()) count_loss(file_.failure(), pending);
  out_.clear();
  if (out_.capacity() > 4 * kWriteChunk) out_.shrink_to_fit();  // one huge statement: give it back
}

}  // namespace provio::store
