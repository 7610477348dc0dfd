// Calibration of the time-stamp counter and the per-thread bases (see tick_clock.h).
#include "model/tick_clock.h"

#include <fcntl.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <cstring>
#include <mutex>

namespace provio::model::clock {

std::atomic<std::uint64_t> g_tick_scale{0};

namespace {

std::atomic<bool> g_counter_usable{false};  // set once, by start_tick_clock
std::uint64_t g_calib_ticks = 0;            // counter and monotonic clock at the start, for the scale
std::uint64_t g_calib_mono = 0;
constexpr std::uint64_t kCalibrateAfterNs = 50'000'000;
constexpr std::uint64_t kRefreshNs = 1'000'000'000;

#if defined(__x86_64__)

// Whether the file's first 16 KiB contain every word. Raw syscalls: the preload shim's wrappers
// must not see provio's own reads.
bool file_has(const char* path, const char* const* words, std::size_t n) {
  int fd = static_cast<int>(syscall(SYS_openat, AT_FDCWD, path, O_RDONLY | O_CLOEXEC));
  if (fd < 0) return false;
  static char buf[16384];  // start_tick_clock's once_flag serialises its only caller
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

// ns per tick << 32 from the baseline since the start (0 if too short yet).
std::uint64_t calibrate() {
  if (!g_counter_usable.load(std::memory_order_acquire)) return 0;
  std::uint64_t mono = mono_ns();
  std::uint64_t ticks = read_counter();
  if (mono - g_calib_mono < kCalibrateAfterNs || ticks <= g_calib_ticks) return 0;
  std::uint64_t scale = static_cast<std::uint64_t>(
      (static_cast<unsigned __int128>(mono - g_calib_mono) << 32) / (ticks - g_calib_ticks));
  g_tick_scale.store(scale, std::memory_order_relaxed);
  return scale;
}

}  // namespace

void start_tick_clock() {
  static std::once_flag once;
  std::call_once(once, [] {
    if (!counter_usable()) return;
    g_calib_mono = mono_ns();
    g_calib_ticks = read_counter();
    g_counter_usable.store(true, std::memory_order_release);
  });
}

void refresh_counter_base(ThreadClock& c, std::uint64_t ticks) {
  std::uint64_t scale = calibrate();  // refined at every refresh: a longer baseline, a better scale
  if (scale == 0) scale = g_tick_scale.load(std::memory_order_relaxed);
  std::uint64_t now = read_counter();
  std::uint64_t wall = wall_ns();
  // The base is the call's own start, so that its start time needs no extrapolation backwards.
  c.tick_base = ticks;
  c.tick_wall = wall - ticks_to_ns(now > ticks ? now - ticks : 0, scale);
  c.tick_scale = scale;
  c.tick_refresh = ticks + (kRefreshNs << 32) / scale;
}

void refresh_mono_base(ThreadClock& c, std::uint64_t mono) {
  c.mono_offset = wall_ns() - mono_ns();
  c.mono_refresh = mono + kRefreshNs;
  if (g_counter_usable.load(std::memory_order_acquire) && g_tick_scale.load(std::memory_order_relaxed) == 0 &&
      calibrate() == 0) {
    c.mono_refresh = mono + kCalibrateAfterNs / 5;  // look again soon
  }
}

}  // namespace provio::model::clock
