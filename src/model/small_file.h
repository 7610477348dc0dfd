// Reads a small file (/proc entries, the PROVIO_CONFIG file) through raw syscalls, so that the
// preload shim never sees provio's own reads. At most `limit` bytes; "" if it cannot be read.
#pragma once

#include <fcntl.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <string>

namespace provio::model {

inline std::string read_small_file(const char* path, std::size_t limit = 1u << 20) {
  std::string text;
  // O_NONBLOCK: a FIFO planted at PROVIO_CONFIG must not block the application in open().
  long fd = syscall(SYS_openat, AT_FDCWD, path, O_RDONLY | O_CLOEXEC | O_NONBLOCK);
  if (fd < 0) return text;
  char buf[4096];
  long n;
  while (text.size() < limit && (n = syscall(SYS_read, fd, buf, sizeof buf)) > 0) {
    text.append(buf, static_cast<std::size_t>(n));
  }
  syscall(SYS_close, fd);
  if (text.size() > limit) text.resize(limit);
  return text;
}

}  // namespace provio::model
