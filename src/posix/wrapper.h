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
#include "model/tick_clock.h"
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

// Timing of one real call (model/tick_clock.h). The thread's clock bases are initial-exec TLS:
// the shim is loaded at start-up by LD_PRELOAD.
using model::clock::CallTimer;
using model::clock::Timing;
inline thread_local model::clock::ThreadClock tls_clock
    __attribute__((tls_model("initial-exec"))) = {0, 0, 0, 0, 0, 0};

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
  Timing timing = timer.stop(tls_clock);
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
