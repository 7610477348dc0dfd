// The C ABI of the workflow-level API (include/provio/provio.h, second section): argument and
// state checks, then one fixed-size store::Record per fact, handed to the calling thread's log.
//
// Hard rule: check everything before recording anything, so misuse leaves no wrong statement.
// State is per thread (the stack of open tasks) or one atomic per process (handle counters, the
// open workflow): a metric or task record takes no lock and allocates nothing, like an I/O event.
#include <pthread.h>

#include <algorithm>
#include <atomic>
#include <cmath>
#include <cstdarg>
#include <cstdio>
#include <cstring>
#include <string_view>
#include <vector>

#include "model/clock.h"
#include "model/config.h"
#include "model/entities.h"
#include "model/errno_saver.h"
#include "model/redact.h"
#include "provio/provio.h"
#include "store/record_buffer.h"
#include "store/recorder.h"

namespace provio::api {
void set_last_error(const char* message);  // src/api/c_api.cc
}  // namespace provio::api

namespace {

using provio::store::KeyOwner;
using provio::store::Record;
using provio::store::RecordKind;
using provio::store::ValueType;

std::atomic<std::uint64_t> g_last_task{0};
std::atomic<std::uint64_t> g_last_config{0};
std::atomic<std::uint64_t> g_last_workflow{0};
std::atomic<std::uint64_t> g_open_workflow{0};

// Open tasks of this thread, outermost first. Fixed, so beginning a task never allocates.
constexpr std::size_t kMaxDepth = 64;
struct TaskStack {
  std::uint64_t ids[kMaxDepth];
  std::size_t depth = 0;
  std::uint64_t innermost() const { return depth ? ids[depth - 1] : 0; }
  bool contains(std::uint64_t id) const { return std::find(ids, ids + depth, id) != ids + depth; }
};
thread_local TaskStack tls_tasks;

// A fork child is a new program execution (the core renews the identity); the tasks, configurations
// and workflow it inherited open were begun by the parent, and its records name them so.
void on_fork_child() {
  provio::store::set_inherited_handles(g_last_task.load(std::memory_order_relaxed),
                                       g_last_config.load(std::memory_order_relaxed),
                                       g_last_workflow.load(std::memory_order_relaxed));
}

void install_fork_handler() {
  static const bool installed = (pthread_atfork(nullptr, nullptr, on_fork_child), true);
  (void)installed;
}

[[gnu::format(printf, 1, 2)]] int fail(const char* fmt, ...) {
  char buf[256];
  va_list ap;
  va_start(ap, fmt);
  std::vsnprintf(buf, sizeof buf, fmt, ap);
  va_end(ap);
  provio::api::set_last_error(buf);
  return PROVIO_EINVAL;
}

int submit(Record& r) {
  if (!provio::store::enabled()) return PROVIO_EOFF;
  r.time_ns = provio::model::clock::wall_ns();
  provio::store::record(r);
  return PROVIO_OK;
}

bool nonempty(const char* s) {
  return s && *s;
}

// Fills the value fields of `r`; on a bad value reports for `fn` and returns false.
bool take_value(const char* fn, const char* key, const provio_value_t& v, Record& r) {
  switch (v.type) {
    case PROVIO_VALUE_INT:
      r.vtype = ValueType::kInt;
      r.num.i = v.v.i;
      return true;
    case PROVIO_VALUE_UINT:
      r.vtype = ValueType::kUint;
      r.num.u = v.v.u;
      return true;
    case PROVIO_VALUE_DOUBLE:
      if (std::isnan(v.v.d)) return fail("%s: value of \"%.64s\" is NaN", fn, key), false;
      r.vtype = ValueType::kDouble;
      r.num.d = v.v.d;
      return true;
    case PROVIO_VALUE_BOOL:
      r.vtype = ValueType::kBool;
      r.num.u = v.v.b != 0;
      return true;
    case PROVIO_VALUE_STRING:
      if (!v.v.s) return fail("%s: value of \"%.64s\" is a null string", fn, key), false;
      r.vtype = ValueType::kString;
      // A secret is replaced before it is buffered (model/redact.h).
      r.text2 = provio::model::secret_value(key ? key : "", v.v.s, provio::model::config())
                    ? provio::model::kRedacted
                    : std::string_view(v.v.s);
      return true;
    case PROVIO_VALUE_INTEGER: {
      const char* s = v.v.s;
      if (!s) return fail("%s: value of \"%.64s\" is a null integer text", fn, key), false;
      std::string_view digits(s);
      if (!digits.empty() && digits.front() == '-') digits.remove_prefix(1);
      if (digits.empty() || digits.find_first_not_of("0123456789") != std::string_view::npos) {
        return fail("%s: value of \"%.64s\" is not a decimal integer", fn, key), false;
      }
      r.vtype = ValueType::kInteger;
      r.text2 = s;
      return true;
    }
    case PROVIO_VALUE_ENTITY:
      if (!provio::model::entity(v.v.e))
        return fail("%s: value of \"%.64s\" is an unknown entity", fn, key), false;
      r.vtype = ValueType::kEntity;
      r.entity = v.v.e;
      return true;
  }
  return fail("%s: value of \"%.64s\" has an unknown type %d", fn, key, static_cast<int>(v.type)), false;
}

// An open task of this thread for the calls that take one (0: the innermost); 0 if none.
std::uint64_t open_task(const char* fn, provio_task_t task) {
  if (task == 0) {
    if (tls_tasks.depth == 0) return fail("%s: no task is open on this thread", fn), 0;
    return tls_tasks.innermost();
  }
  if (!tls_tasks.contains(task)) {
    return fail("%s: task %llu is not open on this thread", fn, static_cast<unsigned long long>(task)), 0;
  }
  return task;
}

// Checks n entries (keys non-empty and unique, values valid) into `out`, before any is recorded.
bool take_entries(const char* fn, const provio_param_t* params, std::size_t n, std::vector<Record>& out) {
  if (n && !params) return fail("%s: %zu entries but no array", fn, n), false;
  out.assign(n, Record{});
  std::vector<std::string_view> keys(n);
  for (std::size_t i = 0; i < n; ++i) {
    if (!nonempty(params[i].key)) return fail("%s: entry %zu has an empty key", fn, i), false;
    if (!take_value(fn, params[i].key, params[i].value, out[i])) return false;
    out[i].kind = RecordKind::kKeyValue;
    out[i].text = params[i].key;
    keys[i] = params[i].key;
  }
  std::sort(keys.begin(), keys.end());
  auto dup = std::adjacent_find(keys.begin(), keys.end());
  if (dup != keys.end()) return fail("%s: key \"%.64s\" given twice", fn, std::string(*dup).c_str()), false;
  return true;
}

// Records checked entries as key -> value nodes of one owner.
int submit_entries(std::vector<Record>& entries, KeyOwner owner, std::uint64_t subject) {
  int rc = PROVIO_OK;
  for (Record& e : entries) {
    e.sub = static_cast<std::uint8_t>(owner);
    e.subject = subject;
    rc = submit(e);
  }
  return rc;
}

// The owner of a property: the innermost open task, else the open workflow, else the program.
KeyOwner property_owner(std::uint64_t& subject) {
  if ((subject = tls_tasks.innermost())) return KeyOwner::kTaskProperty;
  if ((subject = g_open_workflow.load(std::memory_order_relaxed))) return KeyOwner::kWorkflowProperty;
  return KeyOwner::kProgramProperty;
}

int task_entries(const char* fn, provio_task_t task, const provio_param_t* params, std::size_t n,
                 KeyOwner owner) {
  provio::model::ErrnoSaver saver;
  std::uint64_t t = open_task(fn, task);
  if (!t) return PROVIO_EINVAL;
  std::vector<Record> entries;
  if (!take_entries(fn, params, n, entries)) return PROVIO_EINVAL;
  return submit_entries(entries, owner, t);
}

int task_value(const char* fn, provio_task_t task, const char* key, provio_value_t value, KeyOwner owner) {
  provio::model::ErrnoSaver saver;
  std::uint64_t t = open_task(fn, task);
  if (!t) return PROVIO_EINVAL;
  if (!nonempty(key)) return fail("%s: empty key", fn);
  Record r;
  if (!take_value(fn, key, value, r)) return PROVIO_EINVAL;
  r.kind = RecordKind::kKeyValue;
  r.sub = static_cast<std::uint8_t>(owner);
  r.subject = t;
  r.text = key;
  return submit(r);
}

int task_data(const char* fn, provio_task_t task, provio_entity_t data, RecordKind kind) {
  provio::model::ErrnoSaver saver;
  std::uint64_t t = open_task(fn, task);
  if (!t) return PROVIO_EINVAL;
  if (!provio::model::entity(data)) return fail("%s: unknown entity %u", fn, data);
  Record r;
  r.kind = kind;
  r.subject = t;
  r.entity = data;
  return submit(r);
}

template <typename Set>
provio_value_t make_value(provio_value_type_t type, Set set) {
  provio_value_t x{};
  x.type = type;
  set(x.v);
  return x;
}

bool valid_stage(provio_stage_t s) {
  return s >= PROVIO_STAGE_NONE && s <= PROVIO_STAGE_TESTING;
}

}  // namespace

