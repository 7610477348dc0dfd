// Whether the HDF5 that loads this plugin is the one it was built against. A plugin built against
// one HDF5 flavour and loaded by another (an openmpi-built plugin in a serial h5py program) pulls
// in a second HDF5 library: its calls then go to a library that knows none of the program's ids
// ("not a property list" on every call; h5repack crashed). Hard rule: checked before HDF5 gets
// the connector class; a plugin that does not match never registers.
#pragma once

namespace provio::vol {

// True when the HDF5 library that the code at `caller` calls (`caller` is an address in the
// code that asked for the plugin's class: HDF5's plugin loader, or a program linked to HDF5) is
// the one the plugin's own HDF5 calls go to, of the version (major.minor) and parallel-ness the
// plugin was compiled for. Otherwise false, after one message on stderr naming
// both libraries and the plugin to use instead.
bool loaded_by_own_hdf5(const void* caller);

}  // namespace provio::vol
