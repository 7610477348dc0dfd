// A thread's raw file and what a flush writes into it (see raw_writer.h).
#include "store/raw_writer.h"

#include <algorithm>
#include <array>
#include <charconv>
#include <cstring>
#include <iterator>

#include "model/api_names.h"
#include "model/clock.h"
#include "model/config.h"
#include "model/entities.h"
#include "model/identity.h"
#include "model/iri.h"
#include "model/raw_terms.h"
#include "store/decimal.h"
#include "store/incomplete.h"
#include "store/turtle.h"

namespace provio::store {
namespace {

using model::EntityClass;
using model::EntityId;
using model::Op;
namespace raw = model::raw;

void append_decimal(std::string& out, std::uint64_t n) {
  char buf[24];
  auto r = std::to_chars(buf, buf + sizeof buf, n);
  out.append(buf, static_cast<std::size_t>(r.ptr - buf));
}

// `s` at `p`; returns the end. Of a constant, inline: a few stores.
inline char* put_text(char* p, std::string_view s) {
  std::memcpy(p, s.data(), s.size());
  return p + s.size();
}

// " ; <predicate> " made at compile time from a raw term, so that the measures copy each as one
// constant (two stores, as a literal would), not three pieces.
template <const std::string_view& kPredicate>
struct NextPredicate {
  static constexpr std::size_t kSize = kPredicate.size() + 4;
  static constexpr std::array<char, kSize> make() {
    std::array<char, kSize> text{};
    text[0] = ' ', text[1] = ';', text[2] = ' ', text[kSize - 1] = ' ';
    for (std::size_t i = 0; i < kPredicate.size(); ++i) text[3 + i] = kPredicate[i];
    return text;
  }
  static constexpr std::array<char, kSize> kText = make();
};

// " ; <predicate> " at `p`: the next pair of a block (its object follows).
template <const std::string_view& kPredicate>
[[gnu::always_inline]] inline char* put_next_predicate(char* p) {
  using Text = NextPredicate<kPredicate>;
  return put_text(p, std::string_view(Text::kText.data(), Text::kSize));
}

// The measures of a summary part or trace call, continuing a block (or starting its predicates).
// Times are µs after the program's start and µs from start to end: prov-merge turns them into
// prov:startedAtTime / prov:endedAtTime, exactly the µs those would have carried.
using MeasureText = char[224];

// A :start's value at `p` (StartBase's rule, raw_writer.h); returns the end. Room: 40 bytes.
[[gnu::always_inline]] inline char* put_start(char* p, std::int64_t start_us, RawWriter::StartBase& base) {
  std::int64_t start = start_us - base.run_start_us;
  if (base.have) {
    std::int64_t delta = start - base.last;
    *p++ = delta < 0 ? '-' : '+';
    p = put_decimal(p, delta < 0 ? 0 - static_cast<std::uint64_t>(delta) : static_cast<std::uint64_t>(delta));
  } else if (start >= 0) {
    p = put_decimal(p, static_cast<std::uint64_t>(start));
    base.have = base.deltas;
  } else {
    // A start before the program's (a clock stepped back): not a base, and a bare "-N" would
    // read as a delta. The next :start is absolute again.
    p = put_decimal(put_text(p, "\"-"), 0 - static_cast<std::uint64_t>(start));
    return put_text(p, "\"^^xsd:integer");
  }
  base.last = start;
  return p;
}

// " [; :bytes N] ; :elapsed S ; :start N ; :span N" at `p`: the measures after the count, bytes of
// 0 left out (prov-merge adds them, docs/format.md). Inline in both writers: a call with its six
// arguments cost the trace writer 12 instructions per call. (Leaving out a single call's span when
// it is its elapsed time in whole µs saved 4 % of plain bytes but cost 6 % of compressed ones at
// summary level, 10 % at trace level: present half the time, it broke the lines' repeated ends.
// With signed starts, leaving it out when it is the elapsed time rounded to the µs, 3 times in 4,
// still cost 3 % at summary level and 12 % at trace level, bench/vol/bytes.)
[[gnu::always_inline]] inline char* put_measures_after_count(char* p, std::uint64_t bytes,
                                                             std::uint64_t elapsed_ns, std::uint64_t start_ns,
                                                             std::uint64_t end_ns,
                                                             RawWriter::StartBase& base) {
  std::int64_t start_us = static_cast<std::int64_t>(start_ns / 1000);
  if (bytes) p = put_decimal(put_next_predicate<raw::kBytes>(p), bytes);
  p = put_decimal(put_next_predicate<raw::kElapsed>(p), elapsed_ns / 1000000000u);
  *p++ = '.';
  p = put_nine_digits(p, static_cast<std::uint32_t>(elapsed_ns % 1000000000u));
  p = put_start(put_next_predicate<raw::kStart>(p), start_us, base);
  return put_decimal(put_next_predicate<raw::kSpan>(p), static_cast<std::int64_t>(end_ns / 1000) - start_us);
}

// "[:offset N ; ]:count " at `p`.
inline char* put_offset_and_count_name(char* p, std::int64_t offset) {
  if (offset != model::kNoOffset) {
    p = put_decimal(put_text(put_text(p, raw::kOffset), " "), offset);
    p = put_text(p, " ; ");
  }
  return put_text(put_text(p, raw::kCount), " ");
}

// "[:offset N ; ]:count N [; :bytes N] ; :elapsed S ; :start N ; :span N" written at `p`, which has
// room for sizeof(MeasureText) bytes; returns the end. Built in stack memory and appended once.
char* put_measures(char* p, std::uint64_t count, std::uint64_t bytes, std::uint64_t elapsed_ns,
                   std::uint64_t start_ns, std::uint64_t end_ns, RawWriter::StartBase& base,
                   std::int64_t offset = model::kNoOffset) {
  p = put_decimal(put_offset_and_count_name(p, offset), count);
  return put_measures_after_count(p, bytes, elapsed_ns, start_ns, end_ns, base);
}

// A traced call's measures (put_measures with a count of 1), inline in the trace writer's loop.
inline char* put_call_measures(char* p, const model::Event& ev, RawWriter::StartBase& base) {
  p = put_offset_and_count_name(p, ev.offset);
  *p++ = '1';
  return put_measures_after_count(p, ev.bytes, ev.elapsed_ns, ev.start_ns, ev.start_ns + ev.elapsed_ns, base);
}

std::string_view format_measures(MeasureText& buf, std::uint64_t count, std::uint64_t bytes,
                                 std::uint64_t elapsed_ns, std::uint64_t start_ns, std::uint64_t end_ns,
                                 RawWriter::StartBase& base, std::int64_t offset = model::kNoOffset) {
  char* end = put_measures(buf, count, bytes, elapsed_ns, start_ns, end_ns, base, offset);
  return std::string_view(buf, static_cast<std::size_t>(end - buf));
}

// " ; :size_read_<bucket> N" (":size_write_…") per non-zero bucket of a read (write) slot at `p`,
// which has room for kSizesRoom bytes; returns the end. Nothing when a bucket's 32-bit counter
// wrapped in this part (the buckets then do not add up to the count): sizes unknown, never wrong.
constexpr std::size_t kSizesRoom = model::kSizeBuckets * (3 + 20 + 1 + 10);
char* put_sizes(char* p, const SummarySlot& s) {
  if (!keeps_sizes(s.op)) return p;
  const auto sizes = sizes_of(s);
  std::uint64_t total = 0;
  for (std::uint64_t n : sizes) total += n;
  if (total != s.count) return p;
  const auto& terms = s.op == Op::kRead ? raw::kSizeRead : raw::kSizeWrite;
  for (std::size_t b = 0; b < model::kSizeBuckets; ++b) {
    if (sizes[b] == 0) continue;
    p = put_text(put_text(p, " ; "), terms[b]);
    *p++ = ' ';
    p = put_decimal(p, sizes[b]);
  }
  return p;
}

// A summary slot's measures (format_measures) and access sizes (put_sizes).
using SlotMeasureText = char[sizeof(MeasureText) + kSizesRoom];
std::string_view format_slot_measures(SlotMeasureText& buf, const SummarySlot& s,
                                      RawWriter::StartBase& base) {
  char* end = put_measures(buf, s.count, s.bytes, s.elapsed_ns, s.first_start_ns, s.last_end_ns, base);
  end = put_sizes(end, s);
  return std::string_view(buf, static_cast<std::size_t>(end - buf));
}

// The end of a summary activity's term after activity_term_prefix():
// `<entity>[-<other>][-f<flags>][-t<task>]`,
// written at `p` (room: kActivityNumbers); returns the end. One place for both ways the term is
// written (activity_term_for, write_from_summary_head).
constexpr std::size_t kActivityNumbers = 3 * 24;
char* put_activity_numbers(char* p, const SummarySlot& s) {
  p = put_decimal(p, std::uint64_t{s.entity});
  if (s.other != model::kNoEntity) {
    *p++ = '-';
    p = put_decimal(p, std::uint64_t{s.other});
  }
  if (s.flags) {
    p = put_text(p, "-f");
    p = put_decimal(p, std::uint64_t{s.flags});
  }
  if (s.task) {
    p = put_text(p, "-t");
    p = put_decimal(p, s.task);
  }
  return p;
}

// Text that a Turtle string carries as it is (printable ASCII but '"' and '\\'): the names of
// nearly all HDF5 objects and attributes.
bool plain_text(std::string_view text) {
  for (char c : text) {
    if (c < 0x20 || c >= 0x7F || c == '"' || c == '\\') return false;
  }
  return true;
}

// declare_entity's common case, an HDF5 object or attribute with a plain-text name in a file:
// its pairs after the subject ("a <class> ; <name predicate> "<name>" ; <parent predicate>
// <parent>"), the block declare_entity's switch writes, in `buf`, to be appended once through
// Turtle::more (a string append per term cost more than the rest of the declaration). Empty
// when it is not that case or does not fit.
template <std::size_t N>
std::string_view object_pairs(char (&buf)[N], const model::Entity& e, std::string_view parent) {
  bool attribute = e.cls == EntityClass::kAttribute;
  bool object = e.cls != EntityClass::kFile && e.cls != EntityClass::kDirectory &&
                e.cls != EntityClass::kVersion && e.cls != EntityClass::kRecord;
  if (!object || parent.empty() || !plain_text(e.label)) return {};
  std::string_view cls = attribute ? raw::kAttribute : raw::short_term(model::class_term(e.cls));
  std::string_view name = attribute ? raw::kName : raw::kObjectPath;
  std::string_view of = attribute ? raw::kAttributeOf : raw::kInFile;
  constexpr std::size_t kFixed = 16;  // "a ", the separators, the quotes
  if (cls.size() + name.size() + e.label.size() + of.size() + parent.size() + kFixed > N) return {};
  char* p = put_text(put_text(buf, "a "), cls);
  p = put_text(put_text(put_text(put_text(p, " ; "), name), " \""), e.label);
  p = put_text(put_text(put_text(put_text(p, "\" ; "), of), " "), parent);
  return std::string_view(buf, static_cast<std::size_t>(p - buf));
}

}  // namespace

RawWriter::RawWriter(bool trace, unsigned thread_index, pid_t tid) : thread_index_(thread_index), tid_(tid) {
  if (trace) trace_heads_.reset(new TraceHead[kTraceHeads]);
}

bool RawWriter::prepare() {
  if (!file_.is_open()) {
    if (file_.failed()) return false;
    const model::Identity& id = model::identity();
    file_.open(model::output_dir(),
               id.host + "-" + std::to_string(id.pid) + "-t" + std::to_string(thread_index_));
    start_base_.deltas = model::config().compression == model::Compression::kZstd;
  }
  clear_text();
  if (!header_written_) write_header();
  return true;
}

RecordContext RawWriter::record_context() {
  return RecordContext{model::identity().exec_iri, thread_iri_, [this](EntityId e) { declare_entity(e); }};
}

void RawWriter::write_losses() {
  append_losses(out_, model::identity().exec_iri, thread_iri_ + "/incomplete/" + std::to_string(flush_seq_));
}

void RawWriter::write_end_time() {
  Turtle(out_).iri(model::identity().exec_iri).name("provio:endTime").time(model::clock::wall_ns()).end();
}

void RawWriter::write_out(std::uint64_t events) {
  file_.write(out_, events);
  clear_text();
  if (out_.capacity() > 4 * kWriteChunk) out_.shrink_to_fit();  // one huge statement: give it back
}

void RawWriter::write_header() {
  header_written_ = true;
  const model::Identity& id = model::identity();
  out_ += model::kTurtlePrefixes;
  // The compact names of the blocks below: ":" for provio (the most frequent namespace), t: for
  // the threads of this program execution (this thread is t:<index>).
  out_ += model::raw::kShortPrefix;
  out_ += "@prefix t: ";
  model::append_iri_term(out_, id.exec_iri + "/thread/");
  out_ += " .\n";
  thread_iri_ = id.exec_iri + "/thread/" + std::to_string(thread_index_);
  start_base_.run_start_us = static_cast<std::int64_t>(id.start_ns / 1000);
  thread_term_ = "t:" + std::to_string(thread_index_);
  trace_subject_.start(thread_term_);

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

void RawWriter::declare_entity(EntityId id) {
  if (id >= declared_.size()) declared_.resize(std::max<std::size_t>(id + 1, declared_.size() * 2));
  if (declared_[id]) return;
  declared_[id] = true;
  const model::Entity* e = model::entity(id);
  if (!e) return;
  if (e->parent != model::kNoEntity) declare_entity(e->parent);
  // Terms first: naming may declare a prefix, which must come before the block. Naming `id` may
  // move other terms; the parent is named already (declared above), so looking it up and then
  // `id` again names nothing more, and both references stay valid for the block.
  names_.term(id, out_);
  const std::string& parent = e->parent != model::kNoEntity ? names_.term(e->parent, out_) : no_term_;
  const std::string& self = names_.term(id, out_);
  Turtle t(out_);
  t.name(self);
  char pairs[1024];
  if (std::string_view fast = object_pairs(pairs, *e, parent); !fast.empty()) {
    t.more(fast);
    if (numbered(id)) t.more(entity_number(id));
    t.end();
    return;
  }
  t.name("a");
  switch (e->cls) {
    case EntityClass::kFile:
    case EntityClass::kDirectory:
      t.name(raw::short_term(model::class_term(e->cls))).pred(raw::kPath).str(e->label);
      break;
    case EntityClass::kVersion: t.name(raw::kVersion).pred("prov:specializationOf").name(parent); break;
    case EntityClass::kAttribute:
      t.name(raw::kAttribute).pred(raw::kName).str(e->label);
      if (!parent.empty()) t.pred(raw::kAttributeOf).name(parent);
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
      t.name(raw::short_term(model::class_term(e->cls))).pred(raw::kObjectPath).str(e->label);
      if (!parent.empty()) t.pred(raw::kInFile).name(parent);
  }
  if (numbered(id)) t.more(entity_number(id));
  t.end();
}

bool RawWriter::numbered(EntityId id) const {
  const model::Entity* e = model::entity(id);
  return !trace_heads_ && e && e->cls != EntityClass::kVersion && e->cls != EntityClass::kRecord;
}

std::string_view RawWriter::entity_number(EntityId id) {
  // ":n t:<thread>\/e<id>"
  char* p = put_text(number_text_, raw::kNumber);
  p = put_text(put_text(p, " "), thread_term_);
  p = put_decimal(put_text(p, "\\/e"), std::uint64_t{id});
  return std::string_view(number_text_, static_cast<std::size_t>(p - number_text_));
}

// `a<n>:<entity>[-<other>][-f<flags>]`, the IRI <thread IRI>/<api>-<Op>-e<entity>…, with a prefix
// per API and operation in the file.
void RawWriter::activity_term_prefix(model::ApiId api, Op op, std::string& term) {
  std::uint32_t key = std::uint32_t{api} << 8 | static_cast<std::uint32_t>(op);
  auto [it, added] = activity_prefixes_.try_emplace(key);
  if (added) {
    // `@prefix a<n>: <thread IRI/<api>-<Op>-e> .`, before the first block that uses it.
    it->second = "a" + std::to_string(activity_prefixes_.size()) + ":";
    std::string iri = thread_iri_ + "/";
    model::append_percent_encoded(iri, model::api_name(api), false);
    iri += '-';
    iri += model::op_name(op);
    iri += "-e";
    out_ += "@prefix ";
    out_ += it->second;
    out_ += ' ';
    model::append_iri_term(out_, iri);
    out_ += " .\n";
  }
  term.assign(it->second);
}

void RawWriter::activity_term_for(const SummarySlot& s, std::string& term) {
  activity_term_prefix(s.api, s.op, term);
  char numbers[kActivityNumbers];
  term.append(numbers, static_cast<std::size_t>(put_activity_numbers(numbers, s) - numbers));
}

Turtle RawWriter::describe_activity(std::string_view act, bool summary, Op op, model::ApiId api,
                                    std::uint8_t flags, EntityId entity, EntityId other) {
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
  // prov-merge adds them (docs/format.md). A summary activity's IRI names its class, API, thread
  // and entity (by the number the entity's block gives it in this file), so prov-merge adds those
  // too.
  block_start_ = out_.size();
  Turtle t(out_);
  t.name(act);
  entity_numbered_ = summary && !e.empty() && numbered(entity);
  bool related = !e.empty() && !entity_numbered_, versioned = version && !o.empty();
  if (!summary) {
    t.name("a").name(raw::short_term(terms.activity_class));
    t.pred(raw::kApi).str(model::api_name(api));
    t.pred("prov:wasAssociatedWith").name(thread_term_);
  }
  entity_at_ = 0;
  if (related) {
    t.pred(terms.generates ? "prov:generated" : "prov:used");
    entity_at_ = out_.size() + 1;  // after the separator name() writes
    t.name(e);
  }
  // A version: what a close (or the exit of a writer) left, what an open or first read found.
  if (versioned) {
    bool generated = model::generates_version(op);
    if (generated == terms.generates && related)
      t.also().name(o);
    else
      t.pred(generated ? "prov:generated" : "prov:used").name(o);
  }
  if (flags & model::kFlagCollective) t.pred(raw::kTransfer).str("collective");
  if (flags & model::kFlagIndependent) t.pred(raw::kTransfer).str("independent");
  if (flags & model::kFlagNested) t.pred(raw::kNested).name("true");
  if (flags & model::kFlagCoarse) t.pred(raw::kCoarse).name("true");
  return t;
}

void RawWriter::write_chunk_if_full() {
  if (out_.size() >= kWriteChunk) {
    file_.write(out_);
    clear_text();
  }
}

RawWriter::SummaryHead& RawWriter::summary_head(const SummarySlot& s) {
  return summary_heads_[(std::size_t{s.api} * 31u + static_cast<std::size_t>(s.op) * 7u + s.flags) %
                        kSummaryHeads];
}

bool RawWriter::write_from_summary_head(const SummarySlot& s) {
  const SummaryHead& head = summary_head(s);
  if (!head.valid || head.api != s.api || head.op != s.op || head.flags != s.flags ||
      head.numbered != numbered(s.entity))
    return false;
  declare_entity(s.entity);  // as describe_activity does, before the block
  const std::string& e = names_.term(s.entity, out_);
  if (e.empty()) return false;
  // Subject, head, entity term and measures go into one stack buffer and are appended once: a
  // string append per piece cost more than the rest of the block (a block too long for the
  // buffer is described again instead).
  char line[1024];
  constexpr std::size_t kNumbers = kActivityNumbers + sizeof(SlotMeasureText) + 8;
  if (head.subject.size() + head.before.size() + e.size() + head.after.size() + kNumbers > sizeof line)
    return false;
  char* after_numbers = put_activity_numbers(put_text(line, head.subject), s);
  char* p = put_text(after_numbers, head.before);
  if (!head.numbered) p = put_text(p, e);
  p = put_text(p, head.after);
  p = put_text(p, p == after_numbers ? " " : " ; ");
  p = put_measures(p, s.count, s.bytes, s.elapsed_ns, s.first_start_ns, s.last_end_ns, start_base_);
  p = put_sizes(p, s);
  p = put_text(p, " .\n");
  out_.append(line, static_cast<std::size_t>(p - line));
  return true;
}

// A new activity's block written from scratch; one with no other object leaves its summary head
// for the next of its API, operation and flags.
void RawWriter::describe_summary(const SummarySlot& s, std::string_view act, bool inline_measures) {
  bool headed = inline_measures && s.other == model::kNoEntity;
  Turtle t = describe_activity(act, true, s.op, s.api, s.flags, s.entity, s.other);
  // The head around the entity term, as written (before the measures end the block).
  std::size_t at = entity_at_, e_size = term_copies_[0].size();
  if (at && out_.compare(at, e_size, term_copies_[0]) != 0) at = 0;
  if (entity_numbered_) at = out_.size(), e_size = 0;  // no entity term: the head is all of it
  std::string after = headed && at ? out_.substr(at + e_size) : std::string();
  SlotMeasureText buf;
  if (inline_measures)
    t.more(format_slot_measures(buf, s, start_base_));
  else if (out_.size() == block_start_ + act.size())  // its measures in a part: a block needs a pair
    t.name("a").name(raw::short_term(model::terms(s.op).activity_class));
  if (kept(t.end()) && headed && at && (entity_numbered_ || at > block_start_ + act.size())) {
    SummaryHead& head = summary_head(s);
    head.api = s.api;
    head.op = s.op;
    head.flags = s.flags;
    head.numbered = entity_numbered_;
    activity_term_prefix(s.api, s.op, head.subject);
    head.before.assign(out_, block_start_ + act.size(), at - block_start_ - act.size());
    head.after = std::move(after);
    head.valid = true;
  }
}

void RawWriter::write_summaries(SummaryTable& table, bool restarted) {
  std::string act, part;
  for (std::size_t k = 0; k < table.changed_count(); ++k) {
    SummarySlot& s = *table.changed()[k];
    bool inline_measures = !s.described && !restarted;
    bool headed = inline_measures && s.other == model::kNoEntity;
    if (!(headed && write_from_summary_head(s))) {
      activity_term_for(s, act);
      if (!s.described) describe_summary(s, act, inline_measures);
      if (!inline_measures) {
        // Later flushes: a part named by this flush number with what happened since the last
        // one; prov-merge sums the parts into the activity (docs/format.md).
        part.assign(act);
        part += "\\/p";
        append_decimal(part, flush_seq_);
        Turtle(out_).name(act).name(raw::kPartial).name(part).end();
        SlotMeasureText buf;
        kept(Turtle(out_).name(part).more(format_slot_measures(buf, s, start_base_)).end());
      }
    }
    s.described = true;
    s.count = s.bytes = s.elapsed_ns = 0;
    if (keeps_sizes(s.op)) std::fill(std::begin(s.sizes), std::end(s.sizes), 0);
    write_chunk_if_full();
  }
  table.reset_changed();
}

void RawWriter::write_traces(const model::Event* events, std::size_t n) {
  std::string act;
  MeasureText buf;
  // Repeated calls' statements, appended to out_ a window at a time: an append per call cost
  // more than the formatting. (Under glibc's threshold for `rep movsb`, whose every byte
  // valgrind counts as an instruction.)
  char window[2048];
  char* p = window;
  auto append_window = [&] {
    out_.append(window, static_cast<std::size_t>(p - window));
    p = window;
    write_chunk_if_full();
  };
  for (std::size_t i = 0; i < n; ++i) {
    const model::Event& ev = events[i];
    std::string_view subject = trace_subject_.next();
    TraceHead::Key key{ev.entity, ev.other, ev.api, ev.op, ev.flags};
    TraceHead& head = trace_heads_[(std::size_t{ev.entity} * 31u + ev.api) % kTraceHeads];
    // The same call on the same object as before: its entity is declared, its block head known.
    // (A head too long for the window is described again instead.)
    std::size_t need = TraceSubject::kRoom + head.text.size() + sizeof(MeasureText) + 8;
    if (head.valid && head.key == key && need <= sizeof window) {
      if (static_cast<std::size_t>(window + sizeof window - p) < need) append_window();
      p = trace_subject_.put(p);
      p = put_text(p, head.text);
      p = put_text(p, " ; ");
      p = put_call_measures(p, ev, start_base_);
      p = put_text(p, " .\n");
      continue;
    }
    append_window();
    act.assign(subject);
    std::string_view m = format_measures(buf, 1, ev.bytes, ev.elapsed_ns, ev.start_ns,
                                         ev.start_ns + ev.elapsed_ns, start_base_, ev.offset);
    Turtle t = describe_activity(act, false, ev.op, ev.api, ev.flags, ev.entity, ev.other);
    const model::Entity* other = model::entity(ev.other);
    if (ev.other == model::kNoEntity || (other && other->cls == EntityClass::kVersion)) {
      head.key = key;
      head.text.assign(out_, block_start_ + act.size(), std::string::npos);
      head.valid = true;
    }
    kept(t.more(m).end());
    write_chunk_if_full();
  }
  append_window();
}

}  // namespace provio::store
