// The last flush before _exit or a terminating signal (see process_end.h).
#include "store/process_end.h"

#include <signal.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include <cstdint>

#include "model/config.h"
#include "model/errno_saver.h"
#include "model/identity.h"
#include "store/recorder.h"

namespace provio::store {
namespace {

// Whether this thread runs a crash handler: SIGSEGV, SIGBUS, SIGILL, SIGFPE or SIGABRT is blocked,
// as it is while its handler runs (MPI libraries and runtimes print a backtrace and _exit there).
// The heap may be what broke, and formatting a flush allocates: it could hang in malloc.
bool in_crash_handler() {
  sigset_t blocked;
  if (pthread_sigmask(SIG_BLOCK, nullptr, &blocked) != 0) return false;
  for (int sig : {SIGSEGV, SIGBUS, SIGILL, SIGFPE, SIGABRT}) {
    if (sigismember(&blocked, sig) == 1) return true;
  }
  return false;
}

// A flush that cannot finish must not keep the process from ending: a handler that interrupted
// malloc (its lock held by the frame below) and then flushes, which allocates, would wait for ever.
// A kernel timer ends the process with SIGKILL if it is still there PROVIO_EXIT_TIMEOUT seconds
// later. Raw syscalls: timer_create and timer_settime are not async-signal-safe in glibc's spelling.
void arm_end_deadline() {
  std::uint64_t ns = model::config().exit_timeout_ns;
  if (ns == 0) return;
  struct sigevent ev = {};
  ev.sigev_notify = SIGEV_SIGNAL;
  ev.sigev_signo = SIGKILL;
  int id = -1;  // the kernel's timer id (glibc's timer_t wraps it)
  if (syscall(SYS_timer_create, CLOCK_MONOTONIC, &ev, &id) != 0) return;
  struct itimerspec when = {};
  when.it_value.tv_sec = static_cast<time_t>(ns / 1'000'000'000);
  when.it_value.tv_nsec = static_cast<long>(ns % 1'000'000'000);
  syscall(SYS_timer_settime, id, 0, &when, nullptr);
}

}  // namespace

void flush_before_end(void (*first)()) {
  if (in_crash_handler()) return;
  model::ErrnoSaver saved;
  try {
    if (getpid() != model::identity().pid) return;
    arm_end_deadline();
    if (first) first();
    flush_at_process_end();
  } catch (...) {
    // out of memory while formatting: the process ends anyway
  }
}

}  // namespace provio::store
