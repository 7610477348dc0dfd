// The default output directory's name, shared by the recording library ($PWD/provio/<job>,
// model/identity.h) and the tools (their default input, prov-run's job directory).
//
// Hard rule: header-only and dependency-free: the tools' option library includes it without
// linking the model.
#pragma once

#include <string>
#include <string_view>

namespace provio::model {

inline constexpr const char* kOutputDirName = "provio";

// A job id as one path component: '/' (and NUL) become '_'; "local" outside a batch job.
inline std::string job_dir_name(std::string_view job) {
  if (job.empty()) return "local";
  std::string name(job);
  for (char& c : name) {
    if (c == '/' || c == '\0') c = '_';
  }
  return name;
}

}  // namespace provio::model
