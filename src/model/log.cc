// Rate-limited diagnostics (see log.h). Uses raw syscalls so that the preload shim, which
// interposes write/open, never sees provio's own messages.
#include "model/log.h"

#include <fcntl.h>
#include <pthread.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <cerrno>
#include <cstdarg>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <mutex>
#include <new>

namespace provio::model {
namespace {

constexpr int kMaxMessages = 32;

// The keys seen are kept as hashes in a fixed array: no allocation, so a fork in the middle of an
// update leaves nothing the child could trip over (at worst one key is reported twice).
struct LogState {
  std::mutex mutex;
  std::uint64_t seen[kMaxMessages] = {};  // guarded by mutex
  int printed = 0;                        // guarded by mutex
};

std::uint64_t key_hash(const char* key) {  // FNV-1a
  std::uint64_t h = 14695981039346656037ull;
  for (; *key; ++key) h = (h ^ static_cast<unsigned char>(*key)) * 1099511628211ull;
  return h;
}

LogState& state();

// A child forked while another thread held the lock would wait for it forever: only the forking
// thread exists in the child. The child gets a fresh, unlocked mutex. (Locking it in a prepare
// handler instead would deadlock the recorder's own prepare handler, which flushes and may warn.)
void on_fork_child() {
  new (&state().mutex) std::mutex;
}

LogState& state() {
  static LogState* s = [] {
    pthread_atfork(nullptr, nullptr, on_fork_child);
    return new LogState;  // never destroyed: exit handlers may still warn
  }();
  return *s;
}
// Built as the library loads, before the program starts threads: a fork while another thread ran
// the initialiser above would leave the child waiting for it forever (hostile.fork_at_start).
[[maybe_unused]] LogState& g_state_at_load = state();

// Whether `key` is new; records it. Caller holds the lock.
bool first_time(LogState& s, const char* key) {
  std::uint64_t h = key_hash(key);
  for (int i = 0; i < s.printed; ++i)
    if (s.seen[i] == h) return false;
  s.seen[s.printed] = h;
  return true;
}

// PROVIO_LOG, opened for this message; -1 (stderr then) unless it is a regular file of our own with
// no other name. O_NOFOLLOW and the checks keep another user's symlink, hard link, FIFO (which
// would block the application in open) or world-readable file from receiving provio's messages.
long open_log(const char* path) {
  long fd = syscall(SYS_openat, AT_FDCWD, path,
                    O_WRONLY | O_CREAT | O_APPEND | O_NOFOLLOW | O_CLOEXEC | O_NONBLOCK, 0600);
  if (fd < 0) return -1;
  struct stat st;
  if (syscall(SYS_fstat, fd, &st) != 0 || !S_ISREG(st.st_mode) || st.st_uid != geteuid() ||
      st.st_nlink != 1) {
    syscall(SYS_close, fd);
    return -1;
  }
  return fd;
}

// PROVIO_LOG is opened for each message and closed after it: a descriptor kept open could be
// closed and its number reused by the application, and the next warning would land in its file.
void write_line(const char* line, std::size_t n) {
  const char* path = std::getenv("PROVIO_LOG");
  long fd = -1;
  if (path && *path && std::strcmp(path, "stderr") != 0) fd = open_log(path);
  [[maybe_unused]] long ignored = syscall(SYS_write, fd < 0 ? STDERR_FILENO : fd, line, n);
  if (fd >= 0) syscall(SYS_close, fd);
}

}  // namespace

void warn_once(const char* key, const char* fmt, ...) {
  int saved = errno;
  LogState& s = state();
  {
    std::lock_guard<std::mutex> lock(s.mutex);
    if (s.printed >= kMaxMessages || !first_time(s, key)) {
      errno = saved;
      return;
    }
    ++s.printed;
    char line[1024];
    int n = std::snprintf(line, sizeof line, "provio: ");
    va_list args;
    va_start(args, fmt);
    n += std::vsnprintf(line + n, sizeof line - static_cast<std::size_t>(n) - 1, fmt, args);
    va_end(args);
    if (n > static_cast<int>(sizeof line) - 2) n = static_cast<int>(sizeof line) - 2;
    line[n++] = '\n';
    write_line(line, static_cast<std::size_t>(n));
  }
  errno = saved;
}

int warnings_printed() {
  LogState& s = state();
  std::lock_guard<std::mutex> lock(s.mutex);
  return s.printed;
}

}  // namespace provio::model
