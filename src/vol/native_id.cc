// The native connector's identity (see native_id.h).
#include "vol/native_id.h"

#include "vol/error_stack.h"

namespace provio::vol {

bool is_native(hid_t under_id) {
  if (under_id < 0) return false;
  ErrorStackKeeper keep;
  H5VL_class_value_t value = H5_VOL_INVALID;
  return H5VLget_value(under_id, &value) >= 0 && value == H5_VOL_NATIVE;
}

hid_t native_id() {
  return H5VL_NATIVE;
}

}  // namespace provio::vol
