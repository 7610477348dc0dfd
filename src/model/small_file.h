// Reads a small file (/proc entries, the PROVIO_CONFIG file) through raw syscalls, so that the
// preload shim never sees provio's own reads. At most `limit` bytes; "" if it cannot be read.
#pragma once

#include <fcntl.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <string>

namespace provio::model {

// At most `limit` bytes from an open descriptor, which stays open.
inline std::string read_small_file_fd(int fd, std::size_t limit) {
  std::string text;
  char buf[4096];
  long n;
  while (text.size() < limit && (n = syscall(SYS_read, fd, buf, sizeof buf)) > 0) {
    text.append(buf, static_cast<std::size_t>(n));
  }
  if (text.size() > limit) text.resize(limit);
  return text;
}

inline std::string read_small_file(const char* path, std::size_t limit = 1u << 20) {
  long fd = syscall(SYS_openat, AT_FDCWD, path, O_RDONLY | O_CLOEXEC);
  if (fd < 0) return {};
  std::string text = read_small_file_fd(static_cast<int>(fd), limit);
  syscall(SYS_close, fd);
  return text;
}

}  // namespace provio::model
