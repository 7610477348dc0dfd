// Timing of one underlying call (POSIX wrapper or forwarded HDF5 call): wall-clock start and
// monotonic duration, from two reads of the CPU's time-stamp counter (~11 ns each here, against
// ~29 ns for a vDSO clock_gettime) where the counter is invariant (x86-64 with constant_tsc and
// nonstop_tsc, and the kernel's clocksource is tsc), converted to ns with a scale calibrated
// against CLOCK_MONOTONIC over the process's lifetime. Elsewhere, and in a process's first 50 ms
// while the scale is unknown, two monotonic reads. The wall-clock start is a per-thread base
// re-read every second plus the time since, so a clock step shows in start times within a second
// and durations never see it.
// Hard rule: the per-thread state (ThreadClock) belongs to the caller, so each layer picks its TLS
// model: the preload shim's is initial-exec; the VOL plugin, loaded by dlopen, must not use it.
#pragma once

#include <atomic>
#include <cstdint>

#include "model/clock.h"

namespace provio::model::clock {

struct Timing {
  std::uint64_t start_ns = 0;
  std::uint64_t elapsed_ns = 0;
};

// One thread's bases. Constant-initialisable (all zero: the first call refreshes).
struct ThreadClock {
  std::uint64_t tick_base;     // counter at the last refresh
  std::uint64_t tick_wall;     // wall clock then
  std::uint64_t tick_refresh;  // counter value after which to refresh
  std::uint64_t tick_scale;    // ns per tick << 32 for this base
  std::uint64_t mono_offset;   // wall − monotonic
  std::uint64_t mono_refresh;  // monotonic ns after which to refresh
};

// ns per tick << 32; 0 while unknown or when the counter is not used.
extern std::atomic<std::uint64_t> g_tick_scale;

// Decides once whether the counter is usable and starts its calibration (idempotent).
void start_tick_clock();

inline std::uint64_t read_counter() {
#if defined(__x86_64__)
  return __builtin_ia32_rdtsc();
#else
  return 0;  // never used: the counter is only used on x86-64 (g_tick_scale stays 0)
#endif
}
void refresh_counter_base(ThreadClock& c, std::uint64_t ticks);
void refresh_mono_base(ThreadClock& c, std::uint64_t mono);  // also calibrates when it is time

inline std::uint64_t ticks_to_ns(std::uint64_t ticks, std::uint64_t scale) {
  return static_cast<std::uint64_t>((static_cast<unsigned __int128>(ticks) * scale) >> 32);
}

class CallTimer {
 public:
  CallTimer()
      : counter_(g_tick_scale.load(std::memory_order_relaxed) != 0),
        start_(counter_ ? read_counter() : mono_ns()) {}

  // Always inline: GCC left it out of line in the larger wrappers (open, close, fclose), a call
  // and a frame for every recorded call there.
  [[gnu::always_inline]] Timing stop(ThreadClock& c) const {
    if (counter_) {
      std::uint64_t end = read_counter();
      if (start_ >= c.tick_refresh || start_ < c.tick_base) refresh_counter_base(c, start_);
      std::uint64_t elapsed = end > start_ ? ticks_to_ns(end - start_, c.tick_scale) : 0;
      return Timing{c.tick_wall + ticks_to_ns(start_ - c.tick_base, c.tick_scale), elapsed};
    }
    std::uint64_t end = mono_ns();
    if (start_ >= c.mono_refresh) refresh_mono_base(c, start_);
    return Timing{start_ + c.mono_offset, end - start_};
  }

 private:
  bool counter_;
  std::uint64_t start_;
};

}  // namespace provio::model::clock
