// One thread's raw file and the Turtle a flush writes into it: the header, entity declarations,
// summary activities and traced calls, in the compact form docs/format.md describes. Its owner
// (thread_log.h) decides when to flush and guards it with its claim; this class only formats and
// writes, at flush time, never on the recording path.
//
// Hard rule: every statement is a Turtle block (store/turtle.h), written whole or rolled back,
// and a flush appends complete blocks only, so a crashed process's file parses up to its last
// flush. The formatting memos (summary heads, trace heads) hold text that describe_activity()
// wrote before: a block copied from one is the block it would write again.
#pragma once

#include <sys/types.h>

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "model/event.h"
#include "store/file_names.h"
#include "store/output_file.h"
#include "store/record_buffer.h"
#include "store/summary_table.h"
#include "store/trace_subject.h"
#include "store/turtle.h"

namespace provio::model {
struct Entity;
}

namespace provio::store {

class RawWriter {
 public:
  // The formatting buffer is written out whenever it reaches this size.
  static constexpr std::size_t kWriteChunk = 64 << 10;

  // The :start values of a compressed file (docs/format.md, "Signed starts"): the first of each
  // write absolute (unsigned), each later one a signed delta from the one before ("+14", "-3").
  // A write never spans two zstd frames and a frame holds whole writes (output_file.h), so every
  // frame's first :start is absolute and each frame resolves alone. Plain files: all absolute.
  // A negative value is written "-N"^^xsd:integer in both: a bare signed one is a difference.
  // The writer's measures formatting keeps it; a write, a discard or a rolled-back block clears
  // `have` (the text after it must not count from a value that is not there).
  struct StartBase {
    std::int64_t run_start_us = 0;  // the program's start: raw times are µs after it
    bool deltas = false;            // compressed file
    bool have = false;              // a :start written since the last write
    std::int64_t last = 0;          // its value
  };

  // `trace`: the writer of a trace log (it keeps trace heads); `thread_index`: the file's thread.
  RawWriter(bool trace, unsigned thread_index, pid_t tid);
  RawWriter(const RawWriter&) = delete;
  RawWriter& operator=(const RawWriter&) = delete;

  // Opens the file and starts the text of a write (with the header if not written yet); false if
  // the file has failed.
  bool prepare();
  // Starts a flush: its number names the summary parts and incomplete nodes it writes.
  void start_flush() { ++flush_seq_; }
  // The table's changed slots (new activities whole, described ones as a part of this flush);
  // resets them. `restarted`: the table was started afresh, measures go on parts only.
  void write_summaries(SummaryTable& table, bool restarted);
  void write_traces(const model::Event* events, std::size_t n);
  // Workflow records format themselves into out() through this context.
  RecordContext record_context();
  std::string& out() { return out_; }
  // The losses counted since the last flush (store/incomplete.h), and the program's end time.
  void write_losses();
  void write_end_time();
  // Writes the text (the end of a flush of `events` events) to the file and empties it; the file
  // counts the events lost if their text does not reach it (output_file.h).
  void write_out(std::uint64_t events);
  // Empties the text without writing it.
  void discard() { clear_text(); }

  bool failed() const { return file_.failed(); }
  Loss failure() const { return file_.failure(); }
  const std::string& path() const { return file_.path(); }
  // Fork child: drop the descriptor; the parent still owns the file.
  void abandon() { file_.abandon(); }

 private:
  // Summary: the text of a new activity's block around its entity term (after the subject, up to
  // the measures), by (API, operation, flags), for activities with no other object. Every
  // activity of a summary is new in its file, and most share these with an earlier one: then its
  // block is subject, head, entity term, head, measures (the text describe_activity would write).
  // Direct-mapped; the text names no entity, so it holds for the writer's life.
  struct SummaryHead {
    model::ApiId api = 0;
    model::Op op{};
    std::uint8_t flags = 0;
    bool valid = false;
    bool numbered = false;  // the entity is named by its number, its term not in the block
    std::string subject;    // the activity's prefix, "a<n>:" (activity_term_prefix)
    std::string before;     // from after the subject to the entity term
    std::string after;      // from after the entity term to the end of describe_activity's text
  };
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
  static constexpr std::size_t kSummaryHeads = 64;
  static constexpr std::size_t kTraceHeads = 64;

  void write_header();
  void declare_entity(model::EntityId id);
  // `a<n>:`, the prefix of `<thread IRI>/<api>-<Op>-e`: an activity's term up to its entity's
  // number. The file's first use of an API and operation declares it in out().
  void activity_term_prefix(model::ApiId api, model::Op op, std::string& term);
  void activity_term_for(const SummarySlot& s, std::string& term);
  // Starts the activity's block: class, API, thread (a trace call's; a `summary` activity's IRI
  // names them), entity relation, flags (and writes the other entity's derivation before it). The
  // caller adds measures and ends the block.
  Turtle describe_activity(std::string_view act, bool summary, model::Op op, model::ApiId api,
                           std::uint8_t flags, model::EntityId entity, model::EntityId other);
  // Whether an entity's block carries its number (:n, a summary file's entities but versions
  // and records), so that the blocks of activities on it leave it to their IRI.
  bool numbered(model::EntityId id) const;
  // " ; :n t:<thread>\/e<id>"'s pairs, in number_text_.
  std::string_view entity_number(model::EntityId id);
  SummaryHead& summary_head(const SummarySlot& s);
  // Writes a new activity's whole block, subject included, from its summary head; false when
  // there is none yet.
  bool write_from_summary_head(const SummarySlot& s);
  void describe_summary(const SummarySlot& s, std::string_view act, bool inline_measures);
  void write_chunk_if_full();
  // Empties the text: the next :start has nothing to count from (StartBase).
  void clear_text() {
    out_.clear();
    start_base_.have = false;
  }
  // A block ended (Turtle::end()'s result): a rolled-back one may have taken a :start with it.
  bool kept(bool ended) {
    if (!ended) start_base_.have = false;
    return ended;
  }

  unsigned thread_index_;
  pid_t tid_;
  std::string thread_iri_;
  std::string thread_term_;  // thread_iri_ as a prefixed name: "t:<index>"
  StartBase start_base_;
  std::uint64_t flush_seq_ = 0;
  TraceSubject trace_subject_;  // the next traced call's name, t:<index>\/c<n>
  std::unique_ptr<TraceHead[]> trace_heads_;
  SummaryHead summary_heads_[kSummaryHeads];
  std::size_t block_start_ = 0;   // where describe_activity's block began in out_
  std::size_t entity_at_ = 0;     // where describe_activity wrote the entity term in out_ (0: none)
  bool entity_numbered_ = false;  // describe_activity left the entity to the activity's IRI
  char number_text_[64];          // entity_number()'s text
  std::vector<bool> declared_;    // entities already described in this file
  std::unordered_map<std::uint32_t, std::string> activity_prefixes_;  // (API, Op) → "a<n>:"
  std::string term_copies_[2];  // entity terms being written (describe_activity)
  const std::string no_term_;   // the parent term of an entity without one
  FileNames names_;             // prefixes and entity terms of this file
  std::string out_;             // formatting buffer, reused
  OutputFile file_;
  bool header_written_ = false;
};

}  // namespace provio::store
