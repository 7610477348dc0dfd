// Flushing at the end of a process (see process_end.h).
//
// Hard rule: the application sees the signal dispositions it set, its handlers run exactly as
// without provio, and it ends with the same status. provio's handler is installed only for a
// signal whose disposition is the default, and only the wrapped sigaction()/signal() know it is
// there: they answer the application's queries from what it set. When the application sets a
// handler or SIG_IGN, exactly that is installed (its handler runs unchanged; its exit path flushes
// through exit or _exit); when it sets SIG_DFL again, provio's handler goes back. provio's handler
// flushes, restores the default and re-raises the signal, so the process dies of it as before.
#include "posix/process_end.h"

#include <signal.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <atomic>
#include <cstddef>

#include "model/errno_saver.h"
#include "posix/export.h"
#include "posix/versions.h"
#include "posix/wrapper.h"
#include "store/process_end.h"

namespace provio::posix {
namespace {

constexpr int kEndSignals[] = {SIGTERM, SIGINT, SIGHUP, SIGXCPU};

// One terminating signal: whether provio's handler is installed, and what the application set (or
// what was there at start-up) — what its queries get back while provio's handler is installed.
// Calls of sigaction for one signal from several threads at once race in the application already.
struct EndSignal {
  std::atomic<bool> ours{false};
  struct sigaction app = {};
};
EndSignal g_end[sizeof kEndSignals / sizeof kEndSignals[0]];

Symbol<decltype(&::sigaction)> s_sigaction{"sigaction"};
Symbol<decltype(&::signal)> s_signal{"signal"};
Symbol<decltype(&::_exit)> s__exit{"_exit"};
Symbol<decltype(&::_Exit)> s__Exit{"_Exit"};

EndSignal* end_signal(int sig) {
  for (std::size_t i = 0; i < sizeof kEndSignals / sizeof kEndSignals[0]; ++i) {
    if (kEndSignals[i] == sig) return &g_end[i];
  }
  return nullptr;
}

bool is_default(const struct sigaction& a) {
  return !(a.sa_flags & SA_SIGINFO) && a.sa_handler == SIG_DFL;
}

// The last flush, unless this thread is inside provio (a signal that interrupted a record may have
// left a lock the flush needs held) or recording is off.
void flush_before_end() {
  if (tls_inside || !active()) return;
  Inside inside;
  store::flush_before_end(end_write_runs);  // held closes name their versions (posix/versions.h)
}

void on_end_signal(int sig) {
  model::ErrnoSaver saved;
  flush_before_end();
  // Die of the signal as without provio: the default action, delivered once the handler's mask
  // no longer blocks it.
  struct sigaction dfl = {};
  dfl.sa_handler = SIG_DFL;
  passthrough(s_sigaction, sig, &dfl, nullptr);
  if (EndSignal* e = end_signal(sig)) e->ours.store(false, std::memory_order_relaxed);
  syscall(SYS_tgkill, getpid(), syscall(SYS_gettid), sig);
  sigset_t set;
  sigemptyset(&set);
  sigaddset(&set, sig);
  pthread_sigmask(SIG_UNBLOCK, &set, nullptr);
}

bool install_ours(int sig) {
  struct sigaction ours = {};
  ours.sa_handler = on_end_signal;
  sigemptyset(&ours.sa_mask);
  ours.sa_flags = SA_RESTART;
  return passthrough(s_sigaction, sig, &ours, nullptr) == 0;
}

}  // namespace

void install_end_handlers() {
  for (int sig : kEndSignals) {
    EndSignal* e = end_signal(sig);
    // SIG_IGN stays (nohup, background jobs): the program never ends by that signal.
    if (passthrough(s_sigaction, sig, nullptr, &e->app) == 0 && is_default(e->app) && install_ours(sig)) {
      e->ours.store(true, std::memory_order_relaxed);
    }
  }
}

}  // namespace provio::posix

using provio::posix::end_signal;
using provio::posix::EndSignal;
using provio::posix::passthrough;

PROVIO_EXPORT int sigaction(int sig, const struct sigaction* act, struct sigaction* old) noexcept {
  EndSignal* e = end_signal(sig);
  if (!e) return passthrough(provio::posix::s_sigaction, sig, act, old);
  if (e->ours.load(std::memory_order_relaxed)) {
    struct sigaction was = e->app;
    if (act && !provio::posix::is_default(*act)) {
      int r = passthrough(provio::posix::s_sigaction, sig, act, nullptr);
      if (r != 0) return r;
      e->ours.store(false, std::memory_order_relaxed);
    }
    if (act) e->app = *act;
    if (old) *old = was;
    return 0;
  }
  int r = passthrough(provio::posix::s_sigaction, sig, act, old);
  if (r == 0 && act && provio::posix::is_default(*act) && provio::posix::active() &&
      provio::posix::install_ours(sig)) {
    e->app = *act;
    e->ours.store(true, std::memory_order_relaxed);
  }
  return r;
}

// glibc's signal(): BSD semantics (the signal blocked in its handler, system calls restarted).
PROVIO_EXPORT sighandler_t signal(int sig, sighandler_t handler) noexcept {
  if (!end_signal(sig) || handler == SIG_ERR) return passthrough(provio::posix::s_signal, sig, handler);
  struct sigaction act = {};
  struct sigaction old = {};
  act.sa_handler = handler;
  sigemptyset(&act.sa_mask);
  sigaddset(&act.sa_mask, sig);
  act.sa_flags = SA_RESTART;
  return sigaction(sig, &act, &old) == 0 ? old.sa_handler : SIG_ERR;
}

PROVIO_EXPORT void _exit(int status) noexcept {
  provio::posix::flush_before_end();
  if (auto fn = provio::posix::s__exit.real()) fn(status);
  syscall(SYS_exit_group, status);
  __builtin_unreachable();
}

PROVIO_EXPORT void _Exit(int status) noexcept {
  provio::posix::flush_before_end();
  if (auto fn = provio::posix::s__Exit.real()) fn(status);
  syscall(SYS_exit_group, status);
  __builtin_unreachable();
}
