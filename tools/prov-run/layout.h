// Where prov-run finds the rest of provio: the VOL plugin directory, the preload library and the
// other tools. Installed, everything is found relative to prov-run's own executable, so an
// installed prefix can be moved (or bind-mounted elsewhere in a container); in the build tree,
// the paths the build gave it.
#pragma once

#include <string>

namespace provio::run {

struct Layout {
  std::string plugin_dir;  // the plugin, or one directory per HDF5 flavour under it
  std::string preload;
  std::string prov_merge, prov_query, prov_viz;
};

// The layout of this prov-run, from /proc/self/exe.
Layout find_layout();

// The HDF5_PLUGIN_PATH entries for provio's plugin: its directory, or, when provio was built
// against several HDF5 flavours (docs/distributions.md), every flavour's directory, a parallel
// one first for a job started through an MPI launcher and the serial one first otherwise. A
// plugin loaded by the wrong HDF5 passes, and HDF5's search goes on to the next directory.
std::string plugin_path(const Layout& l, bool mpi_launch);

}  // namespace provio::run
