// Per-thread provenance log (see thread_log.h). docs/format.md describes what a flush writes.
#include "store/thread_log.h"

#include <cerrno>
#include <charconv>
#include <cstring>
#include <thread>

#include "model/api_names.h"
#include "model/clock.h"
#include "model/entities.h"
#include "model/errno_saver.h"
#include "model/identity.h"
#include "model/iri.h"
#include "store/incomplete.h"
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

inline std::size_t slot_hash(const model::Event& ev) {
  std::uint64_t k = (std::uint64_t{ev.entity} << 32) ^ ev.other;
  k ^= (std::uint64_t{ev.api} << 16 | std::uint64_t{static_cast<std::uint8_t>(ev.op)} << 8 | ev.flags) *
       0x9E3779B97F4A7C15ull;
  k ^= k >> 29;
  k *= 0xBF58476D1CE4E5B9ull;
  k ^= k >> 32;
  return static_cast<std::size_t>(k);
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
  } else {
    std::size_t n = round_up_pow2(capacity);
    slots_.reset(new SummarySlot[n]());
    slot_mask_ = n - 1;
    slots_limit_ = n - n / 4;
  }
  next_flush_ns_ = model::clock::wall_ns() + model::config().flush_interval_ns;
}

std::size_t ThreadLog::memory_bytes() const {
  // The formatting buffer is counted at its working size: it grows to that at the first flush.
  return (slot_mask_ ? (slot_mask_ + 1) * sizeof(SummarySlot) : 0) + event_capacity_ * sizeof(model::Event) +
         kWriteChunk;
}

bool ThreadLog::claim_as_owner() {
  std::uint8_t expected = kIdle;
  if (state_.compare_exchange_strong(expected, kOwner, std::memory_order_acquire)) return true;
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
  for (std::size_t i = 0; slots_used_ > 0 && i <= slot_mask_; ++i) {
    if (slots_[i].used) n += slots_[i].count;
  }
  return n;
}

void ThreadLog::release() {
  state_.store(kIdle, std::memory_order_release);
}

void ThreadLog::record(const model::Event& ev) {
  if (!claim_as_owner()) return;
  ++recorded_;
  bool flush = false;
  if (level_ == model::Level::kTrace) {
    events_[events_used_++] = ev;
    flush = events_used_ == event_capacity_;
  } else {
    add_summary(ev);
    flush = slots_used_ >= slots_limit_;
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
    flush_locked();
    if (!records_->add(r)) {  // larger than the whole arena: write it straight from the caller
      records_->set_overflow(&r);
      flush_locked();
    }
  } else if (r.time_ns >= next_flush_ns_ || g_write_through.load(std::memory_order_relaxed)) {
    flush_locked();
  }
  release();
}