extern "C" {

provio_value_t provio_int(int64_t v) {
  return make_value(PROVIO_VALUE_INT, [&](auto& u) { u.i = v; });
}
provio_value_t provio_uint(uint64_t v) {
  return make_value(PROVIO_VALUE_UINT, [&](auto& u) { u.u = v; });
}
provio_value_t provio_double(double v) {
  return make_value(PROVIO_VALUE_DOUBLE, [&](auto& u) { u.d = v; });
}
provio_value_t provio_bool(int v) {
  return make_value(PROVIO_VALUE_BOOL, [&](auto& u) { u.b = v; });
}
provio_value_t provio_string(const char* v) {
  return make_value(PROVIO_VALUE_STRING, [&](auto& u) { u.s = v; });
}
provio_value_t provio_integer_text(const char* decimal) {
  return make_value(PROVIO_VALUE_INTEGER, [&](auto& u) { u.s = decimal; });
}
provio_value_t provio_data(provio_entity_t e) {
  return make_value(PROVIO_VALUE_ENTITY, [&](auto& u) { u.e = e; });
}

int provio_workflow_open(const char* name, const char* campaign) {
  provio::model::ErrnoSaver saver;
  install_fork_handler();
  if (!nonempty(name)) return fail("provio_workflow_open: empty workflow name");
  std::uint64_t n = g_last_workflow.fetch_add(1, std::memory_order_relaxed) + 1;
  std::uint64_t none = 0;
  if (!g_open_workflow.compare_exchange_strong(none, n, std::memory_order_acq_rel)) {
    return fail("provio_workflow_open: workflow %llu is already open; close it first",
                static_cast<unsigned long long>(none));
  }
  Record r;
  r.kind = RecordKind::kWorkflowOpen;
  r.subject = n;
  r.text = name;
  if (campaign) r.text2 = campaign;
  return submit(r);
}

int provio_workflow_close(void) {
  provio::model::ErrnoSaver saver;
  std::uint64_t n = g_open_workflow.exchange(0, std::memory_order_acq_rel);
  if (!n) return fail("provio_workflow_close: no workflow is open");
  Record r;
  r.kind = RecordKind::kWorkflowClose;
  r.subject = n;
  return submit(r);
}

provio_task_t provio_task_begin(const char* name, provio_task_t parent) {
  provio::model::ErrnoSaver saver;
  install_fork_handler();
  if (!nonempty(name)) return fail("provio_task_begin: empty task name"), 0;
  if (parent > g_last_task.load(std::memory_order_relaxed)) {
    return fail("provio_task_begin: unknown parent task %llu", static_cast<unsigned long long>(parent)), 0;
  }
  if (tls_tasks.depth == kMaxDepth) {
    return fail("provio_task_begin: more than %zu nested tasks on this thread", kMaxDepth), 0;
  }
  std::uint64_t n = g_last_task.fetch_add(1, std::memory_order_relaxed) + 1;
  Record r;
  r.kind = RecordKind::kTaskBegin;
  r.subject = n;
  r.a = parent ? parent : tls_tasks.innermost();
  r.b = g_open_workflow.load(std::memory_order_relaxed);
  r.text = name;
  tls_tasks.ids[tls_tasks.depth++] = n;
  submit(r);
  return n;
}

int provio_task_end(provio_task_t task) {
  provio::model::ErrnoSaver saver;
  auto id = static_cast<unsigned long long>(task);
  if (task == 0) return fail("provio_task_end: task 0 is not a task");
  if (tls_tasks.innermost() != task) {
    if (tls_tasks.contains(task))
      return fail("provio_task_end: task %llu has open subtasks; end them first", id);
    if (task <= g_last_task.load(std::memory_order_relaxed)) {
      return fail(
          "provio_task_end: task %llu is not open on this thread (ended twice, or begun on another thread)",
          id);
    }
    return fail("provio_task_end: unknown task %llu", id);
  }
  --tls_tasks.depth;
  Record r;
  r.kind = RecordKind::kTaskEnd;
  r.subject = task;
  r.a = tls_tasks.innermost();
  return submit(r);
}

provio_task_t provio_current_task(void) {
  return tls_tasks.innermost();
}

int provio_task_input(provio_task_t task, provio_entity_t data) {
  return task_data("provio_task_input", task, data, RecordKind::kTaskInput);
}

int provio_task_output(provio_task_t task, provio_entity_t data) {
  return task_data("provio_task_output", task, data, RecordKind::kTaskOutput);
}

int provio_task_parameter(provio_task_t task, const char* key, provio_value_t value) {
  return task_value("provio_task_parameter", task, key, value, KeyOwner::kTaskParameter);
}

int provio_task_result(provio_task_t task, const char* key, provio_value_t value) {
  return task_value("provio_task_result", task, key, value, KeyOwner::kTaskResult);
}

int provio_task_use_config(provio_task_t task, provio_config_t config) {
  provio::model::ErrnoSaver saver;
  std::uint64_t t = open_task("provio_task_use_config", task);
  if (!t) return PROVIO_EINVAL;
  if (config == 0 || config > g_last_config.load(std::memory_order_relaxed)) {
    return fail("provio_task_use_config: unknown configuration %llu",
                static_cast<unsigned long long>(config));
  }
  Record r;
  r.kind = RecordKind::kTaskUseConfig;
  r.subject = t;
  r.a = config;
  return submit(r);
}

provio_config_t provio_config(const char* name, provio_config_kind_t kind, const provio_param_t* params,
                              size_t n) {
  provio::model::ErrnoSaver saver;
  constexpr const char* fn = "provio_config";
  install_fork_handler();
  if (kind < PROVIO_CONFIG_GENERAL || kind > PROVIO_CONFIG_DATA_SELECTION)
    return fail("%s: unknown kind", fn), 0;
  std::vector<Record> entries;
  if (!take_entries(fn, params, n, entries)) return 0;
  std::uint64_t c = g_last_config.fetch_add(1, std::memory_order_relaxed) + 1;
  Record r;
  r.kind = RecordKind::kConfig;
  r.subject = c;
  r.a = tls_tasks.innermost();
  r.sub = static_cast<std::uint8_t>(kind);
  if (name) r.text = name;
  if (submit(r) == PROVIO_OK) submit_entries(entries, KeyOwner::kConfig, c);
  return c;
}

int provio_metric(const char* name, double value, int64_t step, provio_stage_t stage) {
  provio::model::ErrnoSaver saver;
  if (!nonempty(name)) return fail("provio_metric: empty metric name");
  if (std::isnan(value)) return fail("provio_metric: value of \"%.64s\" is NaN", name);
  if (!valid_stage(stage)) return fail("provio_metric: unknown stage %d", static_cast<int>(stage));
  if (tls_tasks.depth == 0) return fail("provio_metric: \"%.64s\" outside a task (begin a task first)", name);
  Record r;
  r.kind = RecordKind::kMetric;
  r.a = tls_tasks.innermost();
  r.text = name;
  r.num.d = value;
  r.step = step;
  r.sub = static_cast<std::uint8_t>(stage);
  return submit(r);
}

int provio_model(const char* name, provio_entity_t data, provio_config_t config, int64_t step) {
  provio::model::ErrnoSaver saver;
  if (!provio::model::entity(data)) return fail("provio_model: unknown entity %u", data);
  if (config > g_last_config.load(std::memory_order_relaxed)) {
    return fail("provio_model: unknown configuration %llu", static_cast<unsigned long long>(config));
  }
  Record r;
  r.kind = RecordKind::kModel;
  r.entity = data;
  r.a = tls_tasks.innermost();
  r.b = config;
  r.step = step;
  if (name) r.text = name;
  return submit(r);
}

int provio_dataset(const char* name, provio_entity_t data, provio_stage_t stage) {
  provio::model::ErrnoSaver saver;
  if (!provio::model::entity(data)) return fail("provio_dataset: unknown entity %u", data);
  if (!valid_stage(stage)) return fail("provio_dataset: unknown stage %d", static_cast<int>(stage));
  Record r;
  r.kind = RecordKind::kDataset;
  r.entity = data;
  r.a = tls_tasks.innermost();
  r.sub = static_cast<std::uint8_t>(stage);
  if (name) r.text = name;
  return submit(r);
}

int provio_program_type(const char* name) {
  provio::model::ErrnoSaver saver;
  if (!nonempty(name)) return fail("provio_program_type: empty type name");
  Record r;
  r.kind = RecordKind::kProgramType;
  r.text = name;
  return submit(r);
}

int provio_property(const char* key, provio_value_t value) {
  provio::model::ErrnoSaver saver;
  if (!nonempty(key)) return fail("provio_property: empty key");
  Record r;
  if (!take_value("provio_property", key, value, r)) return PROVIO_EINVAL;
  r.kind = RecordKind::kKeyValue;
  r.text = key;
  r.sub = static_cast<std::uint8_t>(property_owner(r.subject));
  return submit(r);
}

int provio_properties(const provio_param_t* params, size_t n) {
  provio::model::ErrnoSaver saver;
  std::vector<Record> entries;
  if (!take_entries("provio_properties", params, n, entries)) return PROVIO_EINVAL;
  std::uint64_t subject = 0;
  KeyOwner owner = property_owner(subject);
  return submit_entries(entries, owner, subject);
}

int provio_task_parameters(provio_task_t task, const provio_param_t* params, size_t n) {
  return task_entries("provio_task_parameters", task, params, n, KeyOwner::kTaskParameter);
}

int provio_task_results(provio_task_t task, const provio_param_t* params, size_t n) {
  return task_entries("provio_task_results", task, params, n, KeyOwner::kTaskResult);
}

}  // extern "C"
