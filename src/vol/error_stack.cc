// The connector's own HDF5 errors (see error_stack.h).
#include "vol/error_stack.h"

namespace provio::vol {

void push_error(const char* func, hid_t minor, const char* msg) {
  H5Epush2(H5E_DEFAULT, __FILE__, func, __LINE__, H5E_ERR_CLS, H5E_VOL, minor, "provio: %s", msg);
}

}  // namespace provio::vol
