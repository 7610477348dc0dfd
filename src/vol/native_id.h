// Telling HDF5's native connector below provio, and an ID for it that wrappers may keep without a
// reference of their own (Obj::native_under). Hard rule: the native connector is recognised by
// its value, never by comparing IDs: HDF5 2.x gives a fresh ID for every registration of it by
// value (as the info string's under_vol=0 does), which equals no other ID.
#pragma once

#include <hdf5.h>

namespace provio::vol {

// Whether the connector `under_id` stands for is HDF5's native one; false for an invalid ID.
// Keeps the caller's error stack.
bool is_native(hid_t under_id);

// The library's own ID of the native connector (H5VL_NATIVE), valid while the library is open.
hid_t native_id();

}  // namespace provio::vol
