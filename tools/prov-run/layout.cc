// Locating provio's parts (layout.h). The PROVIO_* macros come from CMakeLists.txt: the install
// layout relative to the bin directory, and the build tree's absolute paths.
#include "layout.h"

#include <unistd.h>

#include <climits>
#include <filesystem>

namespace provio::run {

namespace fs = std::filesystem;

Layout find_layout() {
  std::error_code ec;
  fs::path exe = fs::read_symlink("/proc/self/exe", ec);
  fs::path bin = exe.parent_path();
  auto installed = [&](const char* rel) {
    fs::path p(rel);
    return (p.is_absolute() ? p : bin / p).lexically_normal().string();
  };
  Layout l;
  if (!ec && fs::exists(installed(PROVIO_INSTALLED_PRELOAD), ec)) {
    l.plugin_dir = installed(PROVIO_INSTALLED_PLUGIN_DIR);
    l.preload = installed(PROVIO_INSTALLED_PRELOAD);
    l.prov_merge = (bin / "prov-merge").string();
    l.prov_query = (bin / "prov-query").string();
    l.prov_viz = (bin / "prov-viz").string();
  } else {
    l.plugin_dir = PROVIO_BUILD_PLUGIN_DIR;
    l.preload = PROVIO_BUILD_PRELOAD;
    l.prov_merge = PROVIO_BUILD_PROV_MERGE;
    l.prov_query = PROVIO_BUILD_PROV_QUERY;
    l.prov_viz = PROVIO_BUILD_PROV_VIZ;
  }
  return l;
}

}  // namespace provio::run
