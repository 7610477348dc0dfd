// The provio passthrough VOL connector's identity and class. HDF5 finds the connector by name
// ("provio") in HDF5_PLUGIN_PATH through H5PLget_plugin_info (plugin.cc); docs/vol.md documents
// the value, which lies in HDF5's range for connectors under test (256–511).
#pragma once

#include <hdf5.h>

#include <string>
#include <string_view>

namespace provio::vol {

inline constexpr H5VL_class_value_t kConnectorValue = 421;
inline constexpr const char* kConnectorName = "provio";
inline constexpr unsigned kConnectorVersion = 1;

const H5VL_class_t* connector_class();

}  // namespace provio::vol
