// Workflow-level records (see record_buffer.h); docs/workflow-api.md is the shape written here.
#include "store/record_buffer.h"

#include <cstring>

#include "model/entities.h"
#include "model/iri.h"
#include "store/turtle.h"

namespace provio::store {
namespace {

std::string numbered(std::string_view base, std::string_view kind, std::uint64_t n) {
  std::string iri(base);
  iri += '/';
  iri += kind;
  iri += '/';
  iri += std::to_string(n);
  return iri;
}

std::string_view stage_term(std::uint8_t stage) {
  switch (static_cast<Stage>(stage)) {
    case Stage::kTraining: return "provio:Training";
    case Stage::kValidation: return "provio:Validation";
    case Stage::kTesting: return "provio:Testing";
    case Stage::kNone: break;
  }
  return {};
}

const std::string* entity_iri(const RecordContext& ctx, model::EntityId id) {
  const model::Entity* e = model::entity(id);
  if (!e) return nullptr;
  ctx.declare_entity(id);
  return &e->iri;
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
      t.iri(e->iri);
      return true;
    }
    case ValueType::kNone: break;
  }
  return false;
}

}  // namespace

void append_key_segment(std::string& out, std::string_view key) {
  model::append_percent_encoded(out, key, false);
}

RecordBuffer::RecordBuffer(std::size_t capacity, std::size_t arena_bytes)
    : records_(new Record[capacity]), capacity_(capacity), arena_(new char[arena_bytes]),
      arena_bytes_(arena_bytes) {}

bool RecordBuffer::add(const Record& r) {
  std::size_t need = r.text.size() + r.text2.size();
  if (used_ == capacity_ || arena_used_ + need > arena_bytes_) return false;
  Record& dst = records_[used_++];
  dst = r;
  char* p = arena_.get() + arena_used_;
  if (!r.text.empty()) std::memcpy(p, r.text.data(), r.text.size());
  dst.text = std::string_view(p, r.text.size());
  p += r.text.size();
  if (!r.text2.empty()) std::memcpy(p, r.text2.data(), r.text2.size());
  dst.text2 = std::string_view(p, r.text2.size());
  arena_used_ += need;
  return true;
}

void RecordBuffer::clear() {
  used_ = 0;
  arena_used_ = 0;
  overflow_ = nullptr;
}

std::size_t RecordBuffer::memory_bytes() const { return capacity_ * sizeof(Record) + arena_bytes_; }

void RecordBuffer::write_all(std::string& out, const RecordContext& ctx) {
  for (std::size_t i = 0; i < used_; ++i) write_one(out, ctx, records_[i]);
  if (overflow_) write_one(out, ctx, *overflow_);
  clear();
}

