// exec and spawn: what the wrappers of posix_abi.cc do around the real call. The program is
// recorded before it (a successful exec does not return), with the versions of the files the
// image hands to it on descriptors it never read (versions.h), every thread's provenance is flushed
// when this image is replaced (exec discards its buffers), and the child is given an environment
// that names this run as its parent (exec_env.h).
//
// Hard rule: no allocation between the caller's exec and the real call (a vfork child shares
// its parent's heap and locks); the child's environment and argv live on the wrapper's stack.
//
// posix_abi.cc is its only includer; internal linkage (an unnamed namespace), as for recorders.h.
#pragma once

#include <alloca.h>
#include <stdarg.h>
#include <unistd.h>

#include <cstddef>
#include <string>

#include "model/clock.h"
#include "model/entities.h"
#include "model/errno_saver.h"
#include "model/identity.h"
#include "model/iri.h"
#include "posix/exec_env.h"
#include "posix/paths.h"
#include "posix/recorders.h"
#include "posix/versions.h"
#include "posix/wrapper.h"
#include "store/recorder.h"

namespace provio::posix {
namespace {

constexpr std::size_t kMaxArgs = 1 << 16;  // longer execl lists are cut there

// The executable as an entity, or kNoEntity when `path` is no executable file. Exclusions do not
// apply: which program ran is provenance even when it lives in /usr/bin.
EntityId program_entity(const std::string& path) {
  // The record is made before the real call (a successful exec does not return). Callers that do
  // their own PATH search (Python's subprocess) try names that do not exist: no record for those.
  if (path.empty() || access(path.c_str(), X_OK) != 0) return kNoEntity;
  return model::canonical_file_entity(model::canonical_path(path), EntityClass::kFile);
}

// execl and friends: the arguments after `arg0` up to the terminating null pointer (counted
// without using up `ap`).
std::size_t count_args(va_list ap) {
  va_list count;
  va_copy(count, ap);
  std::size_t argc = 1;
  while (argc < kMaxArgs && va_arg(count, char*)) ++argc;
  va_end(count);
  return argc;
}

// Fills `argv` (room for argc + 1) and returns what follows the null pointer when `with_env`
// (execle's environment). `ap` is used up.
char* const* collect_args(char** argv, const char* arg0, std::size_t argc, va_list ap, bool with_env) {
  argv[0] = const_cast<char*>(arg0);
  for (std::size_t i = 1; i < argc; ++i) argv[i] = va_arg(ap, char*);
  argv[argc] = nullptr;
  if (!with_env) return nullptr;
  (void)va_arg(ap, char*);  // the terminating null pointer
  return va_arg(ap, char* const*);
}

// Whether the call replaces this image (exec: flush everything first) or starts a child (spawn).
enum class Hand { kOver, kSpawn };

// Records the exec of `program()`, flushes every thread's provenance when this image ends (exec
// discards it and its buffers) and fills `out` with the child's environment. false: go straight
// through. In a child that shares our memory without being a fork child (a raw vfork or clone
// that bypassed the shim: another pid) it only prepares the environment.
template <typename Fn, typename Program>
bool before_exec(const Symbol<Fn>& sym, Hand hand, Program program, char* const* envp, char** out,
                 char* entry) {
  if (!out || tls_inside || !active()) return false;
  Inside inside;
  model::ErrnoSaver saved;
  try {
    const model::Identity& id = model::identity();
    if (getpid() == id.pid) {
      model::clock::Stopwatch watch;
      emit(Op::kAccess, sym.api(), program(), 0, kNoOffset, Timing{watch.start_wall_ns(), 0});
      if (hand == Hand::kOver) {
        record_handed_versions(sym.api());
        store::flush_all_to_files();
      }
    }
    if (!parent_run_entry(entry)) return false;
  } catch (...) {
    return false;
  }
  child_env(out, envp, entry);
  return true;
}

// Runs `call(envp)` with the child environment, built on this frame's stack (alloca: the memory
// must outlive the real exec call, which happens inside `call`).
template <typename Fn, typename Program, typename Call>
int with_child_env(const Symbol<Fn>& sym, Hand hand, Program program, char* const* envp, Call call) {
  std::size_t n = env_count(envp);
  char** env = n < kMaxEnv ? static_cast<char**>(alloca((n + 2) * sizeof(char*))) : nullptr;
  char entry[kEntrySize];
  return call(before_exec(sym, hand, program, envp, env, entry) ? env : envp);
}

// The real functions every exec variant ends in (execv, execl, … are recorded under their own
// names but call these, with the child's environment). The type is written out:
// decltype(&::execve) carries glibc's nonnull attribute, which a function pointer type cannot hold.
using ExecFn = int (*)(const char*, char* const*, char* const*);
Symbol<ExecFn> s_real_execve{"execve"};
Symbol<ExecFn> s_real_execvpe{"execvpe"};

// execve / execvpe with our environment; `search`: look `file` up in PATH as execvp does.
template <typename Fn>
int exec_with(const Symbol<Fn>& sym, bool search, const char* file, char* const* argv, char* const* envp) {
  auto program = [search, file] {
    return program_entity(search ? search_path(file) : std::string(file ? file : ""));
  };
  return with_child_env(sym, Hand::kOver, program, envp, [search, file, argv](char* const* env) {
    return search ? passthrough(s_real_execvpe, file, argv, env)
                  : passthrough(s_real_execve, file, argv, env);
  });
}

// execl, execlp, execle: the caller's variadic list (`ap`, after `arg0`) as an argv array on this
// frame's stack, then exec_with. `with_env`: the list ends with execle's environment; without it
// the child gets `environ`.
template <typename Fn>
int exec_list(const Symbol<Fn>& sym, bool search, const char* file, const char* arg0, va_list ap,
              bool with_env) {
  std::size_t argc = count_args(ap);
  char** argv = static_cast<char**>(alloca((argc + 1) * sizeof(char*)));
  char* const* envp = collect_args(argv, arg0, argc, ap, with_env);
  return exec_with(sym, search, file, argv, with_env ? envp : environ);
}

}  // namespace
}  // namespace provio::posix