void ThreadLog::add_summary(const model::Event& ev) {
  std::size_t i = slot_hash(ev) & slot_mask_;
  std::uint64_t end = ev.start_ns + ev.elapsed_ns;
  while (true) {
    SummarySlot& s = slots_[i];
    if (!s.used) {
      s = SummarySlot{ev.entity, ev.other, ev.api,        ev.op,       ev.flags, true,
                      1,         ev.bytes, ev.elapsed_ns, ev.start_ns, end};
      ++slots_used_;
      return;
    }
    if (s.entity == ev.entity && s.other == ev.other && s.api == ev.api && s.op == ev.op &&
        s.flags == ev.flags) {
      ++s.count;
      s.bytes += ev.bytes;
      s.elapsed_ns += ev.elapsed_ns;
      if (ev.start_ns < s.first_start_ns) s.first_start_ns = ev.start_ns;
      if (end > s.last_end_ns) s.last_end_ns = end;
      return;
    }
    i = (i + 1) & slot_mask_;
  }
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

void ThreadLog::flush_locked(bool closing) {
  model::ErrnoSaver errno_saver;
  next_flush_ns_ = model::clock::wall_ns() + model::config().flush_interval_ns;
  bool empty = slots_used_ == 0 && events_used_ == 0 && (!records_ || records_->empty());
  if (empty && !closing) return;
  if (!file_.is_open()) {
    if (file_.failed()) {
      count_loss(file_.failure(), pending_events());
      slots_used_ = events_used_ = 0;
      if (records_) records_->clear();
      if (slots_) std::memset(static_cast<void*>(slots_.get()), 0, (slot_mask_ + 1) * sizeof(SummarySlot));
      return;
    }
    const model::Identity& id = model::identity();
    const std::string& dir = model::config().dir.empty() ? model::default_output_dir() : model::config().dir;
    file_.open(dir, id.host + "-" + std::to_string(id.pid) + "-t" + std::to_string(thread_index_));
  }
  std::uint64_t pending = pending_events();
  ++flush_seq_;
  out_.clear();
  if (!header_written_) write_header();
  if (level_ == model::Level::kTrace)
    write_traces();
  else
    write_summaries();
  if (records_ && !records_->empty()) {
    RecordContext ctx{model::identity().exec_iri, thread_iri_, [this](EntityId e) { declare_entity(e); }};
    records_->write_all(out_, ctx);
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
  Turtle t(out_);
  t.iri(id.user_iri).name("rdf:type").name("prov:Agent").end();
  t.iri(id.user_iri).name("rdf:type").name("provio:User").end();
  t.iri(id.user_iri).name("provio:userName").str(id.user).end();
  t.iri(id.user_iri).name("provio:uid").u64(id.uid).end();

  const std::string& x = id.exec_iri;
  t.iri(x).name("rdf:type").name("prov:Agent").end();
  t.iri(x).name("rdf:type").name("provio:Program").end();
  t.iri(x).name("prov:actedOnBehalfOf").iri(id.user_iri).end();
  t.iri(x).name("provio:executable").str(id.executable).end();
  t.iri(x).name("provio:commandLine").str(id.command_line).end();
  t.iri(x).name("provio:pid").u64(static_cast<std::uint64_t>(id.pid)).end();
  t.iri(x).name("provio:host").str(id.host).end();
  t.iri(x).name("provio:startTime").time(id.start_ns).end();
  if (!id.parent_exec_iri.empty()) t.iri(x).name("provio:parentRun").iri(id.parent_exec_iri).end();
  if (!id.workflow.empty()) t.iri(x).name("provio:workflow").str(id.workflow).end();
  if (!id.campaign.empty()) t.iri(x).name("provio:campaign").str(id.campaign).end();
  if (!id.job_iri.empty()) {
    t.iri(x).name("provio:job").iri(id.job_iri).end();
    t.iri(id.job_iri).name("rdf:type").name("provio:Job").end();
    t.iri(id.job_iri).name("provio:jobId").str(id.job_id).end();
  }
  if (id.rank >= 0) {
    std::string rank_iri = id.rank_iri.empty() ? x + "/rank/" + std::to_string(id.rank) : id.rank_iri;
    t.iri(x).name("provio:rank").iri(rank_iri).end();
    t.iri(rank_iri).name("rdf:type").name("prov:Agent").end();
    t.iri(rank_iri).name("rdf:type").name("provio:Rank").end();
    t.iri(rank_iri).name("provio:rankNumber").u64(static_cast<std::uint64_t>(id.rank)).end();
    t.iri(rank_iri).name("prov:actedOnBehalfOf").iri(id.user_iri).end();
  }

  thread_iri_ = x + "/thread/" + std::to_string(thread_index_);
  thread_term_.clear();
  model::append_iri_term(thread_term_, thread_iri_);
  t.iri(thread_iri_).name("rdf:type").name("prov:Agent").end();
  t.iri(thread_iri_).name("rdf:type").name("provio:Thread").end();
  t.iri(thread_iri_).name("prov:actedOnBehalfOf").iri(x).end();
  t.iri(thread_iri_).name("provio:threadIndex").u64(thread_index_).end();
  t.iri(thread_iri_).name("provio:tid").u64(static_cast<std::uint64_t>(tid_)).end();
}

void ThreadLog::declare_entity(EntityId id) {
  if (id >= declared_.size()) declared_.resize(std::max<std::size_t>(id + 1, declared_.size() * 2));
  if (declared_[id]) return;
  declared_[id] = true;
  const model::Entity* e = model::entity(id);
  if (!e) return;
  if (e->parent != model::kNoEntity) declare_entity(e->parent);
  const model::Entity* parent = model::entity(e->parent);
  Turtle t(out_);
  t.iri(e->iri).name("rdf:type").name("prov:Entity").end();
  switch (e->cls) {
    case EntityClass::kFile:
    case EntityClass::kDirectory: t.iri(e->iri).name("provio:path").str(e->label).end(); break;
    case EntityClass::kAttribute:
      t.iri(e->iri).name("provio:name").str(e->label).end();
      if (parent) t.iri(e->iri).name("provio:attributeOf").iri(parent->iri).end();
      break;
    case EntityClass::kRecord: t.iri(e->iri).name("rdfs:label").str(e->label).end(); break;
    default:
      t.iri(e->iri).name("provio:objectPath").str(e->label).end();
      if (parent) t.iri(e->iri).name("provio:inFile").iri(parent->iri).end();
  }
  if (e->cls == EntityClass::kRecord) {
    if (!e->type.empty()) {
      if (e->type.front() == '<')
        t.iri(e->iri).name("rdf:type").iri(e->type.substr(1, e->type.size() - 2)).end();
      else
        t.iri(e->iri).name("rdf:type").name(e->type).end();
    }
  } else {
    t.iri(e->iri).name("rdf:type").name(model::class_term(e->cls)).end();
  }
}

// `<thread IRI/api/Op/e<n>[-<m>][/f<flags>]>`: made of already-encoded pieces, so it is built as a
// term directly (no escaping scan).
void ThreadLog::activity_term_for(const SummarySlot& s, std::string& term) const {
  term.assign(thread_term_, 0, thread_term_.size() - 1);
  term += '/';
  model::append_percent_encoded(term, model::api_name(s.api), false);
  term += '/';
  term += model::op_name(s.op);
  term += "/e";
  append_decimal(term, s.entity);
  if (s.other != model::kNoEntity) {
    term += '-';
    append_decimal(term, s.other);
  }
  if (s.flags) {
    term += "/f";
    append_decimal(term, s.flags);
  }
  term += '>';
}

void ThreadLog::describe_activity(std::string_view act, Op op, model::ApiId api, std::uint8_t flags,
                                  EntityId entity, EntityId other) {
  declare_entity(entity);
  if (other != model::kNoEntity) declare_entity(other);
  const model::Entity* e = model::entity(entity);
  const model::Entity* o = model::entity(other);
  model::OpTerms terms = model::terms(op);
  Turtle t(out_);
  t.name(act).name("rdf:type").name("prov:Activity").end();
  t.name(act).name("rdf:type").name(terms.activity_class).end();
  t.name(act).name("provio:api").str(model::api_name(api)).end();
  t.name(act).name("prov:wasAssociatedWith").name(thread_term_).end();
  if (!e) return;
  if (terms.generates) {
    t.name(e->term).name("prov:wasGeneratedBy").name(act).end();
    t.name(e->term).name("prov:wasAttributedTo").iri(model::identity().exec_iri).end();
  } else {
    t.name(act).name("prov:used").name(e->term).end();
  }
  t.name(e->term).name(terms.relation).name(act).end();
  if (o) {
    // rename, copy, link: the new name is derived from the old and inherits its history
    t.name(o->term).name("prov:wasDerivedFrom").name(e->term).end();
    t.name(o->term).name("prov:wasGeneratedBy").name(act).end();
  }
  if (flags & model::kFlagCollective) t.name(act).name("provio:transfer").str("collective").end();
  if (flags & model::kFlagIndependent) t.name(act).name("provio:transfer").str("independent").end();
  if (flags & model::kFlagNested) t.name(act).name("provio:nested").boolean(true).end();
}

void ThreadLog::write_summaries() {
  std::string act, part;
  for (std::size_t i = 0; i <= slot_mask_ && slots_used_ > 0; ++i) {
    SummarySlot& s = slots_[i];
    if (!s.used) continue;
    activity_term_for(s, act);
    describe_activity(act, s.op, s.api, s.flags, s.entity, s.other);
    // Measures go on a part node named by this flush: merging several flushes or threads keeps
    // every part (identical measures would otherwise collapse into one triple) and folds them.
    part.assign(act, 0, act.size() - 1);
    part += "/p";
    append_decimal(part, flush_seq_);
    part += '>';
    Turtle t(out_);
    t.name(act).name("provio:partial").name(part).end();
    t.name(part).name("provio:count").u64(s.count).end();
    t.name(part).name("provio:bytes").u64(s.bytes).end();
    t.name(part).name("provio:elapsed").seconds(s.elapsed_ns).end();
    t.name(part).name("prov:startedAtTime").time(s.first_start_ns).end();
    t.name(part).name("prov:endedAtTime").time(s.last_end_ns).end();
    s.used = false;
    --slots_used_;
    if (out_.size() >= kWriteChunk) {
      file_.write(out_);
      out_.clear();
    }
  }
}

void ThreadLog::write_traces() {
  std::string act;
  for (std::size_t i = 0; i < events_used_; ++i) {
    const model::Event& ev = events_[i];
    act.assign(thread_term_, 0, thread_term_.size() - 1);
    act += "/c";
    append_decimal(act, ++call_seq_);
    act += '>';
    describe_activity(act, ev.op, ev.api, ev.flags, ev.entity, ev.other);
    Turtle t(out_);
    t.name(act).name("provio:count").u64(1).end();
    t.name(act).name("provio:bytes").u64(ev.bytes).end();
    t.name(act).name("provio:elapsed").seconds(ev.elapsed_ns).end();
    if (ev.offset != model::kNoOffset) t.name(act).name("provio:offset").i64(ev.offset).end();
    t.name(act).name("prov:startedAtTime").time(ev.start_ns).end();
    t.name(act).name("prov:endedAtTime").time(ev.start_ns + ev.elapsed_ns).end();
    if (out_.size() >= kWriteChunk) {
      file_.write(out_);
      out_.clear();
    }
  }
  events_used_ = 0;
}

}  // namespace provio::store
