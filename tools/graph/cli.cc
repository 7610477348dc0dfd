// Shared command-line behaviour of the provio tools (cli.h).
#include "graph/cli.h"

#include <cstdio>
#include <cstdlib>
#include <utility>

#include "graph/store_layout.h"
#include "graph/version.h"

namespace provio::tools {

int print_version(const char* tool) {
  std::printf("%s (provio) %s\n", tool, kVersion);
  return std::fflush(stdout) == 0 && !std::ferror(stdout) ? kExitOk : kExitData;
}

OptionWord::OptionWord(std::string word) : name(std::move(word)) {
  std::size_t eq = name.find('=');
  if (name.rfind("--", 0) == 0 && eq != std::string::npos) {
    inline_value = name.substr(eq + 1);
    name.resize(eq);
    has_inline = true;
  }
}

bool OptionWord::value(int argc, char** argv, int& i, std::string& out) const {
  if (has_inline) {
    out = inline_value;
    return true;
  }
  if (i + 1 >= argc) return false;
  out = argv[++i];
  return true;
}

std::vector<std::string> default_inputs() {
  const char* dir = std::getenv("PROVIO_DIR");
  if (dir && *dir) return {dir};
  if (rdf::is_store(kRunStore)) return {kRunStore};
  return {"provio"};
}

}  // namespace provio::tools
