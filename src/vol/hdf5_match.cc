// The plugin's HDF5 check (see hdf5_match.h).
#include "vol/hdf5_match.h"

#include <dlfcn.h>
#include <hdf5.h>

#include <cstdio>
#include <string>

namespace provio::vol {
namespace {

#ifdef H5_HAVE_PARALLEL
constexpr bool kBuiltParallel = true;
#else
constexpr bool kBuiltParallel = false;
#endif

using GetVersion = herr_t (*)(unsigned*, unsigned*, unsigned*);

struct Library {
  GetVersion get_version = nullptr;  // its H5get_libversion: one library, one address
  std::string file;
  unsigned major = 0, minor = 0, release = 0;
  bool parallel = false;
};

// The HDF5 library the code at `address` calls: the one its shared object (an HDF5 library, or a
// program linked to one) finds H5get_libversion in, itself first, then its dependencies.
Library library_seen_from(const void* address) {
  Library lib;
  Dl_info info{};
  if (!dladdr(address, &info)) return lib;
  void* handle = info.dli_fname ? dlopen(info.dli_fname, RTLD_LAZY | RTLD_NOLOAD) : nullptr;
  if (!handle) handle = dlopen(nullptr, RTLD_LAZY);  // the main program, named as it was run
  if (!handle) return lib;
  lib.get_version = reinterpret_cast<GetVersion>(dlsym(handle, "H5get_libversion"));
  lib.parallel = dlsym(handle, "H5Pset_fapl_mpio") != nullptr;  // only a parallel HDF5 has it
  dlclose(handle);
  if (!lib.get_version) return lib;
  lib.get_version(&lib.major, &lib.minor, &lib.release);
  if (dladdr(reinterpret_cast<const void*>(lib.get_version), &info) && info.dli_fname)
    lib.file = info.dli_fname;
  return lib;
}

}  // namespace

bool loaded_by_own_hdf5(const void* caller) {
  const Library running = library_seen_from(caller);
  if (running.get_version && running.get_version == &H5get_libversion && running.major == H5_VERS_MAJOR &&
      running.minor == H5_VERS_MINOR && running.parallel == kBuiltParallel)
    return true;
  std::fprintf(stderr,
               "provio: not loading this VOL plugin (%s, built for HDF5 %d.%d.%d %s): the program runs "
               "HDF5 %u.%u.%u %s from %s. Use the plugin built for that HDF5: the plugin directory "
               "named for its flavour (serial or the MPI one; docs/distributions.md).\n",
               PROVIO_HDF5_FLAVOUR, H5_VERS_MAJOR, H5_VERS_MINOR, H5_VERS_RELEASE,
               kBuiltParallel ? "parallel" : "serial", running.major, running.minor, running.release,
               running.parallel ? "parallel" : "serial", running.file.empty() ? "?" : running.file.c_str());
  return false;
}

}  // namespace provio::vol
