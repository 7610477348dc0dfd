// system() and popen(): the children they start link to this run as their parent.
//
// glibc starts /bin/sh for them through its internal posix_spawn, which no wrapper sees, with the
// environment `environ` holds at that moment. The program's own environment does not carry
// PROVIO_PARENT_RUN: the library removes it at start-up, so that a program sees exactly the
// environment it was given (docs/posix.md). So for the duration of the real call only, `environ`
// points to a copy with the entry added, built on this frame (exec_env.h: no allocation).
// Another thread that reads the environment meanwhile sees the entry too; one that changes it
// keeps its change (the copy is put back only if `environ` still points to it).
#include <alloca.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "posix/exec_env.h"
#include "posix/export.h"
#include "posix/wrapper.h"

namespace provio::posix {
namespace {

Symbol<decltype(&::system)> s_system{"system"};
Symbol<decltype(&::popen)> s_popen{"popen"};

template <typename Call>
auto with_parent_run_in_environ(Call call) {
  if (tls_inside || !active()) return call();
  std::size_t n = env_count(environ);
  char entry[kEntrySize];
  bool ready = false;
  {
    Inside inside;
    model::ErrnoSaver saved;
    try {
      ready = n < kMaxEnv && parent_run_entry(entry);
    } catch (...) {
    }
  }
  if (!ready) return call();
  char** env = static_cast<char**>(alloca((n + 2) * sizeof(char*)));
  child_env(env, environ, entry);
  char** own = environ;
  environ = env;
  auto result = call();
  if (environ == env) environ = own;
  return result;
}

}  // namespace
}  // namespace provio::posix

PROVIO_EXPORT int system(const char* command) {
  using namespace provio::posix;
  return with_parent_run_in_environ([command] { return passthrough(s_system, command); });
}

PROVIO_EXPORT FILE* popen(const char* command, const char* mode) {
  using namespace provio::posix;
  return with_parent_run_in_environ([command, mode] { return passthrough(s_popen, command, mode); });
}
