// The connector's wrap class (H5VL_wrap_class_t): HDF5 wraps objects it opens internally
// (iteration callbacks, references, H5Ocopy) through a context taken from a wrapper.
// Hard rule: a wrapper made here knows its type and driver but not its file — HDF5 also wraps
// objects reached through external links, which live in another file — so its file is asked
// from below when needed.
#pragma once

#include <hdf5.h>

namespace provio::vol {

void* get_object(const void* obj);
herr_t get_wrap_ctx(const void* obj, void** ctx);
void* wrap_object(void* obj, H5I_type_t type, void* ctx);
void* unwrap_object(void* obj);
herr_t free_wrap_ctx(void* ctx);

}  // namespace provio::vol
