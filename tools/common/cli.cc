// Shared command-line behaviour of the provio tools (cli.h).
#include "common/cli.h"

#include <cstdio>
#include <cstdlib>
#include <filesystem>

#include "common/version.h"

namespace provio::tools {

int print_version(const char* tool) {
  std::printf("%s (provio) %s\n", tool, kVersion);
  return std::fflush(stdout) == 0 && !std::ferror(stdout) ? kExitOk : kExitData;
}

std::vector<std::string> default_inputs() {
  const char* dir = std::getenv("PROVIO_DIR");
  if (dir && *dir) return {dir};
  // prov-merge names its storage "provio": the store's files are provio-*.db.
  std::error_code ec;
  if (std::filesystem::exists(std::filesystem::path(kRunStore) / "provio-sp2o.db", ec)) return {kRunStore};
  return {"provio"};
}

}  // namespace provio::tools
