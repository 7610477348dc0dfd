// Restores errno on scope exit. Everything provio does inside an application (flushes, interning,
// diagnostics) runs under one of these: the application must never see provio's errno.
#pragma once

#include <cerrno>

namespace provio::model {

class ErrnoSaver {
 public:
  ErrnoSaver() : saved_(errno) {}
  ~ErrnoSaver() { errno = saved_; }
  ErrnoSaver(const ErrnoSaver&) = delete;
  ErrnoSaver& operator=(const ErrnoSaver&) = delete;
  int saved() const { return saved_; }

 private:
  int saved_;
};

}  // namespace provio::model
