// The job's environment (job_env.h).
#include "job_env.h"

namespace provio::run {

namespace {

constexpr std::string_view kConnectorName = "provio";
constexpr std::string_view kNativeConnector = "provio under_vol=0;under_info={}";

std::string_view trim(std::string_view s) {
  while (!s.empty() && (s.front() == ' ' || s.front() == '\t')) s.remove_prefix(1);
  while (!s.empty() && (s.back() == ' ' || s.back() == '\t')) s.remove_suffix(1);
  return s;
}

}  // namespace

std::string stack_connector(std::string_view existing) {
  existing = trim(existing);
  if (existing.empty()) return std::string(kNativeConnector);
  // HDF5_VOL_CONNECTOR is "<name or value>[ <info string>]".
  std::size_t space = existing.find_first_of(" \t");
  std::string_view name = existing.substr(0, space);
  std::string_view info = space == std::string_view::npos ? "" : trim(existing.substr(space));
  if (name == kConnectorName) return std::string(existing);
  std::string out(kConnectorName);
  out.append(" under_vol=").append(name).append(";under_info={").append(info).append("}");
  return out;
}

std::string prepend_list(std::string_view first, std::string_view existing, char sep) {
  for (std::size_t pos = 0; pos <= existing.size();) {
    std::size_t next = existing.find(sep, pos);
    if (next == std::string_view::npos) next = existing.size();
    if (existing.substr(pos, next - pos) == first) return std::string(existing);
    pos = next + 1;
  }
  std::string out(first);
  if (!existing.empty()) out.append(1, sep).append(existing);
  return out;
}

std::vector<EnvVar> job_environment(const JobSettings& s, const EnvLookup& env) {
  auto current = [&](const char* name) -> std::string_view {
    const char* v = env(name);
    return v ? v : "";
  };
  std::vector<EnvVar> vars;
  if (s.vol) {
    std::string_view plugin_path = current("HDF5_PLUGIN_PATH");
    if (plugin_path.empty()) plugin_path = s.hdf5_plugin_dir;
    vars.push_back({"HDF5_PLUGIN_PATH", prepend_list(s.plugin_dir, plugin_path, ':')});
    vars.push_back({"HDF5_VOL_CONNECTOR", stack_connector(current("HDF5_VOL_CONNECTOR"))});
  }
  // ld.so accepts spaces or colons between LD_PRELOAD entries; a colon keeps the value one word.
  if (s.posix) vars.push_back({"LD_PRELOAD", prepend_list(s.preload, current("LD_PRELOAD"), ':')});
  if (!s.dir.empty()) vars.push_back({"PROVIO_DIR", s.dir});
  if (!s.level.empty()) vars.push_back({"PROVIO_LEVEL", s.level});
  if (!s.workflow.empty()) vars.push_back({"PROVIO_WORKFLOW", s.workflow});
  if (!s.campaign.empty()) vars.push_back({"PROVIO_CAMPAIGN", s.campaign});
  return vars;
}

std::string shell_quote(std::string_view value) {
  std::string out = "'";
  for (char c : value) {
    if (c == '\'')
      out += "'\\''";
    else
      out += c;
  }
  return out + "'";
}

void print_env(const std::vector<EnvVar>& vars, Shell shell, std::FILE* out) {
  for (const EnvVar& v : vars) {
    if (shell == Shell::kCsh)
      std::fprintf(out, "setenv %s %s;\n", v.name.c_str(), shell_quote(v.value).c_str());
    else
      std::fprintf(out, "export %s=%s;\n", v.name.c_str(), shell_quote(v.value).c_str());
  }
}

}  // namespace provio::run
