// The environment prov-run gives a job: where the connector and the preload library are, what
// they record and where (docs/prov-run.md). Pure functions over an environment lookup, so the
// stacking rules are unit-tested without running anything.
// Hard rule: what the user already set is kept — a connector is stacked under provio, a preload
// list and a plugin path are extended, never replaced.
#pragma once

#include <cstdio>
#include <functional>
#include <string>
#include <string_view>
#include <vector>

namespace provio::run {

// A lookup of one variable by name; nullptr when unset.
using EnvLookup = std::function<const char*(const char*)>;

struct EnvVar {
  std::string name;
  std::string value;
};

struct JobSettings {
  std::string plugin_dir;  // holds libprovio_vol.so
  // HDF5's own default plugin directory, kept after ours when HDF5_PLUGIN_PATH is unset (setting
  // the variable replaces HDF5's default, where filter plugins live).
  std::string hdf5_plugin_dir;
  std::string preload;  // libprovio_posix.so
  std::string dir;      // PROVIO_DIR; empty: leave the core's default
  std::string workflow, campaign, level;
  bool vol = true;
  bool posix = true;
};

// The connector string that puts provio over `existing` (an HDF5_VOL_CONNECTOR value, "" if
// unset): "provio under_vol=0;under_info={}" over native, else "provio under_vol=NAME;
// under_info={INFO}" over "NAME INFO". A string already naming provio is returned as it is.
std::string stack_connector(std::string_view existing);

// `first` followed by `existing` (separated by `sep`), unless `existing` already lists it.
std::string prepend_list(std::string_view first, std::string_view existing, char sep);

// The variables to set for the job, in a fixed order, given the current environment.
std::vector<EnvVar> job_environment(const JobSettings& s, const EnvLookup& env);

enum class Shell { kSh, kCsh };

// `value` quoted for the shell: single quotes, with embedded ones spelled '\''.
std::string shell_quote(std::string_view value);

// Lines that set `vars` in the shell: "export NAME='value'" or "setenv NAME 'value'".
void print_env(const std::vector<EnvVar>& vars, Shell shell, std::FILE* out);

}  // namespace provio::run
