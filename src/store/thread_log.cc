// Per-thread provenance log (see thread_log.h). docs/format.md describes what a flush writes.
#include "store/thread_log.h"

#include <cerrno>
#include <charconv>
#include <cstring>
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
constexpr std::size_t kRecordCapacity = 256;               // workflow records per thread between flushes
constexpr std::size_t kRecordArenaBytes = 32 << 10;        // their strings
constexpr std::uint64_t kOwnerPatienceNs = 1'000'000'000;  // for another thread's flush of our log

void append_decimal(std::string& out, std::uint64_t n) {
  char buf[24];
  auto r = std::to_chars(buf, buf + sizeof buf, n);
  out.append(buf, static_cast<std::size_t>(r.ptr - buf));
}

std::size_t round_up_pow2(std::size_t n) {
  std::size_t p = 16;
  while (p < n) p <<= 1;
  return p;
}

template <typename Key>
inline bool has_key(const SummarySlot* s, const Key& ev) {
  return s && s->entity == ev.entity && s->other == ev.other && s->api == ev.api && s->op == ev.op &&
         s->flags == ev.flags;
}

// Of an event or a slot (the same key fields). The index takes its low bits, and keeps its high
// 32 bits so that a probe compares most mismatches without reading the slot.
template <typename Key>
inline std::size_t slot_hash(const Key& ev) {
  std::uint64_t k = (std::uint64_t{ev.entity} << 32) ^ ev.other;
  k ^= (std::uint64_t{ev.api} << 16 | std::uint64_t{static_cast<std::uint8_t>(ev.op)} << 8 | ev.flags) *
       0x9E3779B97F4A7C15ull;
  k ^= k >> 29;
  k *= 0xBF58476D1CE4E5B9ull;
  k ^= k >> 32;
  return static_cast<std::size_t>(k);
}

// "provio:Read" → ":Read" (the raw files' short name for provio).
std::string_view short_term(std::string_view provio_term) {
  return provio_term.substr(provio_term.find(':'));
}

// The measures of a summary part or trace call, continuing a block (or starting its predicates).
// Times are µs after the program's start (`run_start_us`) and µs from start to end: prov-merge
// turns them into prov:startedAtTime / prov:endedAtTime, exactly the µs those would have carried.
using MeasureText = char[224];

// "[:offset N ; ]:count N ; :bytes N ; :elapsed S ; :start N ; :span N" written at `p`, which has
// room for sizeof(MeasureText) bytes; returns the end. Built in stack memory and appended once,
// since this runs for every traced call.
char* put_measures(char* p, std::uint64_t count, std::uint64_t bytes, std::uint64_t elapsed_ns,
                   std::uint64_t start_ns, std::uint64_t end_ns, std::int64_t run_start_us,
                   std::int64_t offset = model::kNoOffset) {
  auto put = [&](std::string_view s) {
    std::memcpy(p, s.data(), s.size());
    p += s.size();
  };
  auto num = [&](auto v) { p = put_decimal(p, v); };
  std::int64_t start_us = static_cast<std::int64_t>(start_ns / 1000);
  if (offset != model::kNoOffset) {
    put(":offset ");
    num(offset);
    put(" ; ");
  }
  put(":count ");
  num(count);
  put(" ; :bytes ");
  num(bytes);
  put(" ; :elapsed ");
  num(elapsed_ns / 1000000000u);
  *p++ = '.';
  p = put_nine_digits(p, static_cast<std::uint32_t>(elapsed_ns % 1000000000u));
  put(" ; :start ");
  num(start_us - run_start_us);
  put(" ; :span ");
  num(static_cast<std::int64_t>(end_ns / 1000) - start_us);
  return p;
}

std::string_view format_measures(MeasureText& buf, std::uint64_t count, std::uint64_t bytes,
                                 std::uint64_t elapsed_ns, std::uint64_t start_ns, std::uint64_t end_ns,
                                 std::int64_t run_start_us, std::int64_t offset = model::kNoOffset) {
  char* end = put_measures(buf, count, bytes, elapsed_ns, start_ns, end_ns, run_start_us, offset);
  return std::string_view(buf, static_cast<std::size_t>(end - buf));
}

char* put_text(char* p, std::string_view s) {
  std::memcpy(p, s.data(), s.size());
  return p + s.size();
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
    std::size_t n = round_up_pow2(capacity);
    slots_max_ = 16 * n;
    if (!allocate_summary(n)) throw std::bad_alloc();  // as the trace buffers' new[] would
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
  std::uint64_t n = events_used_ + (records_ ? records_->size() : 0);
  for (std::size_t k = 0; k < dirty_used_; ++k) n += slots_[dirty_[k]].count;  // calls since the last flush
  return n;
}

