// Rate-limited diagnostics (see log.h). Uses raw syscalls so that the preload shim, which
// interposes write/open, never sees provio's own messages.
#include "model/log.h"

#include <fcntl.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <cerrno>
#include <cstdarg>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <mutex>
#include <set>
#include <string>

namespace provio::model {
namespace {

constexpr int kMaxMessages = 32;

struct LogState {
  std::mutex mutex;
  std::set<std::string> seen;  // guarded by mutex
  int printed = 0;             // guarded by mutex
  int fd = -1;                 // guarded by mutex; -1 until first message
};

LogState& state() {
  static LogState* s = new LogState;  // never destroyed: exit handlers may still warn
  return *s;
}

int open_log_fd() {
  const char* path = std::getenv("PROVIO_LOG");
  if (!path || !*path || std::strcmp(path, "stderr") == 0) return STDERR_FILENO;
  long fd = syscall(SYS_openat, AT_FDCWD, path, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0644);
  return fd < 0 ? STDERR_FILENO : static_cast<int>(fd);
}

}  // namespace

void warn_once(const char* key, const char* fmt, ...) {
  int saved = errno;
  LogState& s = state();
  {
    std::lock_guard<std::mutex> lock(s.mutex);
    if (s.printed >= kMaxMessages || !s.seen.insert(key).second) {
      errno = saved;
      return;
    }
    ++s.printed;
    if (s.fd < 0) s.fd = open_log_fd();
    char line[1024];
    int n = std::snprintf(line, sizeof line, "provio: ");
    va_list args;
    va_start(args, fmt);
    n += std::vsnprintf(line + n, sizeof line - static_cast<std::size_t>(n) - 1, fmt, args);
    va_end(args);
    if (n > static_cast<int>(sizeof line) - 2) n = static_cast<int>(sizeof line) - 2;
    line[n++] = '\n';
    [[maybe_unused]] long ignored = syscall(SYS_write, s.fd, line, static_cast<std::size_t>(n));
  }
  errno = saved;
}

int warnings_printed() {
  LogState& s = state();
  std::lock_guard<std::mutex> lock(s.mutex);
  return s.printed;
}

}  // namespace provio::model