void RecordBuffer::write_one(std::string& out, const RecordContext& ctx, const Record& r) {
  const std::string_view x = ctx.exec_iri;
  auto task = [&](std::uint64_t n) { return numbered(x, "task", n); };
  auto config = [&](std::uint64_t n) { return numbered(x, "config", n); };
  auto workflow = [&](std::uint64_t n) { return numbered(x, "workflow", n); };
  auto st = [&](const std::string& s) {
    Turtle t(out);
    t.iri(s);
    return t;
  };

  switch (r.kind) {
    case RecordKind::kWorkflowOpen: {
      std::string w = workflow(r.subject);
      st(w).name("rdf:type").name("prov:Activity").end();
      st(w).name("rdf:type").name("provio:Workflow").end();
      st(w).name("rdfs:label").str(r.text).end();
      st(w).name("provio:workflow").str(r.text).end();
      st(w).name("prov:wasAssociatedWith").iri(x).end();
      st(w).name("prov:startedAtTime").time(r.time_ns).end();
      Turtle(out).iri(x).name("provio:workflow").str(r.text).end();
      if (!r.text2.empty()) {
        st(w).name("provio:campaign").str(r.text2).end();
        Turtle(out).iri(x).name("provio:campaign").str(r.text2).end();
      }
      break;
    }
    case RecordKind::kWorkflowClose:
      st(workflow(r.subject)).name("prov:endedAtTime").time(r.time_ns).end();
      break;
    case RecordKind::kTaskBegin: {
      std::string t = task(r.subject);
      st(t).name("rdf:type").name("prov:Activity").end();
      st(t).name("rdf:type").name("provio:Task").end();
      st(t).name("rdfs:label").str(r.text).end();
      st(t).name("prov:wasAssociatedWith").iri(ctx.thread_iri).end();
      st(t).name("prov:startedAtTime").time(r.time_ns).end();
      if (r.a) st(t).name("provio:parentTask").iri(task(r.a)).end();
      if (r.b) st(t).name("provio:inWorkflow").iri(workflow(r.b)).end();
      break;
    }
    case RecordKind::kTaskEnd:
      st(task(r.subject)).name("prov:endedAtTime").time(r.time_ns).end();
      break;
    case RecordKind::kTaskInput:
      if (const std::string* e = entity_iri(ctx, r.entity)) st(task(r.subject)).name("prov:used").iri(*e).end();
      break;
    case RecordKind::kTaskOutput:
      if (const std::string* e = entity_iri(ctx, r.entity)) {
        Turtle(out).iri(*e).name("prov:wasGeneratedBy").iri(task(r.subject)).end();
      }
      break;
    case RecordKind::kTaskUseConfig:
      st(task(r.subject)).name("prov:used").iri(config(r.a)).end();
      break;
    case RecordKind::kConfig: {
      std::string c = config(r.subject);
      st(c).name("rdf:type").name("prov:Entity").end();
      st(c).name("rdf:type").name("provio:Configuration").end();
      switch (static_cast<ConfigKind>(r.sub)) {
        case ConfigKind::kHyperparameters:
          st(c).name("rdf:type").name("provio:HyperparameterSetting").end();
          break;
        case ConfigKind::kDataSelection: st(c).name("rdf:type").name("provio:DataSelection").end(); break;
        case ConfigKind::kGeneral: break;
      }
      if (!r.text.empty()) st(c).name("rdfs:label").str(r.text).end();
      st(c).name("prov:wasAttributedTo").iri(x).end();
      if (r.a) st(task(r.a)).name("prov:used").iri(c).end();
      break;
    }
    case RecordKind::kKeyValue: {
      std::string owner;
      std::string_view link = "provio:property";
      std::string_view segment = "property";
      switch (static_cast<KeyOwner>(r.sub)) {
        case KeyOwner::kConfig:
          owner = config(r.subject);
          link = "provio:parameter";
          segment = {};
          break;
        case KeyOwner::kTaskParameter:
          owner = task(r.subject);
          link = "provio:parameter";
          segment = "parameter";
          break;
        case KeyOwner::kTaskResult:
          owner = task(r.subject);
          link = "provio:result";
          segment = "result";
          break;
        case KeyOwner::kTaskProperty: owner = task(r.subject); break;
        case KeyOwner::kWorkflowProperty: owner = workflow(r.subject); break;
        case KeyOwner::kProgramProperty: owner = std::string(x); break;
      }
      std::string k = owner;
      k += '/';
      if (!segment.empty()) {
        k += segment;
        k += '/';
      }
      append_key_segment(k, r.text);
      // The value first: if it cannot be written, nothing about this key is. A data reference
      // is declared before the statement starts (declaring writes statements of its own).
      if (r.vtype == ValueType::kEntity) entity_iri(ctx, r.entity);
      Turtle v(out);
      v.iri(k).name("provio:value");
      if (!value_term(v, r) || !v.end()) break;
      st(owner).name(link).iri(k).end();
      st(k).name("rdf:type").name("provio:Parameter").end();
      st(k).name("provio:key").str(r.text).end();
      break;
    }
    case RecordKind::kMetric: {
      std::string m = numbered(ctx.thread_iri, "metric", ++metric_seq_);
      st(m).name("rdf:type").name("prov:Entity").end();
      st(m).name("rdf:type").name("provio:Metric").end();
      std::string_view stage = stage_term(r.sub);
      if (!stage.empty()) {
        st(m).name("rdf:type").name("provio:ModelEvaluation").end();
        st(m).name("provio:stage").name(stage).end();
      }
      st(m).name("provio:metricName").str(r.text).end();
      st(m).name("provio:value").dbl(r.num.d).end();
      if (r.step != kNoStep) st(m).name("provio:step").i64(r.step).end();
      if (r.a) st(m).name("prov:wasGeneratedBy").iri(task(r.a)).end();
      st(m).name("prov:generatedAtTime").time(r.time_ns).end();
      break;
    }
    case RecordKind::kModel:
    case RecordKind::kDataset: {
      bool model = r.kind == RecordKind::kModel;
      std::string m = model ? numbered(ctx.thread_iri, "model", ++model_seq_)
                            : numbered(ctx.thread_iri, "dataset", ++dataset_seq_);
      const std::string* e = entity_iri(ctx, r.entity);
      st(m).name("rdf:type").name("prov:Entity").end();
      st(m).name("rdf:type").name(model ? "provio:ModelReference" : "provio:DatasetReference").end();
      if (!r.text.empty()) st(m).name("rdfs:label").str(r.text).end();
      if (e) st(m).name("provio:storedIn").iri(*e).end();
      st(m).name("prov:wasAttributedTo").iri(x).end();
      if (model) {
        if (r.b) st(m).name("provio:trainedWith").iri(config(r.b)).end();
        if (r.step != kNoStep) st(m).name("provio:step").i64(r.step).end();
        st(m).name("prov:generatedAtTime").time(r.time_ns).end();
        if (r.a) {
          st(m).name("prov:wasGeneratedBy").iri(task(r.a)).end();
          if (e) Turtle(out).iri(*e).name("prov:wasGeneratedBy").iri(task(r.a)).end();
        }
      } else {
        std::string_view stage = stage_term(r.sub);
        if (!stage.empty()) st(m).name("provio:stage").name(stage).end();
        if (r.a) {
          st(task(r.a)).name("prov:used").iri(m).end();
          if (e) st(task(r.a)).name("prov:used").iri(*e).end();
        }
      }
      break;
    }
    case RecordKind::kProgramType: {
      std::string ty = "urn:provio:type:";
      append_key_segment(ty, r.text);
      Turtle(out).iri(x).name("provio:programType").iri(ty).end();
      st(ty).name("rdf:type").name("provio:Type").end();
      st(ty).name("rdfs:label").str(r.text).end();
      break;
    }
  }
}

}  // namespace provio::store
