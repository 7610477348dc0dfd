// Start-up and fork handling of the preload shim, and the pieces of the wrapper skeleton that are
// not templates (see wrapper.h).
#include "posix/wrapper.h"

#include <dlfcn.h>
#include <fcntl.h>
#include <pthread.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <cstring>

#include "model/identity.h"
#include "model/log.h"
#include "posix/fd_table.h"
#include "posix/paths.h"
#include "posix/process_end.h"
#include "posix/versions.h"
#include "store/recorder.h"

namespace provio::posix {

std::atomic<std::uint64_t> g_tick_scale{0};

namespace {

bool g_counter_usable = false;    // set once at start-up
std::uint64_t g_calib_ticks = 0;  // counter and monotonic clock at start-up, for the scale
std::uint64_t g_calib_mono = 0;
constexpr std::uint64_t kCalibrateAfterNs = 50'000'000;
constexpr std::uint64_t kRefreshNs = 1'000'000'000;

#if defined(__x86_64__)

// Whether the file's first 16 KiB contain every word (start-up only, single-threaded).
bool file_has(const char* path, const char* const* words, std::size_t n) {
  int fd = static_cast<int>(syscall(SYS_openat, AT_FDCWD, path, O_RDONLY | O_CLOEXEC));
  if (fd < 0) return false;
  static char buf[16384];
  ssize_t len = syscall(SYS_read, fd, buf, sizeof buf - 1);
  syscall(SYS_close, fd);
  if (len <= 0) return false;
  buf[len] = '\0';
  for (std::size_t i = 0; i < n; ++i) {
    if (!std::strstr(buf, words[i])) return false;
  }
  return true;
}

bool counter_usable() {
  static const char* const kFlags[] = {" constant_tsc", " nonstop_tsc"};
  static const char* const kSource[] = {"tsc"};
  return file_has("/proc/cpuinfo", kFlags, 2) &&
         file_has("/sys/devices/system/clocksource/clocksource0/current_clocksource", kSource, 1);
}
#else
bool counter_usable() {
  return false;
}
#endif

void start_clock() {
  if (!counter_usable()) return;
  g_calib_mono = model::clock::mono_ns();
  g_calib_ticks = read_counter();
  g_counter_usable = true;
}

// ns per tick << 32 from the baseline since start-up (0 if too short yet).
std::uint64_t calibrate() {
  std::uint64_t mono = model::clock::mono_ns();
  std::uint64_t ticks = read_counter();
  if (mono - g_calib_mono < kCalibrateAfterNs || ticks <= g_calib_ticks) return 0;
  std::uint64_t scale = static_cast<std::uint64_t>(
      (static_cast<unsigned __int128>(mono - g_calib_mono) << 32) / (ticks - g_calib_ticks));
  g_tick_scale.store(scale, std::memory_order_relaxed);
  return scale;
}

}  // namespace

void refresh_counter_base(std::uint64_t ticks) {
  ThreadClock& c = tls_clock;
  std::uint64_t scale = calibrate();  // refined at every refresh: a longer baseline, a better scale
  if (scale == 0) scale = g_tick_scale.load(std::memory_order_relaxed);
  std::uint64_t now = read_counter();
  std::uint64_t wall = model::clock::wall_ns();
  // The base is the call's own start, so that its start time needs no extrapolation backwards.
  c.tick_base = ticks;
  c.tick_wall = wall - ticks_to_ns(now > ticks ? now - ticks : 0, scale);
  c.tick_scale = scale;
  c.tick_refresh = ticks + (kRefreshNs << 32) / scale;
}

void refresh_mono_base(std::uint64_t mono) {
  ThreadClock& c = tls_clock;
  c.mono_offset = model::clock::wall_ns() - model::clock::mono_ns();
  c.mono_refresh = mono + kRefreshNs;
  if (g_counter_usable && g_tick_scale.load(std::memory_order_relaxed) == 0 && calibrate() == 0) {
    c.mono_refresh = mono + kCalibrateAfterNs / 5;  // look again soon
  }
}

void* find_next(const char* name) {
  Inside inside;
  model::ErrnoSaver saved;
  return dlsym(RTLD_NEXT, name);
}

void report_missing(const char* name) {
  Inside inside;
  model::ErrnoSaver saved;
  model::warn_once(name, "libprovio_posix: the real '%s' was not found; the call fails with ENOSYS", name);
}

namespace {

void before_fork() {
  end_write_runs_before_fork();
  FdTable::lock_for_fork();
}
void after_fork_parent() {
  FdTable::unlock_after_fork();
}
void after_fork_child() {
  FdTable::unlock_after_fork();
  forget_write_runs();
  // The child is a new program execution (its parent: the one that forked). The core does this
  // too once it has recorded something; the call is idempotent, and this makes it happen even in
  // a process (a shell) that forks before its first recorded event.
  Inside inside;
  model::ErrnoSaver saved;
  model::renew_identity_after_fork();
}

// Runs after libprovio's own initialisation (it is a dependency). Calls made before this (by
// other libraries' constructors) are already handled: every symbol resolves itself lazily.
__attribute__((constructor)) void start() {
  Inside inside;
  model::ErrnoSaver saved;
  bool on = store::enabled();
  // Read the identity now, while the process is single-threaded and not in a vfork child: the
  // exec wrappers need it, a fork child can only be told apart from its parent if the parent had
  // one, and it takes the parent-run link the caller's exec wrapper added to our environment.
  if (on) model::identity();
  // The program sees the environment it was given: that link is removed. The children this
  // process starts get it from the exec, spawn, system and popen wrappers. Single-threaded here,
  // so unsetenv is safe.
  unsetenv("PROVIO_PARENT_RUN");
  if (!on) return;
  load_exclusions();
  install_end_handlers();
  start_clock();
  pthread_atfork(before_fork, after_fork_parent, after_fork_child);
}

}  // namespace
}  // namespace provio::posix
