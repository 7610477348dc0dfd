// Where prov-run finds the rest of provio: the VOL plugin directory, the preload library and the
// other tools. Installed, everything is found relative to prov-run's own executable, so an
// installed prefix can be moved (or bind-mounted elsewhere in a container); in the build tree,
// the paths the build gave it.
#pragma once

#include <string>

namespace provio::run {

struct Layout {
  std::string plugin_dir;
  std::string preload;
  std::string prov_merge, prov_query, prov_viz;
};

// The layout of this prov-run, from /proc/self/exe.
Layout find_layout();

}  // namespace provio::run
