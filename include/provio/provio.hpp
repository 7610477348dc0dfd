// provio C++ API: a thin header over the C API of provio.h (workflow-level provenance,
// docs/workflow-api.md). RAII for workflows and tasks, typed values from ordinary C++ values.
//
//   provio::Workflow wf("heat-diffusion", "campaign-7");
//   provio::Task task("simulate");
//   auto cfg = provio::config_file("heat.cfg");          // key = value lines, typed
//   provio::metric("max_temperature", t, step);
//   task.output(provio::Data::file("heat.h5"));
//
// Hard rule: like the C API, nothing here throws or aborts. Calls return PROVIO_OK, PROVIO_EOFF
// (recording is off) or PROVIO_EINVAL with provio::last_error() saying why; a misused call
// records nothing. Tasks belong to the thread that began them.
#pragma once

#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <fstream>
#include <initializer_list>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include "provio/provio.h"

namespace provio {

inline std::string last_error() {
  return provio_last_error();
}

// A data reference: a file or HDF5 object, with the IRI the I/O layers use for it.
struct Data {
  provio_entity_t id = 0;
  static Data file(const std::string& path) { return {provio_file(path.c_str())}; }
  static Data object(const std::string& file_path, const std::string& object_path,
                     provio_class_t cls = PROVIO_DATASET) {
    return {provio_object(provio_file(file_path.c_str()), object_path.c_str(), cls)};
  }
  explicit operator bool() const { return id != 0; }
};

// A typed value. Text is referenced, not copied: keep it alive for the call (temporaries in a
// call's argument list live long enough).
class Value {
 public:
  Value(bool b) : v_(provio_bool(b)) {}
  template <typename T, std::enable_if_t<std::is_integral_v<T> && !std::is_same_v<T, bool>, int> = 0>
  Value(T i)
      : v_(std::is_signed_v<T> ? provio_int(static_cast<int64_t>(i))
                               : provio_uint(static_cast<uint64_t>(i))) {}
  template <typename T, std::enable_if_t<std::is_floating_point_v<T>, int> = 0>
  Value(T d) : v_(provio_double(static_cast<double>(d))) {}
  Value(const char* s) : v_(provio_string(s)) {}
  Value(const std::string& s) : v_(provio_string(s.c_str())) {}
  Value(Data d) : v_(provio_data(d.id)) {}
  // An integer of any size as decimal text, recorded exactly (xsd:integer).
  static Value integer_text(const char* decimal) { return Value(provio_integer_text(decimal)); }
  const provio_value_t& c() const { return v_; }

