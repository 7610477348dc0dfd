// Shared command-line behaviour of the provio tools (cli.h).
#include "cli/cli.h"

#include <cstdio>
#include <cstdlib>
#include <utility>

#include "cli/terminal.h"
#include "cli/version.h"
#include "graph/store_layout.h"
#include "model/output_dir_name.h"

namespace provio::cli {

int usage_error(const char* tool, std::string_view usage, std::string_view message) {
  print_message(tool, message);
  std::fwrite(usage.data(), 1, usage.size(), stderr);
  return kExitUsage;
}

int fail(const char* tool, std::string_view message) {
  print_message(tool, message);
  return kExitData;
}

int print_version(const char* tool) {
  std::printf("%s (provio) %s\n", tool, kVersion);
  return std::fflush(stdout) == 0 && !std::ferror(stdout) ? kExitOk : kExitData;
}

std::vector<std::string> default_inputs() {
  const char* dir = std::getenv("PROVIO_DIR");
  if (dir && *dir) return {dir};
  if (rdf::is_store(kRunStore)) return {kRunStore};
  return {model::kOutputDirName};
}

bool choose_inputs(std::vector<std::string>& inputs, bool trust_named, OtherOwners& other_owners) {
  other_owners = trust_named ? OtherOwners::kWarn : OtherOwners::kRefuse;
  if (!inputs.empty()) return true;
  inputs = default_inputs();
  return !trust_named;
}

}  // namespace provio::cli
