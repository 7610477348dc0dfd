// Per-thread provenance log (see thread_log.h). docs/format.md describes what a flush writes.
#include "store/thread_log.h"

#include <cstddef>
#include <thread>

#include "model/clock.h"
#include "model/errno_saver.h"
#include "model/log.h"
#include "store/background_writer.h"
#include "store/incomplete.h"
#include "store/reentry.h"

namespace provio::store {
namespace {

std::atomic<bool> g_write_through{false};
constexpr std::size_t kRecordCapacity = 256;               // workflow records per thread between flushes
constexpr std::size_t kRecordArenaBytes = 32 << 10;        // their strings
constexpr std::uint64_t kOwnerPatienceNs = 1'000'000'000;  // for another thread's flush of our log

}  // namespace

void ThreadLog::set_write_through(bool on) {
  g_write_through.store(on, std::memory_order_relaxed);
  OutputFile::set_write_through(on);  // and compressed on the flushing thread
}

ThreadLog::ThreadLog(model::Level level, std::size_t capacity, unsigned thread_index, pid_t tid)
    : level_(level), writer_(level == model::Level::kTrace, thread_index, tid) {
  if (level_ == model::Level::kTrace) {
    event_capacity_ = capacity;
    events_.reset(new model::Event[capacity]);
    spare_.reset(new model::Event[capacity]);
  } else {
    table_.allocate(capacity);  // at least 16 slots (config.cc)
  }
  next_flush_ns_ = model::clock::wall_ns() + model::config().flush_interval_ns;
}

std::size_t ThreadLog::memory_bytes() const {
  // The formatting buffer is counted at its working size: it grows to that at the first flush.
  return table_.memory_bytes() + 2 * event_capacity_ * sizeof(model::Event) + kWriteChunk;
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
  return events_used_ + table_.held_calls() + (records_ ? records_->size() : 0);
}

inline bool ThreadLog::flush_due(std::uint64_t time_ns) const {
  return time_ns >= next_flush_ns_ || g_write_through.load(std::memory_order_relaxed);
}

void ThreadLog::add_pending() {
  table_.add_pending([](void* log) { static_cast<ThreadLog*>(log)->restart_summary(); }, this);
}

void ThreadLog::restart_summary() {
  model::warn_once("activity-table-full",
                   "activity table full (PROVIO_SUMMARY_SLOTS): activities are described again "
                   "after each full table");
  flush_locked();
  table_.clear();
  restarted_ = true;
}

// A summary log's call of a recent key with nothing to flush (a loop repeating one call) is done
// here, in code that calls nothing and so needs no frame; every other call continues in
// record_claimed() (a new key, a flush due, a trace log: its recent_ stays empty) or record_slow()
// (a claim that must wait), as a tail call.
void ThreadLog::record(const model::Event& ev) {
  std::uint8_t seen;
  if (!try_claim(seen)) return record_slow(ev, seen);
  SummarySlot* recent = table_.recent(ev);  // null in a trace log
  // A new access size goes the out-of-line way too: its call there would cost this path saved
  // registers on every event.
  if (!recent || !SummaryTable::in_run(*recent, ev) || flush_due(ev.start_ns))
    return record_claimed(ev, recent);
  ++recorded_;
  table_.add_in_run(*recent, ev);
  release();
}

void ThreadLog::record_slow(const model::Event& ev, std::uint8_t seen) {
  if (!claim_contended(seen)) return;
  record_claimed(ev, table_.recent(ev));
}

void ThreadLog::record_claimed(const model::Event& ev, SummarySlot* recent) {
  ++recorded_;
  // The trace path out of line: the summary path is then straight-line code from here to
  // release(), in fewer instruction-cache lines.
  bool flush = false;
  if (level_ == model::Level::kTrace) {
    flush = add_trace(ev);
  } else if (recent) {
    table_.add(*recent, ev);
  } else if (table_.queue(ev)) {  // a new key waits in the batch, added when it is full
    add_pending();
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
    if (!submit(hand_off())) {
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
  // The thread's innermost open task changes: the calls from now on are activities of their own.
  if (table_.allocated() && (r.kind == RecordKind::kTaskBegin || r.kind == RecordKind::kTaskEnd)) {
    if (table_.has_pending()) add_pending();  // calls of the task before
    table_.set_task(r.kind == RecordKind::kTaskBegin ? r.subject : r.a);
  }
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

bool ThreadLog::hand_off_records() {
  if (in_flight_.load(std::memory_order_acquire) || g_write_through.load(std::memory_order_relaxed) ||
      !records_->hand_off())
    return false;
  in_flight_.store(true, std::memory_order_release);
  if (!submit(hand_off())) write_handed_off();  // the writer's queue is full: this thread writes them
  return true;
}

HandOff ThreadLog::hand_off() {
  return HandOff{[](void* log) { static_cast<ThreadLog*>(log)->write_handed_off(); }, this};
}

void ThreadLog::write_handed_off() {
  model::ErrnoSaver errno_saver;
  std::uint64_t pending = spare_used_ + (records_ ? records_->handed_off() : 0);
  bool ready = writer_.prepare();
  if (ready) writer_.write_traces(spare_.get(), spare_used_);
  // Formatted even when the file has failed: the bank must be emptied for the next hand-off.
  if (records_ && records_->handed_off()) records_->write_handed_off(writer_.out(), writer_.record_context());
  if (ready) {
    writer_.write_out(pending);  // counts them lost if they cannot be written, now or on the writer thread
  } else {
    writer_.discard();
    count_loss(writer_.failure(), pending);
  }
  spare_used_ = 0;
  in_flight_.store(false, std::memory_order_release);
}

void ThreadLog::flush_locked(bool closing) {
  model::ErrnoSaver errno_saver;
  wait_handed_off();  // the buffer before this one goes first
  next_flush_ns_ = model::clock::wall_ns() + model::config().flush_interval_ns;
  if (table_.has_pending()) add_pending();
  bool empty = table_.changed_count() == 0 && events_used_ == 0 && (!records_ || records_->empty());
  if (empty && !closing) return;
  if (!writer_.prepare()) {
    count_loss(writer_.failure(), pending_events());
    events_used_ = 0;
    if (records_) records_->clear();
    if (table_.allocated()) table_.clear();
    return;
  }
  std::uint64_t pending = pending_events();
  writer_.start_flush();
  if (level_ == model::Level::kTrace) {
    writer_.write_traces(events_.get(), events_used_);
    events_used_ = 0;
  } else {
    writer_.write_summaries(table_, restarted_);
  }
  if (records_ && !records_->empty()) records_->write_all(writer_.out(), writer_.record_context());
  writer_.write_losses();
  if (closing) writer_.write_end_time();
  writer_.write_out(pending);  // counts them lost if they cannot be written, now or on the writer thread
}

}  // namespace provio::store