void ThreadLog::record(const model::Event& ev) {
  if (!claim_as_owner()) return;
  ++recorded_;
  bool flush = false;
  if (level_ == model::Level::kTrace) {
    events_[events_used_++] = ev;
    if (events_used_ == event_capacity_ && !in_flight_.load(std::memory_order_acquire) &&
        !g_write_through.load(std::memory_order_relaxed)) {
      // Hand the full buffer to the background writer and carry on with the spare. If the
      // writer refuses (queue full), fall through to flushing here.
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
    flush = events_used_ == event_capacity_;
  } else if (!add_summary(ev)) {
    // Full even of coarse activities: write what the table holds and start it afresh.
    model::warn_once("activity-table-full",
                     "activity table full (PROVIO_SUMMARY_SLOTS): activities are described again "
                     "after each full table");
    flush_locked();
    clear_summary();
    restarted_ = true;
    add_summary(ev);
  }
  if (flush || ev.start_ns >= next_flush_ns_ || g_write_through.load(std::memory_order_relaxed)) {
    flush_locked();
  }
  release();
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
  } else if (r.time_ns >= next_flush_ns_ || g_write_through.load(std::memory_order_relaxed)) {
    flush_locked();
  }
  release();
}

SummarySlot* ThreadLog::find_or_add(const model::Event& key, std::size_t limit) {
  std::size_t h = slot_hash(key);
  std::uint64_t tag = static_cast<std::uint64_t>(h >> 32) << 32;
  for (std::size_t i = h & slot_mask_;; i = (i + 1) & slot_mask_) {
    std::uint64_t entry = index_[i];
    if (entry == 0) {
      if (slots_used_ >= limit) return nullptr;
      SummarySlot& s = slots_[slots_used_];
      s = SummarySlot{key.entity, key.other, key.api, key.op, key.flags, false, 0, 0, 0, 0, 0};
      index_[i] = tag | ++slots_used_;
      return &s;
    }
    if ((entry & ~std::uint64_t{0xFFFFFFFF}) == tag) {
      SummarySlot& s = slots_[(entry & 0xFFFFFFFF) - 1];
      if (has_key(&s, key)) return &s;
    }
  }
}

bool ThreadLog::allocate_summary(std::size_t n) {
  std::size_t limit = n - n / 8;
  std::unique_ptr<std::uint64_t[]> index(new (std::nothrow) std::uint64_t[n]());
  // Slots are written before they are read: no need to clear them.
  std::unique_ptr<SummarySlot[]> slots(new (std::nothrow) SummarySlot[limit]);
  std::unique_ptr<std::uint32_t[]> dirty(new (std::nothrow) std::uint32_t[limit]);
  if (!index || !slots || !dirty) return false;
  if (slots_used_)
    std::memcpy(static_cast<void*>(slots.get()), slots_.get(), slots_used_ * sizeof(SummarySlot));
  if (dirty_used_) std::memcpy(dirty.get(), dirty_.get(), dirty_used_ * sizeof(std::uint32_t));
  index_.swap(index);
  slots_.swap(slots);
  dirty_.swap(dirty);
  slot_mask_ = n - 1;
  fine_limit_ = n - n / 4;
  slots_limit_ = limit;
  return true;
}

bool ThreadLog::grow_summary() {
  std::size_t n = slot_mask_ + 1, m = 2 * n;
  if (m > slots_max_ || !reserve_memory(summary_bytes(m) - summary_bytes(n))) return false;
  if (!allocate_summary(m)) return false;  // the reservation stays: this log keeps its claim
  // The slots moved; their numbers (dirty_) did not. Only the index is rebuilt.
  for (std::size_t k = 0; k < slots_used_; ++k) {
    std::size_t h = slot_hash(slots_[k]);
    std::size_t i = h & slot_mask_;
    while (index_[i] != 0) i = (i + 1) & slot_mask_;
    index_[i] = (static_cast<std::uint64_t>(h >> 32) << 32) | (k + 1);
  }
  recent_[0] = recent_[1] = nullptr;
  return true;
}

