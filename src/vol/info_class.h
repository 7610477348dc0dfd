// The connector's info class (H5VL_info_class_t): the copy of our configuration HDF5 keeps in a
// file access property list — the connector below, its info, and provio's own options — and
// its conversions to and from the info string (info.h parses the text).
// Hard rule: a bad info string is an HDF5 error with a message, never a crash; every failure
// path releases what it acquired and keeps the caller's error stack.
#pragma once

#include <hdf5.h>

#include "vol/info.h"

namespace provio::vol {

struct Info {
  hid_t under_id = H5I_INVALID_HID;
  void* under_info = nullptr;
  InfoText text;  // options (and, for to_str, nothing else is trusted from here)
};

void* info_copy(const void* p);
herr_t info_cmp(int* cmp, const void* a, const void* b);
herr_t info_free(void* p);
herr_t info_to_str(const void* p, char** str);
// Registers the connector below and applies the options to the core.
herr_t str_to_info(const char* str, void** out);

}  // namespace provio::vol
