// The one skeleton every POSIX / stdio wrapper of the preload shim runs through:
//
//   resolve the real symbol (lazily, once) → if recording is off or we are already inside provio,
//   call straight through → time the real call → capture errno → record → restore errno → return
//   the real result unchanged.
//
// Hard rule: nothing here may change what the application observes. The real call's result is
// returned as is, errno is restored on every exit (model::ErrnoSaver), and everything provio does
// while recording (interning a path, flushing a buffer, resolving an inherited descriptor) runs
// with the thread's "inside" flag set, so the I/O the core or libc does on our behalf goes straight
// to the real functions instead of being recorded, or recursing. A signal handler that interrupts
// the recording goes straight through too; one that interrupts the real call is recorded.
#pragma once

#include <atomic>
#include <cerrno>
#include <cstdint>
#include <type_traits>

#include "model/api_names.h"
#include "model/clock.h"
#include "model/errno_saver.h"
#include "model/event.h"
#include "store/recorder.h"

namespace provio::posix {

// True while this thread runs provio code (recording, and the I/O the core or libc does for it).
// initial-exec TLS: the shim is loaded at start-up by LD_PRELOAD, and a guard read must not cost
// a __tls_get_addr call. Defined here (an inline variable, constant-initialised) so that no use
// pays the check for a dynamic initialiser that an extern thread_local would.
inline thread_local bool tls_inside __attribute__((tls_model("initial-exec"))) = false;

// Whether the shim records at all (level != off and the library is initialised). Relaxed load.
inline bool active() {
  return store::enabled();
}

// Sets the "inside provio" flag for a scope.
class Inside {
 public:
  Inside() : was_(tls_inside) { tls_inside = true; }
  ~Inside() { tls_inside = was_; }
  Inside(const Inside&) = delete;
  Inside& operator=(const Inside&) = delete;

 private:
  bool was_;
};

// Reports a symbol the dynamic linker could not find, once (then the wrapper fails with ENOSYS).
void report_missing(const char* name);

// One interposed function: its name, its real implementation (dlsym(RTLD_NEXT) on first use, so
// calls that precede our constructor work) and its interned API id. Constant-initialised, so a
// wrapper called before any constructor still finds a valid, empty object.
template <typename Fn>
class Symbol {
 public:
  // `api_name`: what provenance calls it. Fortified, 64-bit-offset and _unlocked variants are
  // recorded under the plain POSIX name (`__open64_2` → "open"): the compiler picked them, not the
  // programmer, and the same program built with other flags must give the same provenance.
  constexpr explicit Symbol(const char* name, const char* api_name = nullptr)
      : name_(name), api_name_(api_name ? api_name : name) {}
  const char* name() const { return name_; }

  Fn real() const {
    Fn f = fn_.load(std::memory_order_acquire);
    return f ? f : resolve();
  }
  // Interned on the first recorded call (takes the core's lock once).
  model::ApiId api() const {
    model::ApiId id = api_.load(std::memory_order_relaxed);
    if (id == 0) {
      id = model::api_id(api_name_);
      api_.store(id, std::memory_order_relaxed);
    }
    return id;
  }

