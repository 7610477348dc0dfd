// The C ABI HDF5's plugin loader looks for in libprovio_vol.so (HDF5_PLUGIN_PATH): the plugin
// type and the connector class. Nothing else is exported.
#include <H5PLextern.h>

#include "vol/connector.h"

extern "C" {

__attribute__((visibility("default"))) H5PL_type_t H5PLget_plugin_type(void) {
  return H5PL_TYPE_VOL;
}

__attribute__((visibility("default"))) const void* H5PLget_plugin_info(void) {
  return provio::vol::connector_class();
}

}  // extern "C"
