// Keeping the application's HDF5 error stack as it was while the connector makes HDF5 calls of
// its own (cleanup after a failure, name and size lookups), and pushing the connector's own
// errors. Hard rule: after a callback, the caller's error stack is exactly what the connector
// below left there ([P] 24–26, 410–418).
#pragma once

#include <hdf5.h>

namespace provio::vol {

// Keeps the caller's HDF5 error stack across our own HDF5 calls. The stack is copied only when
// it holds something: almost always it is empty, and copying it on every wrapper free and close
// cost ~4 % of a metadata-heavy run even at level off. An empty stack is given back empty.
class ErrorStackKeeper {
 public:
  ErrorStackKeeper() : stack_(H5Eget_num(H5E_DEFAULT) > 0 ? H5Eget_current_stack() : H5I_INVALID_HID) {}
  ~ErrorStackKeeper() {
    if (stack_ >= 0)
      H5Eset_current_stack(stack_);  // also releases the copy
    else if (H5Eget_num(H5E_DEFAULT) > 0)
      H5Eclear2(H5E_DEFAULT);
  }
  ErrorStackKeeper(const ErrorStackKeeper&) = delete;
  ErrorStackKeeper& operator=(const ErrorStackKeeper&) = delete;

 private:
  hid_t stack_;
};

// For our own lookups (names, sizes): keeps the caller's error stack and silences HDF5's
// automatic error printing, so a lookup that fails (an anonymous object has no name) prints
// nothing on the application's stderr. A lookup that cannot fail (`may_fail` false: the native
// connector asked about an object it handed us) has nothing to print: silencing it cost three
// API calls, a fifth of recording a new attribute.
class QuietLookup {
 public:
  explicit QuietLookup(bool may_fail = true) {
    if (may_fail && H5Eget_auto2(H5E_DEFAULT, &func_, &data_) >= 0) {
      silenced_ = H5Eset_auto2(H5E_DEFAULT, nullptr, nullptr) >= 0;
    }
  }
  ~QuietLookup() {
    if (silenced_) H5Eset_auto2(H5E_DEFAULT, func_, data_);
  }
  QuietLookup(const QuietLookup&) = delete;
  QuietLookup& operator=(const QuietLookup&) = delete;

 private:
  ErrorStackKeeper keep_;
  H5E_auto2_t func_ = nullptr;
  void* data_ = nullptr;
  bool silenced_ = false;
};

// Pushes "provio: <msg>" onto HDF5's error stack under the library's own error class, as the
// error of callback `func`.
void push_error(const char* func, hid_t minor, const char* msg);

}  // namespace provio::vol
