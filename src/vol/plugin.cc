// The C ABI HDF5's plugin loader looks for in libprovio_vol.so (HDF5_PLUGIN_PATH): the plugin
// type and the connector class. Nothing else is exported.
#include <H5PLextern.h>

#include <cstring>

#include "vol/connector.h"
#include "vol/hdf5_match.h"

namespace {

// What a plugin loaded by the wrong HDF5 hands over instead of its class (hdf5_match.h): a class
// no name or value matches, so HDF5's plugin search passes over it and goes on to the next
// directory of HDF5_PLUGIN_PATH (where the right flavour's plugin may be); with none, HDF5
// reports the connector unavailable.
const H5VL_class_t* unmatchable_class() {
  static const H5VL_class_t c = [] {
    H5VL_class_t k;
    std::memset(&k, 0, sizeof k);
    k.version = H5VL_VERSION;
    k.value = H5_VOL_INVALID;
    k.name = "provio (built for another HDF5)";
    return k;
  }();
  return &c;
}

}  // namespace

extern "C" {

__attribute__((visibility("default"))) H5PL_type_t H5PLget_plugin_type(void) {
  return H5PL_TYPE_VOL;
}

// Not inlined: the return address is in the HDF5 library that asks.
__attribute__((visibility("default"), noinline)) const void* H5PLget_plugin_info(void) {
  static const bool matches = provio::vol::loaded_by_own_hdf5(__builtin_return_address(0));
  return matches ? static_cast<const void*>(provio::vol::connector_class()) : unmatchable_class();
}

}  // extern "C"
