// Start-up and fork handling of the preload shim, and the pieces of the wrapper skeleton that are
// not templates (see wrapper.h).
#include "posix/wrapper.h"

#include <dlfcn.h>
#include <pthread.h>

#include "model/identity.h"
#include "model/log.h"
#include "posix/fd_table.h"
#include "posix/paths.h"
#include "store/recorder.h"

namespace provio::posix {

thread_local bool tls_inside __attribute__((tls_model("initial-exec"))) = false;
thread_local WallOffset tls_wall __attribute__((tls_model("initial-exec"))) = {0, 0};

bool active() { return store::enabled(); }

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

void before_fork() { FdTable::lock_for_fork(); }
void after_fork_parent() { FdTable::unlock_after_fork(); }
void after_fork_child() {
  FdTable::unlock_after_fork();
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
  if (!store::enabled()) return;
  // Read the identity now, while the process is single-threaded and not in a vfork child: the
  // exec wrappers need it, and a fork child can only be told apart from its parent if the parent
  // had one.
  const model::Identity& id = model::identity();
  // Children this process starts by any means (system, popen, a raw clone + execve, a static
  // helper) inherit our run as their parent; the exec wrappers set it explicitly as well. The
  // identity has read the old value already. Single-threaded here, so setenv is safe.
  if (!id.exec_iri.empty()) setenv("PROVIO_PARENT_RUN", id.exec_iri.c_str(), 1);
  load_exclusions();
  pthread_atfork(before_fork, after_fork_parent, after_fork_child);
}

}  // namespace
}  // namespace provio::posix