 private:
  explicit Value(provio_value_t v) : v_(v) {}
  provio_value_t v_;
};

using Entry = std::pair<const char*, Value>;

namespace detail {
inline std::vector<provio_param_t> params(std::initializer_list<Entry> entries) {
  std::vector<provio_param_t> out;
  out.reserve(entries.size());
  for (const Entry& e : entries) out.push_back({e.first, e.second.c()});
  return out;
}
}  // namespace detail

// A recorded configuration; id 0 when the call was refused.
struct Config {
  provio_config_t id = 0;
  explicit operator bool() const { return id != 0; }
};

inline Config config(const char* name, std::initializer_list<Entry> entries,
                     provio_config_kind_t kind = PROVIO_CONFIG_GENERAL) {
  auto p = detail::params(entries);
  return {provio_config(name, kind, p.data(), p.size())};
}
inline Config hyperparameters(std::initializer_list<Entry> entries, const char* name = "hyperparameters") {
  return config(name, entries, PROVIO_CONFIG_HYPERPARAMETERS);
}

// Records a `key = value` configuration file ('#' comments, blank lines ignored) as a
// configuration named after the file; values typed as integer, floating point, true/false or
// text. The innermost open task uses both the configuration and the file.
inline Config config_file(const std::string& path) {
  std::ifstream in(path);
  if (!in) return {};
  std::vector<std::pair<std::string, std::string>> kv;
  for (std::string line; std::getline(in, line);) {
    auto trim = [](std::string s) {
      const char* ws = " \t\r\n";
      s.erase(0, s.find_first_not_of(ws));
      s.erase(s.find_last_not_of(ws) + 1);
      return s;
    };
    line = trim(line.substr(0, line.find('#')));
    auto eq = line.find('=');
    if (line.empty() || eq == std::string::npos) continue;
    kv.emplace_back(trim(line.substr(0, eq)), trim(line.substr(eq + 1)));
  }
  std::vector<provio_param_t> p;
  for (const auto& [k, v] : kv) {
    provio_value_t val = provio_string(v.c_str());
    char* end = nullptr;
    if (v == "true" || v == "false") {
      val = provio_bool(v == "true");
    } else if (!v.empty()) {
      long long i = std::strtoll(v.c_str(), &end, 10);
      if (*end == 0) {
        val = provio_int(i);
      } else {
        double d = std::strtod(v.c_str(), &end);
        if (*end == 0 && !std::isnan(d)) val = provio_double(d);  // "nan" stays text
      }
    }
    p.push_back({k.c_str(), val});
  }
  Config c{provio_config(path.c_str(), PROVIO_CONFIG_GENERAL, p.data(), p.size())};
  Data f = Data::file(path);
  if (c && f && provio_current_task()) provio_task_input(0, f.id);
  return c;
}

// The workflow of this process, open for the object's lifetime.
class Workflow {
 public:
  explicit Workflow(const char* name, const char* campaign = nullptr)
      : status_(provio_workflow_open(name, campaign)) {}
  ~Workflow() { close(); }
  Workflow(const Workflow&) = delete;
  Workflow& operator=(const Workflow&) = delete;
  [[nodiscard]] int status() const { return status_; }
  int close() {
    if (status_ == PROVIO_EINVAL || closed_) return PROVIO_EINVAL;
    closed_ = true;
    return provio_workflow_close();
  }

 private:
  int status_;
  bool closed_ = false;
};

// A task of the calling thread, begun at construction and ended at destruction (or end()).
class Task {
 public:
  explicit Task(const char* name, provio_task_t parent = 0) : id_(provio_task_begin(name, parent)) {}
  ~Task() {
    if (id_ && !ended_) provio_task_end(id_);
  }
  Task(const Task&) = delete;
  Task& operator=(const Task&) = delete;

  provio_task_t id() const { return id_; }
  explicit operator bool() const { return id_ != 0; }
  int end() {
    ended_ = true;
    return provio_task_end(id_);
  }
  int input(Data d) { return provio_task_input(id_, d.id); }
  int output(Data d) { return provio_task_output(id_, d.id); }
  int use(Config c) { return provio_task_use_config(id_, c.id); }
  int parameters(std::initializer_list<Entry> entries) {
    auto p = detail::params(entries);
    return provio_task_parameters(id_, p.data(), p.size());
  }
  int results(std::initializer_list<Entry> entries) {
    auto p = detail::params(entries);
    return provio_task_results(id_, p.data(), p.size());
  }

 private:
  provio_task_t id_;
  bool ended_ = false;
};

inline int metric(const char* name, double value, int64_t step = PROVIO_NO_STEP,
                  provio_stage_t stage = PROVIO_STAGE_NONE) {
  return provio_metric(name, value, step, stage);
}
inline int model(Data d, Config c = {}, int64_t step = PROVIO_NO_STEP, const char* name = nullptr) {
  return provio_model(name, d.id, c.id, step);
}
inline int dataset(Data d, provio_stage_t stage = PROVIO_STAGE_NONE, const char* name = nullptr) {
  return provio_dataset(name, d.id, stage);
}
inline int program_type(const char* name) {
  return provio_program_type(name);
}
inline int properties(std::initializer_list<Entry> entries) {
  auto p = detail::params(entries);
  return provio_properties(p.data(), p.size());
}

}  // namespace provio
