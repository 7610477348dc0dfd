// Start-up and fork handling of the preload shim, and the pieces of the wrapper skeleton that are
// not templates (see wrapper.h).
#include "posix/wrapper.h"

#include <dlfcn.h>
#include <pthread.h>
#include <unistd.h>

#include "model/identity.h"
#include "model/log.h"
#include "posix/fd_table.h"
#include "posix/paths.h"
#include "posix/process_end.h"
#include "posix/versions.h"
#include "store/exit_hook.h"
#include "store/recorder.h"

namespace provio::posix {

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
  store::note_exit_wrapped();  // process_end.cc wraps _exit: the connector needs no hook of its own
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
  model::clock::start_tick_clock();
  pthread_atfork(before_fork, after_fork_parent, after_fork_child);
}

}  // namespace
}  // namespace provio::posix
