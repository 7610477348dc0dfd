// Locating provio's parts (layout.h). The PROVIO_* macros come from CMakeLists.txt: the install
// layout relative to the bin directory, the build tree's absolute paths, and the HDF5 flavours
// the plugin was built for (empty with one).
#include "layout.h"

#include <unistd.h>

#include <algorithm>
#include <climits>
#include <filesystem>
#include <string_view>

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

std::string plugin_path(const Layout& l, bool mpi_launch) {
  std::string_view flavours =
      mpi_launch ? PROVIO_PLUGIN_FLAVOURS_MPI_FIRST : PROVIO_PLUGIN_FLAVOURS_SERIAL_FIRST;
  if (flavours.empty()) return l.plugin_dir;
  std::string out;
  for (std::size_t pos = 0; pos <= flavours.size();) {
    std::size_t end = std::min(flavours.find(':', pos), flavours.size());
    if (!out.empty()) out += ':';
    out += l.plugin_dir + "/" + std::string(flavours.substr(pos, end - pos));
    pos = end + 1;
  }
  return out;
}

}  // namespace provio::run
