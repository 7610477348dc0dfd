// Workflow-level records (see record_buffer.h); docs/workflow-api.md is the shape written here.
#include "store/record_buffer.h"

#include <atomic>
#include <charconv>
#include <cstring>
#include <new>

#include "model/entities.h"
#include "model/identity.h"
#include "model/iri.h"
#include "store/memory_budget.h"
#include "store/turtle.h"

namespace provio::store {
namespace {

std::string_view stage_term(std::uint8_t stage) {
  switch (static_cast<Stage>(stage)) {
    case Stage::kTraining: return "provio:Training";
    case Stage::kValidation: return "provio:Validation";
    case Stage::kTesting: return "provio:Testing";
    case Stage::kNone: break;
  }
  return {};
}

// The entity, declared in this file first (its description is written once per file).
const model::Entity* declared(const RecordContext& ctx, model::EntityId id) {
  const model::Entity* e = model::entity(id);
  if (e) ctx.declare_entity(id);
  return e;
}

// The literal (or IRI) of a typed value; false if there is nothing writable.
bool value_term(Turtle& t, const Record& r) {
  switch (r.vtype) {
    case ValueType::kInt: t.i64(r.num.i); return true;
    case ValueType::kUint: t.u64(r.num.u); return true;
    case ValueType::kDouble: t.dbl(r.num.d); return true;
    case ValueType::kBool: t.boolean(r.num.u != 0); return true;
    case ValueType::kString: t.str(r.text2); return true;
    case ValueType::kInteger: {
      // The API checked the digits; write them verbatim as an xsd:integer.
      std::string lit = "\"";
      lit += r.text2;
      lit += "\"^^xsd:integer";
      t.name(lit);
      return true;
    }
    case ValueType::kEntity: {
      const model::Entity* e = model::entity(r.entity);  // declared by the caller
      if (!e) return false;
      t.name(e->term());
      return true;
    }
    case ValueType::kNone: break;
  }
  return false;
}

std::atomic<std::uint64_t> g_inherited_tasks{0}, g_inherited_configs{0}, g_inherited_workflows{0};

}  // namespace

void set_inherited_handles(std::uint64_t tasks, std::uint64_t configs, std::uint64_t workflows) {
  g_inherited_tasks.store(tasks, std::memory_order_relaxed);
  g_inherited_configs.store(configs, std::memory_order_relaxed);
  g_inherited_workflows.store(workflows, std::memory_order_relaxed);
}

void append_key_segment(std::string& out, std::string_view key) {
  model::append_percent_encoded(out, key, false);
}

RecordBuffer::RecordBuffer(std::size_t capacity, std::size_t arena_bytes)
    : capacity_(capacity), arena_bytes_(arena_bytes) {
  banks_[0].records.reset(new Record[capacity]);
  banks_[0].arena.reset(new char[arena_bytes]);
}

bool RecordBuffer::add(const Record& r) {
  Bank& b = banks_[active_];
  std::size_t need = r.text.size() + r.text2.size();
  if (b.used == capacity_ || b.arena_used + need > arena_bytes_) return false;
  Record& dst = b.records[b.used++];
  dst = r;
  char* p = b.arena.get() + b.arena_used;
  if (!r.text.empty()) std::memcpy(p, r.text.data(), r.text.size());
  dst.text = std::string_view(p, r.text.size());
  p += r.text.size();
  if (!r.text2.empty()) std::memcpy(p, r.text2.data(), r.text2.size());
  dst.text2 = std::string_view(p, r.text2.size());
  b.arena_used += need;
  return true;
}

bool RecordBuffer::allocate(Bank& b) {
  if (b.records) return true;
  if (!reserve_memory(capacity_ * sizeof(Record) + arena_bytes_)) return false;
  // Kept if one of the two fails: the reservation stays with this buffer either way.
  b.records.reset(new (std::nothrow) Record[capacity_]);
  b.arena.reset(new (std::nothrow) char[arena_bytes_]);
  return b.records && b.arena;
}

bool RecordBuffer::hand_off() {
  Bank& next = banks_[1 - active_];
  if (next.used != 0 || !allocate(next)) return false;
  active_ = 1 - active_;
  return true;
}

void RecordBuffer::clear() {
  banks_[active_].used = 0;
  banks_[active_].arena_used = 0;
  overflow_ = nullptr;
}

std::size_t RecordBuffer::memory_bytes() const {
  return (banks_[1].records ? 2 : 1) * (capacity_ * sizeof(Record) + arena_bytes_);
}

void RecordBuffer::begin_writing(const RecordContext& ctx) {
  // The program and thread IRIs as open Turtle terms ("<…" without '>'), once per flush: every
  // record IRI extends one of them, so statements are then plain copies (no re-scanning).
  x_term_.clear();
  model::append_iri_term(x_term_, ctx.exec_iri);
  x_open_.assign(x_term_, 0, x_term_.size() - 1);
  th_term_.clear();
  model::append_iri_term(th_term_, ctx.thread_iri);
  th_open_.assign(th_term_, 0, th_term_.size() - 1);
  parent_open_.clear();
  const std::string& parent = model::identity().parent_exec_iri;
  if (!parent.empty() && g_inherited_tasks.load(std::memory_order_relaxed) +
                                 g_inherited_configs.load(std::memory_order_relaxed) +
                                 g_inherited_workflows.load(std::memory_order_relaxed) !=
                             0) {
    model::append_iri_term(parent_open_, parent);
    parent_open_.pop_back();
  }
}

void RecordBuffer::write_bank(std::string& out, const RecordContext& ctx, Bank& b) {
  for (std::size_t i = 0; i < b.used; ++i) write_one(out, ctx, b.records[i]);
  b.used = 0;
  b.arena_used = 0;
}

void RecordBuffer::write_all(std::string& out, const RecordContext& ctx) {
  begin_writing(ctx);
  write_bank(out, ctx, banks_[active_]);
  if (overflow_) write_one(out, ctx, *overflow_);
  overflow_ = nullptr;
}

void RecordBuffer::write_handed_off(std::string& out, const RecordContext& ctx) {
  begin_writing(ctx);
  write_bank(out, ctx, banks_[1 - active_]);
}

namespace {

// dst = "<base/kind/n>" from an open term "<base".
void node(std::string& dst, std::string_view open, std::string_view kind, std::uint64_t n) {
  dst.assign(open);
  dst += '/';
  dst += kind;
  dst += '/';
  char buf[24];
  auto r = std::to_chars(buf, buf + sizeof buf, n);
  dst.append(buf, static_cast<std::size_t>(r.ptr - buf));
  dst += '>';
}

}  // namespace

void RecordBuffer::write_one(std::string& out, const RecordContext& ctx, const Record& r) {
  std::string& s = s_;  // subject term
  std::string& o = o_;  // object term
  auto st = [&](std::string_view subj, std::string_view pred) {
    Turtle t(out);
    t.name(subj).name(pred);
    return t;
  };
  // A handle issued before a fork names the parent execution's record.
  auto owner = [&](const std::atomic<std::uint64_t>& inherited, std::uint64_t n) -> const std::string& {
    return !parent_open_.empty() && n <= inherited.load(std::memory_order_relaxed) ? parent_open_ : x_open_;
  };
  auto task = [&](std::string& dst, std::uint64_t n) { node(dst, owner(g_inherited_tasks, n), "task", n); };
  auto config = [&](std::string& dst, std::uint64_t n) {
    node(dst, owner(g_inherited_configs, n), "config", n);
  };
  auto workflow = [&](std::string& dst, std::uint64_t n) {
    node(dst, owner(g_inherited_workflows, n), "workflow", n);
  };

  switch (r.kind) {
    case RecordKind::kWorkflowOpen:
      workflow(s, r.subject);
      st(s, "rdf:type").name("prov:Activity").end();
      st(s, "rdf:type").name("provio:Workflow").end();
      st(s, "rdfs:label").str(r.text).end();
      st(s, "provio:workflow").str(r.text).end();
      st(s, "prov:wasAssociatedWith").name(x_term_).end();
      st(s, "prov:startedAtTime").time(r.time_ns).end();
      st(x_term_, "provio:workflow").str(r.text).end();
      if (!r.text2.empty()) {
        st(s, "provio:campaign").str(r.text2).end();
        st(x_term_, "provio:campaign").str(r.text2).end();
      }
      break;
    case RecordKind::kWorkflowClose:
      workflow(s, r.subject);
      st(s, "prov:endedAtTime").time(r.time_ns).end();
      break;
    case RecordKind::kTaskBegin:
      task(s, r.subject);
      st(s, "rdf:type").name("prov:Activity").end();
      st(s, "rdf:type").name("provio:Task").end();
      st(s, "rdfs:label").str(r.text).end();
      st(s, "prov:wasAssociatedWith").name(th_term_).end();
      st(s, "prov:startedAtTime").time(r.time_ns).end();
      if (r.a) {
        task(o, r.a);
        st(s, "provio:parentTask").name(o).end();
      }
      if (r.b) {
        workflow(o, r.b);
        st(s, "provio:inWorkflow").name(o).end();
      }
      break;
    case RecordKind::kTaskEnd:
      task(s, r.subject);
      st(s, "prov:endedAtTime").time(r.time_ns).end();
      break;
    case RecordKind::kTaskInput:
    case RecordKind::kTaskOutput:
      if (const model::Entity* e = declared(ctx, r.entity)) {
        task(s, r.subject);
        if (r.kind == RecordKind::kTaskInput)
          st(s, "prov:used").name(e->term()).end();
        else
          st(e->term(), "prov:wasGeneratedBy").name(s).end();
      }
      break;
    case RecordKind::kTaskUseConfig:
      task(s, r.subject);
      config(o, r.a);
      st(s, "prov:used").name(o).end();
      break;
    case RecordKind::kConfig:
      config(s, r.subject);
      st(s, "rdf:type").name("prov:Entity").end();
      st(s, "rdf:type").name("provio:Configuration").end();
      switch (static_cast<ConfigKind>(r.sub)) {
        case ConfigKind::kHyperparameters:
          st(s, "rdf:type").name("provio:HyperparameterSetting").end();
          break;
        case ConfigKind::kDataSelection: st(s, "rdf:type").name("provio:DataSelection").end(); break;
        case ConfigKind::kGeneral: break;
      }
      if (!r.text.empty()) st(s, "rdfs:label").str(r.text).end();
      st(s, "prov:wasAttributedTo").name(x_term_).end();
      if (r.a) {
        task(o, r.a);
        st(o, "prov:used").name(s).end();
      }
      break;
    case RecordKind::kKeyValue: {
      std::string_view link = "provio:property";
      std::string_view segment = "property";
      switch (static_cast<KeyOwner>(r.sub)) {
        case KeyOwner::kConfig:
          config(s, r.subject);
          link = "provio:parameter";
          segment = {};
          break;
        case KeyOwner::kTaskParameter:
          task(s, r.subject);
          link = "provio:parameter";
          segment = "parameter";
          break;
        case KeyOwner::kTaskResult:
          task(s, r.subject);
          link = "provio:result";
          segment = "result";
          break;
        case KeyOwner::kTaskProperty: task(s, r.subject); break;
        case KeyOwner::kWorkflowProperty: workflow(s, r.subject); break;
        case KeyOwner::kProgramProperty: s = x_term_; break;
      }
      // The key node: the owner's IRI, the segment, the key percent-encoded (so the term needs
      // no further escaping).
      std::string& k = k_;
      k.assign(s, 0, s.size() - 1);
      k += '/';
      if (!segment.empty()) {
        k += segment;
        k += '/';
      }
      append_key_segment(k, r.text);
      k += '>';
      // The value first: if it cannot be written, nothing about this key is. A data reference
      // is declared before the statement starts (declaring writes statements of its own).
      if (r.vtype == ValueType::kEntity) declared(ctx, r.entity);
      Turtle v(out);
      v.name(k).name("provio:value");
      if (!value_term(v, r)) v.iri({});  // a bad term: end() rolls the statement back
      if (!v.end()) break;
      st(s, link).name(k).end();
      st(k, "rdf:type").name("provio:Parameter").end();
      st(k, "provio:key").str(r.text).end();
      break;
    }
    case RecordKind::kMetric: {
      node(s, th_open_, "metric", ++metric_seq_);
      st(s, "rdf:type").name("prov:Entity").end();
      st(s, "rdf:type").name("provio:Metric").end();
      std::string_view stage = stage_term(r.sub);
      if (!stage.empty()) {
        st(s, "rdf:type").name("provio:ModelEvaluation").end();
        st(s, "provio:stage").name(stage).end();
      }
      st(s, "provio:metricName").str(r.text).end();
      st(s, "provio:value").dbl(r.num.d).end();
      if (r.step != kNoStep) st(s, "provio:step").i64(r.step).end();
      if (r.a) {
        task(o, r.a);
        st(s, "prov:wasGeneratedBy").name(o).end();
      }
      st(s, "prov:generatedAtTime").time(r.time_ns).end();
      break;
    }
    case RecordKind::kModel:
    case RecordKind::kDataset: {
      bool model = r.kind == RecordKind::kModel;
      if (model)
        node(s, th_open_, "model", ++model_seq_);
      else
        node(s, th_open_, "dataset", ++dataset_seq_);
      const model::Entity* e = declared(ctx, r.entity);
      st(s, "rdf:type").name("prov:Entity").end();
      st(s, "rdf:type").name(model ? "provio:ModelReference" : "provio:DatasetReference").end();
      if (!r.text.empty()) st(s, "rdfs:label").str(r.text).end();
      if (e) st(s, "provio:storedIn").name(e->term()).end();
      st(s, "prov:wasAttributedTo").name(x_term_).end();
      if (model) {
        if (r.b) {
          config(o, r.b);
          st(s, "provio:trainedWith").name(o).end();
        }
        if (r.step != kNoStep) st(s, "provio:step").i64(r.step).end();
        st(s, "prov:generatedAtTime").time(r.time_ns).end();
        if (r.a) {
          task(o, r.a);
          st(s, "prov:wasGeneratedBy").name(o).end();
          if (e) st(e->term(), "prov:wasGeneratedBy").name(o).end();
        }
      } else {
        std::string_view stage = stage_term(r.sub);
        if (!stage.empty()) st(s, "provio:stage").name(stage).end();
        if (r.a) {
          task(o, r.a);
          st(o, "prov:used").name(s).end();
          if (e) st(o, "prov:used").name(e->term()).end();
        }
      }
      break;
    }
    case RecordKind::kProgramType: {
      std::string ty = "urn:provio:type:";
      append_key_segment(ty, r.text);
      s.clear();
      model::append_iri_term(s, ty);
      st(x_term_, "provio:programType").name(s).end();
      st(s, "rdf:type").name("provio:Type").end();
      st(s, "rdfs:label").str(r.text).end();
      break;
    }
  }
}

}  // namespace provio::store