 private:
  Fn resolve() const;
  const char* name_;
  const char* api_name_;
  mutable std::atomic<Fn> fn_{nullptr};
  mutable std::atomic<model::ApiId> api_{0};
};

void* find_next(const char* name);

template <typename Fn>
Fn Symbol<Fn>::resolve() const {
  Fn f = reinterpret_cast<Fn>(find_next(name_));
  if (f) fn_.store(f, std::memory_order_release);
  return f;
}

// Timing of one real call: wall-clock start and monotonic duration.
struct Timing {
  std::uint64_t start_ns;
  std::uint64_t elapsed_ns;
};

// Timing costs most of a recorded call, so it is done cheaply: two reads of the CPU's time-stamp
// counter (~11 ns each here, against ~29 ns for a vDSO clock_gettime) where the counter is
// invariant (x86-64 with constant_tsc and nonstop_tsc, and the kernel's clocksource is tsc),
// converted to ns with a scale calibrated against CLOCK_MONOTONIC over the process's lifetime.
// Elsewhere, and in a process's first 50 ms while the scale is unknown, two monotonic reads. The
// wall-clock start is a per-thread base re-read every second plus the time since, so a clock step
// shows in start times within a second and durations never see it.
struct ThreadClock {
  std::uint64_t tick_base;     // counter at the last refresh
  std::uint64_t tick_wall;     // wall clock then
  std::uint64_t tick_refresh;  // counter value after which to refresh
  std::uint64_t tick_scale;    // ns per tick << 32 for this base
  std::uint64_t mono_offset;   // wall − monotonic
  std::uint64_t mono_refresh;  // monotonic ns after which to refresh
};
inline thread_local ThreadClock tls_clock __attribute__((tls_model("initial-exec"))) = {0, 0, 0, 0, 0, 0};
// ns per tick << 32; 0 while unknown or when the counter is not used.
extern std::atomic<std::uint64_t> g_tick_scale;

inline std::uint64_t read_counter() {
#if defined(__x86_64__)
  return __builtin_ia32_rdtsc();
#else
  return 0;  // never used: the counter is only used on x86-64 (g_tick_scale stays 0)
#endif
}
void refresh_counter_base(std::uint64_t ticks);
void refresh_mono_base(std::uint64_t mono);  // also calibrates the counter when it is time

inline std::uint64_t ticks_to_ns(std::uint64_t ticks, std::uint64_t scale) {
  return static_cast<std::uint64_t>((static_cast<unsigned __int128>(ticks) * scale) >> 32);
}

class CallTimer {
 public:
  CallTimer()
      : counter_(g_tick_scale.load(std::memory_order_relaxed) != 0),
        start_(counter_ ? read_counter() : model::clock::mono_ns()) {}

  Timing stop() const {
    ThreadClock& c = tls_clock;
    if (counter_) {
      std::uint64_t end = read_counter();
      if (start_ >= c.tick_refresh || start_ < c.tick_base) refresh_counter_base(start_);
      std::uint64_t elapsed = end > start_ ? ticks_to_ns(end - start_, c.tick_scale) : 0;
      return Timing{c.tick_wall + ticks_to_ns(start_ - c.tick_base, c.tick_scale), elapsed};
    }
    std::uint64_t end = model::clock::mono_ns();
    if (start_ >= c.mono_refresh) refresh_mono_base(start_);
    return Timing{start_ + c.mono_offset, end - start_};
  }

 private:
  bool counter_;
  std::uint64_t start_;
};

template <typename R>
R failure_value() {
  if constexpr (std::is_pointer_v<R>)
    return nullptr;
  else
    return static_cast<R>(-1);
}

// The real function only, for call sites that must always go straight through. A symbol that
// cannot be resolved fails the call with ENOSYS (and is reported once).
template <typename Fn, typename... Args>
auto passthrough(const Symbol<Fn>& sym, Args... args) {
  Fn fn = sym.real();
  using R = decltype(fn(args...));
  if (!fn) {
    report_missing(sym.name());
    errno = ENOSYS;
    return failure_value<R>();
  }
  return fn(args...);
}

// The wrapper skeleton. `record(result, timing)` runs after the real call with errno saved and
// the inside flag set; it must not fail the call. `args` are forwarded to the real function.
template <typename Fn, typename Record, typename... Args>
auto traced(const Symbol<Fn>& sym, Record&& record, Args... args) {
  Fn fn = sym.real();
  if (!fn || tls_inside || !active()) return passthrough(sym, args...);
  using R = decltype(fn(args...));
  // The flag is not held across the real call: a signal handler that does I/O while the call
  // blocks is recorded like any other code (libc's functions call each other directly, not
  // through the symbols we interpose, so the real call itself never comes back here).
  CallTimer timer;
  R result = fn(args...);
  Timing timing = timer.stop();
  model::ErrnoSaver saved;  // errno as the real call left it, restored on every exit
  Inside inside;
  try {
    record(result, timing);
  } catch (...) {
    // Out of memory while interning a name: lose this record, never the application's call.
  }
  return result;
}

}  // namespace provio::posix