bool ThreadLog::add_summary(const model::Event& ev) {
  if (has_key(recent_[0], ev)) return add_to_slot(*recent_[0], ev);
  if (has_key(recent_[1], ev)) {
    std::swap(recent_[0], recent_[1]);
    return add_to_slot(*recent_[0], ev);
  }
  SummarySlot* s = find_or_add(ev, fine_limit_);
  if (!s && grow_summary()) s = find_or_add(ev, fine_limit_);
  if (s) {  // a coarse slot (below) never has an event's own key: not kept
    recent_[1] = recent_[0];
    recent_[0] = s;
  } else {
    // Degrade: an object's call is recorded on its file, a file's on no entity, in one coarse
    // activity per (API, operation, file), so the table keeps room while the program meets ever
    // more objects. Counts and bytes stay exact; which objects is what is lost.
    model::Event coarse = ev;
    model::EntityId file = model::file_of(ev.entity);
    coarse.entity = file != ev.entity ? file : model::kNoEntity;
    coarse.other = model::kNoEntity;
    coarse.flags = static_cast<std::uint8_t>(ev.flags | model::kFlagCoarse);
    s = find_or_add(coarse, slots_limit_);
    if (!s) return false;
  }
  return add_to_slot(*s, ev);
}

inline bool ThreadLog::add_to_slot(SummarySlot& s, const model::Event& ev) {
  std::uint64_t end = ev.start_ns + ev.elapsed_ns;
  if (s.count++ == 0) {
    dirty_[dirty_used_++] = static_cast<std::uint32_t>(&s - slots_.get());
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

void ThreadLog::clear_summary() {
  std::memset(index_.get(), 0, (slot_mask_ + 1) * sizeof(std::uint64_t));
  slots_used_ = 0;
  dirty_used_ = 0;
  recent_[0] = recent_[1] = nullptr;
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
    const std::string& dir = model::config().dir.empty() ? model::default_output_dir() : model::config().dir;
    file_.open(dir, id.host + "-" + std::to_string(id.pid) + "-t" + std::to_string(thread_index_));
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
  bool empty = dirty_used_ == 0 && events_used_ == 0 && (!records_ || records_->empty());
  if (empty && !closing) return;
  if (!prepare_output()) {
    count_loss(file_.failure(), pending_events());
    events_used_ = 0;
    if (records_) records_->clear();
    if (slots_) clear_summary();
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

void ThreadLog::write_header() {
  header_written_ = true;
  const model::Identity& id = model::identity();
  out_ += model::kTurtlePrefixes;
  // The compact names of the blocks below: ":" for provio (the most frequent namespace), t: for
  // the threads of this program execution (this thread is t:<index>).
  out_ += "@prefix : <http://www.w3.org/ns/provio#> .\n@prefix t: ";
  model::append_iri_term(out_, id.exec_iri + "/thread/");
  out_ += " .\n";
  thread_iri_ = id.exec_iri + "/thread/" + std::to_string(thread_index_);
  run_start_us_ = static_cast<std::int64_t>(id.start_ns / 1000);
  thread_term_ = "t:" + std::to_string(thread_index_);

  // Agent classes imply prov:Agent; prov-merge adds it (docs/format.md).
  Turtle(out_)
      .iri(id.user_iri)
      .name("a")
      .name("provio:User")
      .pred("provio:userName")
      .str(id.user)
      .pred("provio:uid")
      .u64(id.uid)
      .end();
  const std::string& x = id.exec_iri;
  Turtle t(out_);
  t.iri(x).name("a").name("provio:Program").pred("prov:actedOnBehalfOf").iri(id.user_iri);
  t.pred("provio:executable").str(id.executable).pred("provio:commandLine").str(id.command_line);
  if (!id.working_directory.empty()) t.pred("provio:workingDirectory").str(id.working_directory);
  t.pred("provio:pid").u64(static_cast<std::uint64_t>(id.pid)).pred("provio:host").str(id.host);
  t.pred("provio:startTime").time(id.start_ns);
  if (!id.parent_exec_iri.empty()) t.pred("provio:parentRun").iri(id.parent_exec_iri);
  if (!id.workflow.empty()) t.pred("provio:workflow").str(id.workflow);
  if (!id.campaign.empty()) t.pred("provio:campaign").str(id.campaign);
  if (!id.job_iri.empty()) t.pred("provio:job").iri(id.job_iri);
  std::string rank_iri;
  if (id.rank >= 0) {
    rank_iri = id.rank_iri.empty() ? x + "/rank/" + std::to_string(id.rank) : id.rank_iri;
    t.pred("provio:rank").iri(rank_iri);
  }
  t.end();
  if (!id.job_iri.empty()) {
    Turtle(out_).iri(id.job_iri).name("a").name("provio:Job").pred("provio:jobId").str(id.job_id).end();
  }
  if (!rank_iri.empty()) {
    Turtle(out_)
        .iri(rank_iri)
        .name("a")
        .name("provio:Rank")
        .pred("provio:rankNumber")
        .u64(static_cast<std::uint64_t>(id.rank))
        .pred("prov:actedOnBehalfOf")
        .iri(id.user_iri)
        .end();
  }
  Turtle(out_)
      .name(thread_term_)
      .name("a")
      .name("provio:Thread")
      .pred("prov:actedOnBehalfOf")
      .iri(x)
      .pred("provio:threadIndex")
      .u64(thread_index_)
      .pred("provio:tid")
      .u64(static_cast<std::uint64_t>(tid_))
      .end();
}

void ThreadLog::declare_entity(EntityId id) {
  if (id >= declared_.size()) declared_.resize(std::max<std::size_t>(id + 1, declared_.size() * 2));
  if (declared_[id]) return;
  declared_[id] = true;
  const model::Entity* e = model::entity(id);
  if (!e) return;
  if (e->parent != model::kNoEntity) declare_entity(e->parent);
  // Terms first: naming may declare a prefix, which must come before the block.
  std::string& parent = term_copies_[0];  // a copy: naming `id` may move the parent's term
  parent.clear();
  if (e->parent != model::kNoEntity) parent = names_.term(e->parent, out_);
  const std::string& self = names_.term(id, out_);
  Turtle t(out_);
  t.name(self).name("a");
  switch (e->cls) {
    case EntityClass::kFile:
    case EntityClass::kDirectory:
      t.name(short_term(model::class_term(e->cls))).pred(":path").str(e->label);
      break;
    case EntityClass::kVersion: t.name(":Version").pred("prov:specializationOf").name(parent); break;
    case EntityClass::kAttribute:
      t.name(":Attribute").pred(":name").str(e->label);
      if (!parent.empty()) t.pred(":attributeOf").name(parent);
      break;
    case EntityClass::kRecord:
      // A caller's class may be anything: prov:Entity is written, not implied.
      t.name("prov:Entity");
      if (!e->type.empty() && e->type.front() == '<')
        t.also().iri(e->type.substr(1, e->type.size() - 2));
      else if (!e->type.empty())
        t.also().name(e->type);
      t.pred("rdfs:label").str(e->label);
      break;
    default:
      t.name(short_term(model::class_term(e->cls))).pred(":objectPath").str(e->label);
      if (!parent.empty()) t.pred(":inFile").name(parent);
  }
  t.end();
}

// `t:<thread>\/<api>-<Op>-e<n>[-<m>][-f<flags>]`, the IRI <thread IRI>/<api>-<Op>-e<n>…: made of
// pieces that need no escaping beyond the API name's.
const std::string& ThreadLog::api_local_name(model::ApiId api) {
  if (api >= api_local_names_.size()) api_local_names_.resize(api + 1);
  std::string& name = api_local_names_[api];
  if (name.empty()) {
    std::string encoded;
    model::append_percent_encoded(encoded, model::api_name(api), false);
    append_local_name(name, encoded);
  }
  return name;
}

void ThreadLog::activity_term_for(const SummarySlot& s, std::string& term) {
  term.assign(thread_term_);
  term += "\\/";
  term += api_local_name(s.api);
  term += '-';
  term += model::op_name(s.op);
  term += "-e";
  append_decimal(term, s.entity);
  if (s.other != model::kNoEntity) {
    term += '-';
    append_decimal(term, s.other);
  }
  if (s.flags) {
    term += "-f";
    append_decimal(term, s.flags);
  }
}

Turtle ThreadLog::describe_activity(std::string_view act, Op op, model::ApiId api, std::uint8_t flags,
                                    EntityId entity, EntityId other) {
  declare_entity(entity);
  if (other != model::kNoEntity) declare_entity(other);
  // Copies (naming one entity may move the other's term), into buffers reused across calls.
  std::string& e = term_copies_[0];
  std::string& o = term_copies_[1];
  e = names_.term(entity, out_);
  o.clear();
  if (other != model::kNoEntity) o = names_.term(other, out_);
  model::OpTerms terms = model::terms(op);
  const model::Entity* other_entity = model::entity(other);
  bool version = other_entity && other_entity->cls == EntityClass::kVersion;
  if (!o.empty() && !e.empty() && !version) {
    // rename, copy, link: the new name is derived from the old and inherits its history
    Turtle(out_).name(o).name("prov:wasDerivedFrom").name(e).pred("prov:wasGeneratedBy").name(act).end();
  }
  // prov:Activity, the inverse relations and attribution follow from the class and the thread;
  // prov-merge adds them (docs/format.md).
  block_start_ = out_.size();
  Turtle t(out_);
  t.name(act).name("a").name(short_term(terms.activity_class));
  t.pred(":api").str(model::api_name(api));
  t.pred("prov:wasAssociatedWith").name(thread_term_);
  if (!e.empty()) t.pred(terms.generates ? "prov:generated" : "prov:used").name(e);
  // A version: what a close (or the exit of a writer) left, what an open or first read found.
  if (version && !o.empty()) {
    bool generated = model::generates_version(op);
    if (generated == terms.generates && !e.empty())
      t.also().name(o);
    else
      t.pred(generated ? "prov:generated" : "prov:used").name(o);
  }
  if (flags & model::kFlagCollective) t.pred(":transfer").str("collective");
  if (flags & model::kFlagIndependent) t.pred(":transfer").str("independent");
  if (flags & model::kFlagNested) t.pred(":nested").name("true");
  if (flags & model::kFlagCoarse) t.pred(":coarse").name("true");
  return t;
}

void ThreadLog::write_chunk_if_full() {
  if (out_.size() >= kWriteChunk) {
    file_.write(out_);
    out_.clear();
  }
}

void ThreadLog::write_summaries() {
  std::string act, part;
  for (std::size_t k = 0; k < dirty_used_; ++k) {
    SummarySlot& s = slots_[dirty_[k]];
    activity_term_for(s, act);
    bool inline_measures = !s.described && !restarted_;
    if (!s.described) {
      Turtle t = describe_activity(act, s.op, s.api, s.flags, s.entity, s.other);
      MeasureText buf;
      if (inline_measures)
        t.more(format_measures(buf, s.count, s.bytes, s.elapsed_ns, s.first_start_ns, s.last_end_ns,
                               run_start_us_));
      t.end();
      s.described = true;
    }
    if (!inline_measures) {
      // Later flushes: a part named by this flush number with what happened since the last one;
      // prov-merge sums the parts into the activity (docs/format.md).
      part.assign(act);
      part += "\\/p";
      append_decimal(part, flush_seq_);
      Turtle(out_).name(act).name(":partial").name(part).end();
      MeasureText buf;
      Turtle(out_)
          .name(part)
          .more(format_measures(buf, s.count, s.bytes, s.elapsed_ns, s.first_start_ns, s.last_end_ns,
                                run_start_us_))
          .end();
    }
    s.count = s.bytes = s.elapsed_ns = 0;
    write_chunk_if_full();
  }
  dirty_used_ = 0;
}

void ThreadLog::write_traces(const model::Event* events, std::size_t n) {
  std::string act;
  MeasureText buf;
  char line[1024];  // a repeated call's whole statement, appended at once
  for (std::size_t i = 0; i < n; ++i) {
    const model::Event& ev = events[i];
    std::uint64_t seq = ++call_seq_;
    TraceHead::Key key{ev.entity, ev.other, ev.api, ev.op, ev.flags};
    TraceHead& head = trace_heads_[(std::size_t{ev.entity} * 31u + ev.api) % kTraceHeads];
    // The same call on the same object as before: its entity is declared, its block head known.
    // Subject, head and measures go into one stack buffer: a string append per piece cost more
    // than the formatting. (A head too long for the buffer is described again instead.)
    if (head.valid && head.key == key &&
        thread_term_.size() + head.text.size() + sizeof(MeasureText) + 40 <= sizeof line) {
      char* p = put_text(line, thread_term_);
      p = put_text(p, "\\/c");
      p = put_decimal(p, seq);
      p = put_text(p, head.text);
      p = put_text(p, " ; ");
      p = put_measures(p, 1, ev.bytes, ev.elapsed_ns, ev.start_ns, ev.start_ns + ev.elapsed_ns, run_start_us_,
                       ev.offset);
      p = put_text(p, " .\n");
      out_.append(line, static_cast<std::size_t>(p - line));
      write_chunk_if_full();
      continue;
    }
    act.assign(thread_term_);
    act += "\\/c";
    append_decimal(act, seq);
    std::string_view m = format_measures(buf, 1, ev.bytes, ev.elapsed_ns, ev.start_ns,
                                         ev.start_ns + ev.elapsed_ns, run_start_us_, ev.offset);
    Turtle t = describe_activity(act, ev.op, ev.api, ev.flags, ev.entity, ev.other);
    const model::Entity* other = model::entity(ev.other);
    if (ev.other == model::kNoEntity || (other && other->cls == EntityClass::kVersion)) {
      head.key = key;
      head.text.assign(out_, block_start_ + act.size(), std::string::npos);
      head.valid = true;
    }
    t.more(m).end();
    write_chunk_if_full();
  }
}

}  // namespace provio::store
