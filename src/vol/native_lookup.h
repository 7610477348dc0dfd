// Lookups a callback makes about objects of HDF5's native connector (sizes of selections and
// extents, a file's open name) and about the call it serves (a transfer's MPI-IO mode), answered
// by the library's own internal accessors when this is the HDF5 they were written against
// (1.14), else by the public calls.
// Why: a callback runs inside the application's HDF5 call (library initialised, API context
// pushed, the global lock held in thread-safe builds). A public call made there pays again for
// what its entry and exit do (clearing the error stack, pushing a context), and because it clears
// the error stack the connector must save and restore the caller's around it (ErrorStackKeeper:
// two H5Eget_num calls). Together that was more than half of what recording a new attribute or a
// small transfer cost. The internal accessors neither clear nor push anything.
// Hard rule: an internal accessor is called only on a native connector's object or on a valid
// dataspace id, and only in 1.14.x, whose signatures these are (checked at run time, once);
// anything else takes the public path, unchanged. The library's ID records are read only inside
// a callback (the library's lock held) and only once their layout has been checked.
#pragma once

#include <hdf5.h>

#include <cstdint>

namespace provio::vol {

// Decides once, at connector initialisation, whether the internal accessors are usable.
void init_native_lookups();

// Points selected in dataspace `space` (as H5Sget_select_npoints), -1 when unknown.
std::int64_t selected_points(hid_t space);

// Elements in the extent of dataspace `space`, -1 when unknown.
std::int64_t extent_points(hid_t space);

// Elements in the extent of the native connector's attribute `attr`, -1 when the internal
// accessors are not usable (the caller then asks the public way).
std::int64_t native_attribute_points(void* attr);

// The native connector's H5VL_FILE_GET_NAME on `obj` (a file, group, datatype, dataset or
// attribute), without entering the API; false when the internal accessors are not usable or `obj`
// is of another type (the caller then asks the public way).
bool native_file_name(void* obj, H5VL_file_get_args_t* args);

// Whether the native connector's objects `a` and `b` are in the same open file (one H5F_t, as
// the native H5VL_FILE_GET_NAME would find for both); false when the internal accessors are not
// usable or either object's file cannot be told.
bool native_same_file(void* a, H5I_type_t a_type, void* b, H5I_type_t b_type);

// The MPI-IO transfer mode of `dxpl` (as H5Pget_dxpl_mpio) from the API context of the HDF5 call
// the callback serves, when that context carries `dxpl`: after the native connector's transfer
// it holds the mode already. False when the internal accessors are not usable or the context is
// absent or another list's (the caller then asks the public way). Parallel HDF5 only.
#ifdef H5_HAVE_PARALLEL
bool context_transfer_mode(hid_t dxpl, H5FD_mpio_xfer_t* mode);
#endif

}  // namespace provio::vol
