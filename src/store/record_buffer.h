// Workflow-level records (workflow, task, configuration entry, metric, model, …; see
// docs/workflow-api.md) buffered per thread beside the I/O events, and formatted into the same
// Turtle file at flush time.
//
// Hard rule: add() is the hot path, like ThreadLog::record(Event). A record is a small fixed
// struct; its strings are copied into a fixed per-thread arena. No lock, no syscall, no
// allocation: when the buffer or the arena is full, add() refuses and the owner flushes. A record
// whose strings exceed the whole arena is written directly from the caller's memory (set_overflow).
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <limits>
#include <memory>
#include <string>
#include <string_view>

#include "model/event.h"

namespace provio::store {

enum class RecordKind : std::uint8_t {
  kWorkflowOpen,   // subject: workflow; text: name; text2: campaign
  kWorkflowClose,  // subject: workflow
  kTaskBegin,      // subject: task; a: parent task; b: workflow; text: name
  kTaskEnd,        // subject: task; a: the thread's innermost open task after it (0: none)
  kTaskInput,      // subject: task; entity
  kTaskOutput,     // subject: task; entity
  kTaskUseConfig,  // subject: task; a: configuration
  kConfig,         // subject: configuration; a: task that uses it; sub: ConfigKind; text: name
  kKeyValue,       // subject: owner (sub: KeyOwner); text: key; value
  kMetric,         // a: task; text: name; value (double); step; sub: Stage
  kModel,          // entity; a: task; b: configuration; step; text: name
  kDataset,        // entity; a: task; sub: Stage; text: name
  kProgramType,    // text: type name
};

// Whose key → value a kKeyValue record is, and so which node links to it.
enum class KeyOwner : std::uint8_t {
  kConfig,
  kTaskParameter,
  kTaskResult,
  kTaskProperty,
  kWorkflowProperty,
  kProgramProperty
};
enum class ConfigKind : std::uint8_t { kGeneral, kHyperparameters, kDataSelection };
enum class Stage : std::uint8_t { kNone, kTraining, kValidation, kTesting };

enum class ValueType : std::uint8_t {
  kNone,
  kInt,      // xsd:long
  kUint,     // xsd:unsignedLong
  kDouble,   // xsd:double
  kBool,     // xsd:boolean
  kString,   // plain literal (value in text2)
  kInteger,  // xsd:integer of any size, decimal digits with optional '-' (in text2)
  kEntity,   // a data reference: the entity's IRI
};

inline constexpr std::int64_t kNoStep = std::numeric_limits<std::int64_t>::min();

struct Record {
  RecordKind kind = RecordKind::kProgramType;
  std::uint8_t sub = 0;  // KeyOwner, ConfigKind or Stage, by kind
  ValueType vtype = ValueType::kNone;
  model::EntityId entity = model::kNoEntity;
  std::uint64_t subject = 0;  // task / configuration / workflow number (1, 2, …)
  std::uint64_t a = 0, b = 0;
  std::int64_t step = kNoStep;
  union {
    std::int64_t i;
    std::uint64_t u;
    double d;
  } num{0};
  std::string_view text, text2;  // views: into the caller's memory, then into the arena
  std::uint64_t time_ns = 0;
};

// What the formatter needs from its thread log.
struct RecordContext {
  std::string_view exec_iri;
  std::string_view thread_iri;
  std::function<void(model::EntityId)> declare_entity;  // writes the entity's description once
};

class RecordBuffer {
 public:
  RecordBuffer(std::size_t capacity, std::size_t arena_bytes);

  // Copies `r` and its strings in; false when there is no room (flush, then try again).
  bool add(const Record& r);
  // A record too big for the arena, written by the next write_all() straight from its views.
  void set_overflow(const Record* r) { overflow_ = r; }

  // Makes the records added so far the handed-off bank, to be formatted by write_handed_off()
  // on the background writer's thread, and starts an empty bank (the second one is allocated on
  // the first hand-off, within the process's memory bound). false, and nothing changes, while the
  // previous hand-off is not written yet or without memory for the second bank. The caller
  // (ThreadLog) lets one formatter run at a time.
  bool hand_off();
  // The handed-off bank as Turtle statements appended to `out`, then empties it.
  void write_handed_off(std::string& out, const RecordContext& ctx);
  std::size_t handed_off() const { return banks_[1 - active_].used; }

  bool empty() const { return banks_[active_].used == 0 && overflow_ == nullptr; }
  std::size_t size() const { return banks_[active_].used; }
  void clear();  // the records not handed off
  std::size_t memory_bytes() const;

  // Formats every buffered record not handed off (and the overflow one) as Turtle statements
  // appended to `out`, then empties the buffer. Per-thread counters (metric, model, dataset
  // numbers) persist and are shared by both banks.
  void write_all(std::string& out, const RecordContext& ctx);

 private:
  // Records and the arena their strings are copied into.
  struct Bank {
    std::unique_ptr<Record[]> records;
    std::unique_ptr<char[]> arena;
    std::size_t used = 0;
    std::size_t arena_used = 0;
  };
  bool allocate(Bank& b);
  void begin_writing(const RecordContext& ctx);
  void write_bank(std::string& out, const RecordContext& ctx, Bank& b);
  void write_one(std::string& out, const RecordContext& ctx, const Record& r);

  Bank banks_[2];
  unsigned active_ = 0;  // the bank add() fills
  std::size_t capacity_;
  std::size_t arena_bytes_;
  const Record* overflow_ = nullptr;
  std::uint64_t metric_seq_ = 0, model_seq_ = 0, dataset_seq_ = 0;
  // Formatting scratch, reused: program and thread IRI terms ("<…>") and open forms ("<…"),
  // subject, object and key-node terms.
  std::string x_term_, x_open_, th_term_, th_open_, s_, o_, k_;
  std::string parent_open_;  // the parent execution's IRI, open form; empty if not forked
};

// In a fork child: handles up to these numbers were issued by the parent execution, so records
// of the child that refer to them (a metric of a task begun before the fork) name the parent's
// IRIs (identity().parent_exec_iri). Set by the API's fork handler.
void set_inherited_handles(std::uint64_t tasks, std::uint64_t configs, std::uint64_t workflows);

// Percent-encodes a key for use as the last IRI segment (exposed for tests).
void append_key_segment(std::string& out, std::string_view key);

}  // namespace provio::store
