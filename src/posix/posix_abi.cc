// The C ABI of the preload shim: every interposed POSIX and stdio function, including the glibc
// entry points that Debian-built programs call instead of the plain names (__open_2, __read_chk,
// __fprintf_chk, …) and the pre-2.33 stat family (__xstat, …). docs/posix.md lists them and what
// each records.
//
// Hard rule: each exported function is one call of the skeleton in wrapper.h (resolve, guard,
// time, call, save errno, record, restore errno), with a recorder built by one of the helpers
// below; nothing here returns anything but the real function's result. Failed calls record
// nothing.
#include <alloca.h>
#include <dirent.h>
#include <fcntl.h>
#include <spawn.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/sendfile.h>
#include <sys/stat.h>
#include <sys/uio.h>
#include <unistd.h>

#include <string>

#include "model/entities.h"
#include "model/identity.h"
#include "model/iri.h"
#include "posix/call_args.h"
#include "posix/exec_env.h"
#include "posix/fd_table.h"
#include "posix/paths.h"
#include "posix/store_state.h"
#include "posix/versions.h"
#include "posix/wrapper.h"
#include "store/recorder.h"

// decltype(&::open) carries glibc's nonnull / warn_unused_result attributes, which a function
// pointer type cannot hold; dropping them is what we want.
#pragma GCC diagnostic ignored "-Wignored-attributes"

#define PROVIO_EXPORT extern "C" __attribute__((visibility("default")))

// glibc's fortified and compatibility entry points, which its headers declare only under
// _FORTIFY_SOURCE or not at all any more.
extern "C" {
int __open_2(const char* path, int flags);
int __open64_2(const char* path, int flags);
int __openat_2(int dirfd, const char* path, int flags);
int __openat64_2(int dirfd, const char* path, int flags);
ssize_t __read_chk(int fd, void* buf, size_t n, size_t buflen);
ssize_t __pread_chk(int fd, void* buf, size_t n, off_t offset, size_t buflen);
ssize_t __pread64_chk(int fd, void* buf, size_t n, off64_t offset, size_t buflen);
size_t __fread_chk(void* ptr, size_t ptrlen, size_t size, size_t n, FILE* f);
size_t __fread_unlocked_chk(void* ptr, size_t ptrlen, size_t size, size_t n, FILE* f);
char* __fgets_chk(char* s, size_t size, int n, FILE* f);
char* __fgets_unlocked_chk(char* s, size_t size, int n, FILE* f);
int __fprintf_chk(FILE* f, int flag, const char* fmt, ...);
int __vfprintf_chk(FILE* f, int flag, const char* fmt, va_list ap);
int __printf_chk(int flag, const char* fmt, ...);
int __vprintf_chk(int flag, const char* fmt, va_list ap);
int __xstat(int ver, const char* path, struct stat* st);
int __xstat64(int ver, const char* path, struct stat64* st);
int __lxstat(int ver, const char* path, struct stat* st);
int __lxstat64(int ver, const char* path, struct stat64* st);
int __fxstat(int ver, int fd, struct stat* st);
int __fxstat64(int ver, int fd, struct stat64* st);
int __fxstatat(int ver, int dirfd, const char* path, struct stat* st, int flags);
int __fxstatat64(int ver, int dirfd, const char* path, struct stat64* st, int flags);
}

namespace provio::posix {
namespace {

using model::EntityClass;
using model::EntityId;
using model::kNoEntity;
using model::kNoOffset;
using model::Op;

[[gnu::always_inline]] inline void emit(Op op, model::ApiId api, EntityId e, std::uint64_t bytes,
                                        std::int64_t offset, const Timing& t, EntityId other = kNoEntity) {
  if (e == kNoEntity) return;
  // POSIX calls HDF5 makes inside a VOL callback: the connector records the HDF5 call; these
  // stay visible but marked (kFlagNested), and the I/O statistics skip them (docs/posix.md).
  // The event is built before the state is looked up: a thread's first lookup calls into
  // libprovio, and nothing then lives across that call. Always inline: out of line (as GCC left
  // it in some recorders) the call and its frame were ~15 instructions per event.
  model::Event ev{op, model::kFlagNone, api, e, other, bytes, offset, t.start_ns, t.elapsed_ns};
  store::ThreadState* state = store_state();
  ev.flags = store::nested_flag(state);
  store::record_as_owner(state, ev);
}

// A transfer through a descriptor. A write makes its close end a write epoch; a read carries the
// version it reads (posix/versions.h). Recorded first, so the
// recorder's exit handler is registered before the one of versions.cc (which must run first).
// One copy per operation, chosen at compile time (one copy for both tested it at run time).
template <Op op>
void emit_transfer(model::ApiId api, int fd, std::uint64_t bytes, std::int64_t offset, const Timing& t);

// A write through a descriptor not yet resolved, or the image's first write epoch: the record,
// then the mark (whose first one registers the exit handler of versions.cc after the recorder's).
[[gnu::noinline]] void emit_first_write(model::ApiId api, int fd, std::uint64_t bytes, std::int64_t offset,
                                        const Timing& t) {
  emit(Op::kWrite, api, fd_entity(fd), bytes, offset, t);
  mark_written(fd);
}

template <>
void emit_transfer<Op::kWrite>(model::ApiId api, int fd, std::uint64_t bytes, std::int64_t offset,
                               const Timing& t) {
  std::uint32_t v = fd_table().get(fd);
  if (v == kIgnored) return;
  if (!slot_used(v) || !write_epochs_noted()) return emit_first_write(api, fd, bytes, offset, t);
  // Marked before the record, so that nothing follows it: nothing then lives across its call, and
  // no register is saved (every fwrite of a stream opened for appending marks it).
  mark_slot_written(fd, v);
  emit(Op::kWrite, api, slot_entity(v), bytes, offset, t);
}

template <>
void emit_transfer<Op::kRead>(model::ApiId api, int fd, std::uint64_t bytes, std::int64_t offset,
                              const Timing& t) {
  EntityId e = fd_entity(fd);
  emit(Op::kRead, api, e, bytes, offset, t, version_read(fd, e));
}

// The entity a used descriptor was bound to, without resolving unknown ones (for close: it is
// gone).
EntityId known_entity(int fd) {
  std::uint32_t v = fd_table().get(fd);
  return slot_used(v) ? slot_entity(v) : kNoEntity;
}

// A successful close; versions.cc records those that end a write epoch.
void record_close(model::ApiId api, int fd, const Timing& t, const PendingVersion& pending) {
  if (pending.file != kNoEntity) return record_written_close(api, t.start_ns, t.elapsed_ns, pending);
  emit(Op::kClose, api, known_entity(fd), 0, kNoOffset, t);
}

// Moving data through a descriptor (or changing its file) uses it; touching it does not.
EntityId fd_entity_for(Op op, int fd) {
  bool uses = op == Op::kRead || op == Op::kWrite || op == Op::kModify || op == Op::kOpen;
  return uses ? fd_entity(fd) : fd_entity_if_used(fd);
}

// ---- recorders: one per kind of call ----
//
// Each takes its wrapper's Symbol as a template argument (`opened<s_open>(…)`), so that every
// wrapper's recorder, and so its instance of traced(), is a type of its own. With the symbol as a
// function argument, twins of one signature (open and open64, fopen and fopen64, fwrite and
// fwrite_unlocked, pread and pread64) shared one out-of-line instance, called with the symbol
// and the recorder's captures through memory; now each is called once and inlined into its
// wrapper (fopen + fwrite + fclose −49 instructions, open + close −25, pread −23, stat −32).

template <const auto& sym>
auto opened(int dirfd, const char* path, int flags) {
  return [dirfd, path, flags](int fd, const Timing& t) {
    if (fd < 0) return;
    bool truncating = (flags & O_TRUNC) || creates(flags);  // starts a write epoch
    EntityId e = bind_opened(fd, dirfd, path, (flags & O_DIRECTORY) != 0, truncating ? kWritten : 0);
    emit(creates(flags) ? Op::kCreate : Op::kOpen, sym.api(), e, 0, kNoOffset, t);
    // After the record (emit_transfer says why); an untracked file starts no epoch.
    if (truncating && e != kNoEntity) note_write_epoch();
  };
}

// read, write and friends: the result is the number of bytes moved.
template <const auto& sym, Op op>
auto transfer(int fd, std::int64_t offset = kNoOffset) {
  return [fd, offset](auto result, const Timing& t) {
    if (result < 0) return;
    emit_transfer<op>(sym.api(), fd, static_cast<std::uint64_t>(result), offset, t);
  };
}

// fsync, ftruncate, lseek, fstat, …: success is a non-negative result.
template <const auto& sym>
auto on_fd(Op op, int fd) {
  return [op, fd](auto result, const Timing& t) {
    if (result < 0) return;
    emit(op, sym.api(), fd_entity_for(op, fd), 0, kNoOffset, t);
    if (op == Op::kModify) mark_written(fd);
  };
}

template <const auto& sym>
auto on_path(Op op, int dirfd, const char* path, bool follow, EntityClass cls) {
  return [op, dirfd, path, follow, cls](int result, const Timing& t) {
    if (result != 0) return;
    emit(op, sym.api(), path_entity(dirfd, path, follow, cls), 0, kNoOffset, t);
  };
}

// Names that change meaning: renames, deletions, new links.
template <const auto& sym>
auto on_name_change(Op op, int dirfd, const char* path, EntityClass cls) {
  return [op, dirfd, path, cls](int result, const Timing& t) {
    if (result != 0) return;
    names_changed();
    emit(op, sym.api(), path_entity(dirfd, path, false, cls), 0, kNoOffset, t);
  };
}

// stat family: regular files and directories only (not terminals, sockets, symlinks themselves).
template <const auto& sym, typename St>
auto stat_path(int dirfd, const char* path, bool follow, const St* st) {
  return [dirfd, path, follow, st](int result, const Timing& t) {
    if (result != 0 || !(S_ISREG(st->st_mode) || S_ISDIR(st->st_mode))) return;
    EntityClass cls = S_ISDIR(st->st_mode) ? EntityClass::kDirectory : EntityClass::kFile;
    emit(Op::kAccess, sym.api(), path_entity(dirfd, path, follow, cls), 0, kNoOffset, t);
  };
}

// fstatat and friends: an empty path with AT_EMPTY_PATH means the descriptor itself.
template <const auto& sym, typename St>
auto stat_at(int dirfd, const char* path, int flags, const St* st) {
  return [dirfd, path, flags, st](int result, const Timing& t) {
    if (result != 0) return;
    if ((flags & AT_EMPTY_PATH) && path && !*path) {
      emit(Op::kAccess, sym.api(), fd_entity_if_used(dirfd), 0, kNoOffset, t);
      return;
    }
    stat_path<sym>(dirfd, path, (flags & AT_SYMLINK_NOFOLLOW) == 0, st)(result, t);
  };
}

template <const auto& sym>
auto renamed(int olddir, const char* oldpath, int newdir, const char* newpath) {
  return [olddir, oldpath, newdir, newpath](int result, const Timing& t) {
    if (result != 0) return;
    names_changed();
    struct stat st;
    bool dir = fstatat(newdir, newpath, &st, AT_SYMLINK_NOFOLLOW) == 0 && S_ISDIR(st.st_mode);
    EntityClass cls = dir ? EntityClass::kDirectory : EntityClass::kFile;
    EntityId from = path_entity(olddir, oldpath, false, cls);
    EntityId to = path_entity(newdir, newpath, false, cls);
    // Moving across the exclusion boundary: the tracked side appeared or disappeared.
    if (from && to)
      emit(Op::kRename, sym.api(), from, 0, kNoOffset, t, to);
    else if (to)
      emit(Op::kCreate, sym.api(), to, 0, kNoOffset, t);
    else if (from)
      emit(Op::kDelete, sym.api(), from, 0, kNoOffset, t);
  };
}

// A hard link: the new name is derived from the old one (recorded as a copy).
template <const auto& sym>
auto linked(int olddir, const char* oldpath, int newdir, const char* newpath, bool follow) {
  return [olddir, oldpath, newdir, newpath, follow](int result, const Timing& t) {
    if (result != 0) return;
    names_changed();
    EntityId from = path_entity(olddir, oldpath, follow, EntityClass::kFile);
    EntityId to = path_entity(newdir, newpath, false, EntityClass::kFile);
    if (from && to)
      emit(Op::kCopy, sym.api(), from, 0, kNoOffset, t, to);
    else if (to)
      emit(Op::kCreate, sym.api(), to, 0, kNoOffset, t);
  };
}

// copy_file_range, sendfile: one transfer read from `in` and written to `out`; each side gets half
// the call's time, so time totals stay exact.
template <const auto& sym>
auto copied(int in, int out) {
  return [in, out](ssize_t r, const Timing& t) {
    if (r < 0) return;
    Timing half{t.start_ns, t.elapsed_ns / 2};
    emit_transfer<Op::kRead>(sym.api(), in, static_cast<std::uint64_t>(r), kNoOffset, half);
    half.elapsed_ns = t.elapsed_ns - half.elapsed_ns;
    emit_transfer<Op::kWrite>(sym.api(), out, static_cast<std::uint64_t>(r), kNoOffset, half);
  };
}

// mmap of a file: an access (anonymous mappings go straight through untimed).
template <typename Fn, typename Off>
void* map(const Symbol<Fn>& sym, void* addr, size_t len, int prot, int flags, int fd, Off off) {
  if (fd < 0 || (flags & MAP_ANONYMOUS)) return passthrough(sym, addr, len, prot, flags, fd, off);
  auto record = [&sym, fd](void* r, const Timing& t) {
    if (r != MAP_FAILED) emit(Op::kAccess, sym.api(), fd_entity(fd), 0, kNoOffset, t);
  };
  return traced(sym, record, addr, len, prot, flags, fd, off);
}

// dup and friends record nothing: the new descriptor names what the old one did.
auto duplicated(int from) {
  return [from](int to, const Timing&) {
    if (to >= 0 && to != from) fd_table().set(to, fd_table().get(from));
  };
}

// fcntl: only the duplicating commands matter. The third argument is passed on as glibc reads it
// (int and pointer arguments alike).
template <typename Fn>
int control(const Symbol<Fn>& sym, int fd, int cmd, void* arg) {
  auto record = [fd, cmd](int r, const Timing& t) {
    if (cmd == F_DUPFD || cmd == F_DUPFD_CLOEXEC) duplicated(fd)(r, t);
  };
  return traced(sym, record, fd, cmd, arg);
}

template <const auto& sym>
auto on_stream_open(const char* path, const char* mode) {
  return [path, mode](FILE* f, const Timing& t) {
    if (!f) return;
    int fd = stream_fd(f);
    if (fd < 0) return;
    bool creating = mode_creates(mode);
    EntityId e;
    if (path) {
      e = bind_opened(fd, AT_FDCWD, path, false, creating ? kWritten : 0);
    } else {  // freopen(NULL, mode, f): same file, new mode
      fd_table().clear(fd);
      e = fd_entity(fd);
    }
    emit(creating ? Op::kCreate : Op::kOpen, sym.api(), e, 0, kNoOffset, t);
    // After the record, as in opened(). An open by name marked its slot as it bound it; freopen's
    // slot was bound again, unmarked, by fd_entity().
    if (creating && !path) mark_written(fd);
    if (creating && path && e != kNoEntity) note_write_epoch();
  };
}

// close and fclose: one path. The version a written descriptor leaves is prepared before the
// call (versions.h), the close recorded after it, and the slot forgotten whatever the result:
// Linux releases the descriptor whatever close returns, and a slot that is reused meanwhile is
// resolved again on first use. `fd` is -1 for a stream without a descriptor.
template <typename Fn, typename Arg>
int closed(const Symbol<Fn>& sym, int fd, Arg arg) {
  PendingVersion pending = before_close(fd);
  int result = traced(
      sym,
      [&sym, fd, &pending](int r, const Timing& t) {
        if (r == 0) record_close(sym.api(), fd, t, pending);
      },
      arg);
  if (fd >= 0) fd_table().clear(fd);
  return result;
}

// stdio transfers: `bytes(result)` is what moved, or negative when nothing is to be recorded.
// The operation is a template argument: a stdio write or read is then one path, with no test of
// what it is.
template <const auto& sym, Op op, typename Bytes>
auto on_stream(FILE* f, Bytes bytes) {
  return [f, bytes](auto result, const Timing& t) {
    std::int64_t n = bytes(result);
    if (n < 0) return;
    if constexpr (op == Op::kRead || op == Op::kWrite)
      emit_transfer<op>(sym.api(), stream_fd(f), static_cast<std::uint64_t>(n), kNoOffset, t);
    else
      emit(op, sym.api(), fd_entity_for(op, stream_fd(f)), static_cast<std::uint64_t>(n), kNoOffset, t);
  };
}

auto items_of(size_t size) {
  return [size](size_t items) { return static_cast<std::int64_t>(items * size); };
}
auto line_length(char* line) {
  return line ? static_cast<std::int64_t>(strlen(line)) : -1;
}
auto printed(int n) {
  return static_cast<std::int64_t>(n);
}
auto zero_on_success(int r) {
  return r == 0 ? std::int64_t{0} : std::int64_t{-1};
}
auto length_on_success(const char* s, std::size_t extra = 0) {
  return [s, extra](int r) { return r >= 0 ? static_cast<std::int64_t>(strlen(s) + extra) : -1; };
}

// ---- exec: flush everything, pass our run as the child's parent ----

// The executable as an entity. Exclusions do not apply: which program ran is provenance even when
// it lives in /usr/bin.
EntityId program_entity(const std::string& path) {
  // The record is made before the real call (a successful exec does not return). Callers that do
  // their own PATH search (Python's subprocess) try names that do not exist: no record for those.
  if (path.empty() || access(path.c_str(), X_OK) != 0) return kNoEntity;
  return model::canonical_file_entity(model::canonical_path(path), EntityClass::kFile);
}

constexpr std::size_t kMaxEnv = 1 << 14;  // larger environments go through unchanged

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
      if (hand == Hand::kOver) store::flush_all();
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

Symbol<decltype(&::execve)> s_real_execve{"execve"};
Symbol<decltype(&::execvpe)> s_real_execvpe{"execvpe"};

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

// execl and friends: the variadic argument list as an argv array on the stack.
constexpr std::size_t kMaxArgs = 1 << 16;

// ---- the symbols ----

Symbol<decltype(&::open)> s_open{"open"};
Symbol<decltype(&::open64)> s_open64{"open64", "open"};
Symbol<decltype(&::__open_2)> s_open_2{"__open_2", "open"};
Symbol<decltype(&::__open64_2)> s_open64_2{"__open64_2", "open"};
Symbol<decltype(&::openat)> s_openat{"openat"};
Symbol<decltype(&::openat64)> s_openat64{"openat64", "openat"};
Symbol<decltype(&::__openat_2)> s_openat_2{"__openat_2", "openat"};
Symbol<decltype(&::__openat64_2)> s_openat64_2{"__openat64_2", "openat"};
Symbol<decltype(&::creat)> s_creat{"creat"};
Symbol<decltype(&::creat64)> s_creat64{"creat64", "creat"};
Symbol<decltype(&::close)> s_close{"close"};
Symbol<decltype(&::close_range)> s_close_range{"close_range"};
Symbol<decltype(&::closefrom)> s_closefrom{"closefrom"};

Symbol<decltype(&::read)> s_read{"read"};
Symbol<decltype(&::__read_chk)> s_read_chk{"__read_chk", "read"};
Symbol<decltype(&::write)> s_write{"write"};
Symbol<decltype(&::pread)> s_pread{"pread"};
Symbol<decltype(&::pread64)> s_pread64{"pread64", "pread"};
Symbol<decltype(&::__pread_chk)> s_pread_chk{"__pread_chk", "pread"};
Symbol<decltype(&::__pread64_chk)> s_pread64_chk{"__pread64_chk", "pread"};
Symbol<decltype(&::pwrite)> s_pwrite{"pwrite"};
Symbol<decltype(&::pwrite64)> s_pwrite64{"pwrite64", "pwrite"};
Symbol<decltype(&::readv)> s_readv{"readv"};
Symbol<decltype(&::writev)> s_writev{"writev"};
Symbol<decltype(&::preadv)> s_preadv{"preadv"};
Symbol<decltype(&::preadv64)> s_preadv64{"preadv64", "preadv"};
Symbol<decltype(&::pwritev)> s_pwritev{"pwritev"};
Symbol<decltype(&::pwritev64)> s_pwritev64{"pwritev64", "pwritev"};
Symbol<decltype(&::copy_file_range)> s_copy_file_range{"copy_file_range"};
Symbol<decltype(&::sendfile)> s_sendfile{"sendfile"};
Symbol<decltype(&::sendfile64)> s_sendfile64{"sendfile64", "sendfile"};
Symbol<decltype(&::lseek)> s_lseek{"lseek"};
Symbol<decltype(&::lseek64)> s_lseek64{"lseek64", "lseek"};
Symbol<decltype(&::fsync)> s_fsync{"fsync"};
Symbol<decltype(&::fdatasync)> s_fdatasync{"fdatasync"};
Symbol<decltype(&::ftruncate)> s_ftruncate{"ftruncate"};
Symbol<decltype(&::ftruncate64)> s_ftruncate64{"ftruncate64", "ftruncate"};
Symbol<decltype(&::truncate)> s_truncate{"truncate"};
Symbol<decltype(&::truncate64)> s_truncate64{"truncate64", "truncate"};
Symbol<decltype(&::mmap)> s_mmap{"mmap"};
Symbol<decltype(&::mmap64)> s_mmap64{"mmap64", "mmap"};

Symbol<decltype(&::dup)> s_dup{"dup"};
Symbol<decltype(&::dup2)> s_dup2{"dup2"};
Symbol<decltype(&::dup3)> s_dup3{"dup3"};
Symbol<decltype(&::fcntl)> s_fcntl{"fcntl"};
Symbol<decltype(&::fcntl64)> s_fcntl64{"fcntl64", "fcntl"};

Symbol<decltype(&::rename)> s_rename{"rename"};
Symbol<decltype(&::renameat)> s_renameat{"renameat"};
Symbol<decltype(&::renameat2)> s_renameat2{"renameat2"};
Symbol<decltype(&::unlink)> s_unlink{"unlink"};
Symbol<decltype(&::unlinkat)> s_unlinkat{"unlinkat"};
Symbol<decltype(&::mkdir)> s_mkdir{"mkdir"};
Symbol<decltype(&::mkdirat)> s_mkdirat{"mkdirat"};
Symbol<decltype(&::rmdir)> s_rmdir{"rmdir"};
Symbol<decltype(&::link)> s_link{"link"};
Symbol<decltype(&::linkat)> s_linkat{"linkat"};
Symbol<decltype(&::symlink)> s_symlink{"symlink"};
Symbol<decltype(&::symlinkat)> s_symlinkat{"symlinkat"};
Symbol<decltype(&::chdir)> s_chdir{"chdir"};
Symbol<decltype(&::fchdir)> s_fchdir{"fchdir"};

Symbol<decltype(&::stat)> s_stat{"stat"};
Symbol<decltype(&::stat64)> s_stat64{"stat64", "stat"};
Symbol<decltype(&::lstat)> s_lstat{"lstat"};
Symbol<decltype(&::lstat64)> s_lstat64{"lstat64", "lstat"};
Symbol<decltype(&::fstat)> s_fstat{"fstat"};
Symbol<decltype(&::fstat64)> s_fstat64{"fstat64", "fstat"};
Symbol<decltype(&::fstatat)> s_fstatat{"fstatat"};
Symbol<decltype(&::fstatat64)> s_fstatat64{"fstatat64", "fstatat"};
Symbol<decltype(&::statx)> s_statx{"statx"};
Symbol<decltype(&::__xstat)> s_xstat{"__xstat", "stat"};
Symbol<decltype(&::__xstat64)> s_xstat64{"__xstat64", "stat"};
Symbol<decltype(&::__lxstat)> s_lxstat{"__lxstat", "lstat"};
Symbol<decltype(&::__lxstat64)> s_lxstat64{"__lxstat64", "lstat"};
Symbol<decltype(&::__fxstat)> s_fxstat{"__fxstat", "fstat"};
Symbol<decltype(&::__fxstat64)> s_fxstat64{"__fxstat64", "fstat"};
Symbol<decltype(&::__fxstatat)> s_fxstatat{"__fxstatat", "fstatat"};
Symbol<decltype(&::__fxstatat64)> s_fxstatat64{"__fxstatat64", "fstatat"};

Symbol<decltype(&::fopen)> s_fopen{"fopen"};
Symbol<decltype(&::fopen64)> s_fopen64{"fopen64", "fopen"};
Symbol<decltype(&::fdopen)> s_fdopen{"fdopen"};
Symbol<decltype(&::freopen)> s_freopen{"freopen"};
Symbol<decltype(&::freopen64)> s_freopen64{"freopen64", "freopen"};
Symbol<decltype(&::fclose)> s_fclose{"fclose"};
Symbol<decltype(&::fread)> s_fread{"fread"};
Symbol<decltype(&::fread_unlocked)> s_fread_unlocked{"fread_unlocked", "fread"};
Symbol<decltype(&::__fread_chk)> s_fread_chk{"__fread_chk", "fread"};
Symbol<decltype(&::__fread_unlocked_chk)> s_fread_unlocked_chk{"__fread_unlocked_chk", "fread"};
Symbol<decltype(&::fwrite)> s_fwrite{"fwrite"};
Symbol<decltype(&::fwrite_unlocked)> s_fwrite_unlocked{"fwrite_unlocked", "fwrite"};
Symbol<decltype(&::fgets)> s_fgets{"fgets"};
Symbol<decltype(&::fgets_unlocked)> s_fgets_unlocked{"fgets_unlocked", "fgets"};
Symbol<decltype(&::__fgets_chk)> s_fgets_chk{"__fgets_chk", "fgets"};
Symbol<decltype(&::__fgets_unlocked_chk)> s_fgets_unlocked_chk{"__fgets_unlocked_chk", "fgets"};
Symbol<decltype(&::getline)> s_getline{"getline"};
Symbol<decltype(&::getdelim)> s_getdelim{"getdelim"};
// glibc's inline getline (bits/stdio.h, with optimisation) calls __getdelim(…, '\n', …).
Symbol<decltype(&::__getdelim)> s_getdelim_internal{"__getdelim", "getline"};
Symbol<decltype(&::fputs)> s_fputs{"fputs"};
Symbol<decltype(&::fputs_unlocked)> s_fputs_unlocked{"fputs_unlocked", "fputs"};
Symbol<decltype(&::puts)> s_puts{"puts"};
// The printf family calls the real v-variant.
Symbol<decltype(&::vfprintf)> s_fprintf{"vfprintf", "fprintf"};
Symbol<decltype(&::vfprintf)> s_vfprintf{"vfprintf"};
Symbol<decltype(&::vfprintf)> s_printf{"vfprintf", "printf"};
Symbol<decltype(&::vfprintf)> s_vprintf{"vfprintf", "vprintf"};
Symbol<decltype(&::__vfprintf_chk)> s_fprintf_chk{"__vfprintf_chk", "fprintf"};
Symbol<decltype(&::__vfprintf_chk)> s_vfprintf_chk{"__vfprintf_chk", "vfprintf"};
Symbol<decltype(&::__vfprintf_chk)> s_printf_chk{"__vfprintf_chk", "printf"};
Symbol<decltype(&::__vfprintf_chk)> s_vprintf_chk{"__vfprintf_chk", "vprintf"};
Symbol<decltype(&::opendir)> s_opendir{"opendir"};
Symbol<decltype(&::fdopendir)> s_fdopendir{"fdopendir"};
Symbol<decltype(&::closedir)> s_closedir{"closedir"};
Symbol<decltype(&::readdir)> s_readdir{"readdir"};
Symbol<decltype(&::readdir64)> s_readdir64{"readdir64", "readdir"};
Symbol<decltype(&::fflush)> s_fflush{"fflush"};
Symbol<decltype(&::fseek)> s_fseek{"fseek"};
Symbol<decltype(&::fseeko)> s_fseeko{"fseeko", "fseek"};
Symbol<decltype(&::fseeko64)> s_fseeko64{"fseeko64", "fseek"};

Symbol<decltype(&::execve)> s_execve{"execve"};
Symbol<decltype(&::execve)> s_execv{"execve", "execv"};
Symbol<decltype(&::execve)> s_execl{"execve", "execl"};
Symbol<decltype(&::execve)> s_execle{"execve", "execle"};
Symbol<decltype(&::execvpe)> s_execvp{"execvpe", "execvp"};
Symbol<decltype(&::execvpe)> s_execvpe{"execvpe"};
Symbol<decltype(&::execvpe)> s_execlp{"execvpe", "execlp"};
Symbol<decltype(&::fexecve)> s_fexecve{"fexecve"};
Symbol<decltype(&::fork)> s_vfork{"fork", "vfork"};
Symbol<decltype(&::posix_spawn)> s_posix_spawn{"posix_spawn"};
Symbol<decltype(&::posix_spawnp)> s_posix_spawnp{"posix_spawnp", "posix_spawn"};

// execl and friends: the arguments after `arg0` up to the terminating null pointer.
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

}  // namespace
}  // namespace provio::posix

using namespace provio::posix;  // NOLINT: this file is the ABI of that namespace

// ---- open / close ----

PROVIO_EXPORT int open(const char* path, int flags, ...) {
  va_list ap;
  va_start(ap, flags);
  mode_t mode = mode_arg(flags, ap);
  va_end(ap);
  return traced(s_open, opened<s_open>(AT_FDCWD, path, flags), path, flags, mode);
}

PROVIO_EXPORT int open64(const char* path, int flags, ...) {
  va_list ap;
  va_start(ap, flags);
  mode_t mode = mode_arg(flags, ap);
  va_end(ap);
  return traced(s_open64, opened<s_open64>(AT_FDCWD, path, flags), path, flags, mode);
}

PROVIO_EXPORT int openat(int dirfd, const char* path, int flags, ...) {
  va_list ap;
  va_start(ap, flags);
  mode_t mode = mode_arg(flags, ap);
  va_end(ap);
  return traced(s_openat, opened<s_openat>(dirfd, path, flags), dirfd, path, flags, mode);
}

PROVIO_EXPORT int openat64(int dirfd, const char* path, int flags, ...) {
  va_list ap;
  va_start(ap, flags);
  mode_t mode = mode_arg(flags, ap);
  va_end(ap);
  return traced(s_openat64, opened<s_openat64>(dirfd, path, flags), dirfd, path, flags, mode);
}

PROVIO_EXPORT int __open_2(const char* path, int flags) {
  return traced(s_open_2, opened<s_open_2>(AT_FDCWD, path, flags), path, flags);
}
PROVIO_EXPORT int __open64_2(const char* path, int flags) {
  return traced(s_open64_2, opened<s_open64_2>(AT_FDCWD, path, flags), path, flags);
}
PROVIO_EXPORT int __openat_2(int dirfd, const char* path, int flags) {
  return traced(s_openat_2, opened<s_openat_2>(dirfd, path, flags), dirfd, path, flags);
}
PROVIO_EXPORT int __openat64_2(int dirfd, const char* path, int flags) {
  return traced(s_openat64_2, opened<s_openat64_2>(dirfd, path, flags), dirfd, path, flags);
}
PROVIO_EXPORT int creat(const char* path, mode_t mode) {
  return traced(s_creat, opened<s_creat>(AT_FDCWD, path, O_CREAT | O_WRONLY | O_TRUNC), path, mode);
}
PROVIO_EXPORT int creat64(const char* path, mode_t mode) {
  return traced(s_creat64, opened<s_creat64>(AT_FDCWD, path, O_CREAT | O_WRONLY | O_TRUNC), path, mode);
}

PROVIO_EXPORT int close(int fd) {
  return closed(s_close, fd, fd);
}

PROVIO_EXPORT int close_range(unsigned first, unsigned last, int flags) noexcept {
  return traced(
      s_close_range,
      [first, last, flags](int r, const Timing&) {
        if (r == 0 && !(flags & CLOSE_RANGE_CLOEXEC)) fd_table().clear_range(first, last);
      },
      first, last, flags);
}

PROVIO_EXPORT void closefrom(int lowfd) noexcept {
  if (auto fn = s_closefrom.real()) fn(lowfd);
  if (lowfd >= 0) fd_table().clear_range(static_cast<unsigned>(lowfd), ~0u);
}

// ---- transfers ----

PROVIO_EXPORT ssize_t read(int fd, void* buf, size_t n) {
  return traced(s_read, transfer<s_read, Op::kRead>(fd), fd, buf, n);
}
PROVIO_EXPORT ssize_t __read_chk(int fd, void* buf, size_t n, size_t buflen) {
  return traced(s_read_chk, transfer<s_read_chk, Op::kRead>(fd), fd, buf, n, buflen);
}
PROVIO_EXPORT ssize_t write(int fd, const void* buf, size_t n) {
  return traced(s_write, transfer<s_write, Op::kWrite>(fd), fd, buf, n);
}
PROVIO_EXPORT ssize_t pread(int fd, void* buf, size_t n, off_t off) {
  return traced(s_pread, transfer<s_pread, Op::kRead>(fd, off), fd, buf, n, off);
}
PROVIO_EXPORT ssize_t pread64(int fd, void* buf, size_t n, off64_t off) {
  return traced(s_pread64, transfer<s_pread64, Op::kRead>(fd, off), fd, buf, n, off);
}
PROVIO_EXPORT ssize_t __pread_chk(int fd, void* buf, size_t n, off_t off, size_t buflen) {
  return traced(s_pread_chk, transfer<s_pread_chk, Op::kRead>(fd, off), fd, buf, n, off, buflen);
}
PROVIO_EXPORT ssize_t __pread64_chk(int fd, void* buf, size_t n, off64_t off, size_t buflen) {
  return traced(s_pread64_chk, transfer<s_pread64_chk, Op::kRead>(fd, off), fd, buf, n, off, buflen);
}
PROVIO_EXPORT ssize_t pwrite(int fd, const void* buf, size_t n, off_t off) {
  return traced(s_pwrite, transfer<s_pwrite, Op::kWrite>(fd, off), fd, buf, n, off);
}
PROVIO_EXPORT ssize_t pwrite64(int fd, const void* buf, size_t n, off64_t off) {
  return traced(s_pwrite64, transfer<s_pwrite64, Op::kWrite>(fd, off), fd, buf, n, off);
}
PROVIO_EXPORT ssize_t readv(int fd, const struct iovec* iov, int n) {
  return traced(s_readv, transfer<s_readv, Op::kRead>(fd), fd, iov, n);
}
PROVIO_EXPORT ssize_t writev(int fd, const struct iovec* iov, int n) {
  return traced(s_writev, transfer<s_writev, Op::kWrite>(fd), fd, iov, n);
}
PROVIO_EXPORT ssize_t preadv(int fd, const struct iovec* iov, int n, off_t off) {
  return traced(s_preadv, transfer<s_preadv, Op::kRead>(fd, off), fd, iov, n, off);
}
PROVIO_EXPORT ssize_t preadv64(int fd, const struct iovec* iov, int n, off64_t off) {
  return traced(s_preadv64, transfer<s_preadv64, Op::kRead>(fd, off), fd, iov, n, off);
}
PROVIO_EXPORT ssize_t pwritev(int fd, const struct iovec* iov, int n, off_t off) {
  return traced(s_pwritev, transfer<s_pwritev, Op::kWrite>(fd, off), fd, iov, n, off);
}
PROVIO_EXPORT ssize_t pwritev64(int fd, const struct iovec* iov, int n, off64_t off) {
  return traced(s_pwritev64, transfer<s_pwritev64, Op::kWrite>(fd, off), fd, iov, n, off);
}

PROVIO_EXPORT ssize_t copy_file_range(int in, off64_t* in_off, int out, off64_t* out_off, size_t len,
                                      unsigned flags) {
  return traced(s_copy_file_range, copied<s_copy_file_range>(in, out), in, in_off, out, out_off, len, flags);
}
PROVIO_EXPORT ssize_t sendfile(int out, int in, off_t* off, size_t count) noexcept {
  return traced(s_sendfile, copied<s_sendfile>(in, out), out, in, off, count);
}
PROVIO_EXPORT ssize_t sendfile64(int out, int in, off64_t* off, size_t count) noexcept {
  return traced(s_sendfile64, copied<s_sendfile64>(in, out), out, in, off, count);
}

// A seek changes no data: recorded as an access, so that the calls are counted per file.
PROVIO_EXPORT off_t lseek(int fd, off_t off, int whence) noexcept {
  return traced(s_lseek, on_fd<s_lseek>(Op::kAccess, fd), fd, off, whence);
}
PROVIO_EXPORT off64_t lseek64(int fd, off64_t off, int whence) noexcept {
  return traced(s_lseek64, on_fd<s_lseek64>(Op::kAccess, fd), fd, off, whence);
}
PROVIO_EXPORT int fsync(int fd) {
  return traced(s_fsync, on_fd<s_fsync>(Op::kFlush, fd), fd);
}
PROVIO_EXPORT int fdatasync(int fd) {
  return traced(s_fdatasync, on_fd<s_fdatasync>(Op::kFlush, fd), fd);
}
PROVIO_EXPORT int ftruncate(int fd, off_t len) noexcept {
  return traced(s_ftruncate, on_fd<s_ftruncate>(Op::kModify, fd), fd, len);
}
PROVIO_EXPORT int ftruncate64(int fd, off64_t len) noexcept {
  return traced(s_ftruncate64, on_fd<s_ftruncate64>(Op::kModify, fd), fd, len);
}
PROVIO_EXPORT int truncate(const char* path, off_t len) noexcept {
  return traced(s_truncate, on_path<s_truncate>(Op::kModify, AT_FDCWD, path, true, EntityClass::kFile), path,
                len);
}
PROVIO_EXPORT int truncate64(const char* path, off64_t len) noexcept {
  return traced(s_truncate64, on_path<s_truncate64>(Op::kModify, AT_FDCWD, path, true, EntityClass::kFile),
                path, len);
}

// Mapping a file is recorded as an access (the bytes are touched later, invisibly).
PROVIO_EXPORT void* mmap(void* addr, size_t len, int prot, int flags, int fd, off_t off) noexcept {
  return map(s_mmap, addr, len, prot, flags, fd, off);
}
PROVIO_EXPORT void* mmap64(void* addr, size_t len, int prot, int flags, int fd, off64_t off) noexcept {
  return map(s_mmap64, addr, len, prot, flags, fd, off);
}

// ---- descriptors ----

PROVIO_EXPORT int dup(int fd) noexcept {
  return traced(s_dup, duplicated(fd), fd);
}
PROVIO_EXPORT int dup2(int fd, int to) noexcept {
  return traced(s_dup2, duplicated(fd), fd, to);
}
PROVIO_EXPORT int dup3(int fd, int to, int flags) noexcept {
  return traced(s_dup3, duplicated(fd), fd, to, flags);
}

PROVIO_EXPORT int fcntl(int fd, int cmd, ...) {
  va_list ap;
  va_start(ap, cmd);
  void* arg = va_arg(ap, void*);
  va_end(ap);
  return control(s_fcntl, fd, cmd, arg);
}
PROVIO_EXPORT int fcntl64(int fd, int cmd, ...) {
  va_list ap;
  va_start(ap, cmd);
  void* arg = va_arg(ap, void*);
  va_end(ap);
  return control(s_fcntl64, fd, cmd, arg);
}

// ---- names ----

PROVIO_EXPORT int rename(const char* from, const char* to) noexcept {
  return traced(s_rename, renamed<s_rename>(AT_FDCWD, from, AT_FDCWD, to), from, to);
}
PROVIO_EXPORT int renameat(int fromdir, const char* from, int todir, const char* to) noexcept {
  return traced(s_renameat, renamed<s_renameat>(fromdir, from, todir, to), fromdir, from, todir, to);
}
PROVIO_EXPORT int renameat2(int fromdir, const char* from, int todir, const char* to,
                            unsigned flags) noexcept {
  return traced(s_renameat2, renamed<s_renameat2>(fromdir, from, todir, to), fromdir, from, todir, to, flags);
}
PROVIO_EXPORT int unlink(const char* path) noexcept {
  return traced(s_unlink, on_name_change<s_unlink>(Op::kDelete, AT_FDCWD, path, EntityClass::kFile), path);
}
PROVIO_EXPORT int unlinkat(int dirfd, const char* path, int flags) noexcept {
  EntityClass cls = (flags & AT_REMOVEDIR) ? EntityClass::kDirectory : EntityClass::kFile;
  return traced(s_unlinkat, on_name_change<s_unlinkat>(Op::kDelete, dirfd, path, cls), dirfd, path, flags);
}
PROVIO_EXPORT int rmdir(const char* path) noexcept {
  return traced(s_rmdir, on_name_change<s_rmdir>(Op::kDelete, AT_FDCWD, path, EntityClass::kDirectory), path);
}
PROVIO_EXPORT int mkdir(const char* path, mode_t mode) noexcept {
  return traced(s_mkdir, on_name_change<s_mkdir>(Op::kCreate, AT_FDCWD, path, EntityClass::kDirectory), path,
                mode);
}
PROVIO_EXPORT int mkdirat(int dirfd, const char* path, mode_t mode) noexcept {
  return traced(s_mkdirat, on_name_change<s_mkdirat>(Op::kCreate, dirfd, path, EntityClass::kDirectory),
                dirfd, path, mode);
}
PROVIO_EXPORT int link(const char* from, const char* to) noexcept {
  return traced(s_link, linked<s_link>(AT_FDCWD, from, AT_FDCWD, to, false), from, to);
}
PROVIO_EXPORT int linkat(int fromdir, const char* from, int todir, const char* to, int flags) noexcept {
  return traced(s_linkat, linked<s_linkat>(fromdir, from, todir, to, (flags & AT_SYMLINK_FOLLOW) != 0),
                fromdir, from, todir, to, flags);
}
PROVIO_EXPORT int symlink(const char* target, const char* path) noexcept {
  return traced(s_symlink, on_name_change<s_symlink>(Op::kCreate, AT_FDCWD, path, EntityClass::kFile), target,
                path);
}
PROVIO_EXPORT int symlinkat(const char* target, int dirfd, const char* path) noexcept {
  return traced(s_symlinkat, on_name_change<s_symlinkat>(Op::kCreate, dirfd, path, EntityClass::kFile),
                target, dirfd, path);
}
PROVIO_EXPORT int chdir(const char* path) noexcept {
  return traced(
      s_chdir,
      [](int r, const Timing&) {
        if (r == 0) names_changed();
      },
      path);
}
PROVIO_EXPORT int fchdir(int fd) noexcept {
  return traced(
      s_fchdir,
      [](int r, const Timing&) {
        if (r == 0) names_changed();
      },
      fd);
}

// ---- stat family ----

PROVIO_EXPORT int stat(const char* path, struct stat* st) noexcept {
  return traced(s_stat, stat_path<s_stat>(AT_FDCWD, path, true, st), path, st);
}
PROVIO_EXPORT int stat64(const char* path, struct stat64* st) noexcept {
  return traced(s_stat64, stat_path<s_stat64>(AT_FDCWD, path, true, st), path, st);
}
PROVIO_EXPORT int lstat(const char* path, struct stat* st) noexcept {
  return traced(s_lstat, stat_path<s_lstat>(AT_FDCWD, path, false, st), path, st);
}
PROVIO_EXPORT int lstat64(const char* path, struct stat64* st) noexcept {
  return traced(s_lstat64, stat_path<s_lstat64>(AT_FDCWD, path, false, st), path, st);
}
PROVIO_EXPORT int fstat(int fd, struct stat* st) noexcept {
  return traced(s_fstat, on_fd<s_fstat>(Op::kAccess, fd), fd, st);
}
PROVIO_EXPORT int fstat64(int fd, struct stat64* st) noexcept {
  return traced(s_fstat64, on_fd<s_fstat64>(Op::kAccess, fd), fd, st);
}
PROVIO_EXPORT int fstatat(int dirfd, const char* path, struct stat* st, int flags) noexcept {
  return traced(s_fstatat, stat_at<s_fstatat>(dirfd, path, flags, st), dirfd, path, st, flags);
}
PROVIO_EXPORT int fstatat64(int dirfd, const char* path, struct stat64* st, int flags) noexcept {
  return traced(s_fstatat64, stat_at<s_fstatat64>(dirfd, path, flags, st), dirfd, path, st, flags);
}
PROVIO_EXPORT int statx(int dirfd, const char* path, int flags, unsigned mask, struct statx* stx) noexcept {
  return traced(
      s_statx,
      [dirfd, path, flags, stx](int r, const Timing& t) {
        if (r != 0 || !(stx->stx_mask & STATX_TYPE)) return;
        struct stat st {};
        st.st_mode = stx->stx_mode;
        stat_at<s_statx>(dirfd, path, flags, &st)(r, t);
      },
      dirfd, path, flags, mask, stx);
}
PROVIO_EXPORT int __xstat(int ver, const char* path, struct stat* st) {
  return traced(s_xstat, stat_path<s_xstat>(AT_FDCWD, path, true, st), ver, path, st);
}
PROVIO_EXPORT int __xstat64(int ver, const char* path, struct stat64* st) {
  return traced(s_xstat64, stat_path<s_xstat64>(AT_FDCWD, path, true, st), ver, path, st);
}
PROVIO_EXPORT int __lxstat(int ver, const char* path, struct stat* st) {
  return traced(s_lxstat, stat_path<s_lxstat>(AT_FDCWD, path, false, st), ver, path, st);
}
PROVIO_EXPORT int __lxstat64(int ver, const char* path, struct stat64* st) {
  return traced(s_lxstat64, stat_path<s_lxstat64>(AT_FDCWD, path, false, st), ver, path, st);
}
PROVIO_EXPORT int __fxstat(int ver, int fd, struct stat* st) {
  return traced(s_fxstat, on_fd<s_fxstat>(Op::kAccess, fd), ver, fd, st);
}
PROVIO_EXPORT int __fxstat64(int ver, int fd, struct stat64* st) {
  return traced(s_fxstat64, on_fd<s_fxstat64>(Op::kAccess, fd), ver, fd, st);
}
PROVIO_EXPORT int __fxstatat(int ver, int dirfd, const char* path, struct stat* st, int flags) {
  return traced(s_fxstatat, stat_at<s_fxstatat>(dirfd, path, flags, st), ver, dirfd, path, st, flags);
}
PROVIO_EXPORT int __fxstatat64(int ver, int dirfd, const char* path, struct stat64* st, int flags) {
  return traced(s_fxstatat64, stat_at<s_fxstatat64>(dirfd, path, flags, st), ver, dirfd, path, st, flags);
}

// ---- stdio ----

PROVIO_EXPORT FILE* fopen(const char* path, const char* mode) {
  return traced(s_fopen, on_stream_open<s_fopen>(path, mode), path, mode);
}
PROVIO_EXPORT FILE* fopen64(const char* path, const char* mode) {
  return traced(s_fopen64, on_stream_open<s_fopen64>(path, mode), path, mode);
}
PROVIO_EXPORT FILE* freopen(const char* path, const char* mode, FILE* f) {
  return traced(s_freopen, on_stream_open<s_freopen>(path, mode), path, mode, f);
}
PROVIO_EXPORT FILE* freopen64(const char* path, const char* mode, FILE* f) {
  return traced(s_freopen64, on_stream_open<s_freopen64>(path, mode), path, mode, f);
}
PROVIO_EXPORT FILE* fdopen(int fd, const char* mode) noexcept {
  return traced(
      s_fdopen,
      [fd](FILE* f, const Timing& t) {
        if (f) emit(Op::kOpen, s_fdopen.api(), fd_entity(fd), 0, kNoOffset, t);
      },
      fd, mode);
}

PROVIO_EXPORT int fclose(FILE* f) {
  return closed(s_fclose, stream_fd(f), f);
}

PROVIO_EXPORT size_t fread(void* ptr, size_t size, size_t n, FILE* f) {
  return traced(s_fread, on_stream<s_fread, Op::kRead>(f, items_of(size)), ptr, size, n, f);
}
PROVIO_EXPORT size_t fread_unlocked(void* ptr, size_t size, size_t n, FILE* f) {
  return traced(s_fread_unlocked, on_stream<s_fread_unlocked, Op::kRead>(f, items_of(size)), ptr, size, n, f);
}
PROVIO_EXPORT size_t __fread_chk(void* ptr, size_t ptrlen, size_t size, size_t n, FILE* f) {
  return traced(s_fread_chk, on_stream<s_fread_chk, Op::kRead>(f, items_of(size)), ptr, ptrlen, size, n, f);
}
PROVIO_EXPORT size_t __fread_unlocked_chk(void* ptr, size_t ptrlen, size_t size, size_t n, FILE* f) {
  return traced(s_fread_unlocked_chk, on_stream<s_fread_unlocked_chk, Op::kRead>(f, items_of(size)), ptr,
                ptrlen, size, n, f);
}
PROVIO_EXPORT size_t fwrite(const void* ptr, size_t size, size_t n, FILE* f) {
  return traced(s_fwrite, on_stream<s_fwrite, Op::kWrite>(f, items_of(size)), ptr, size, n, f);
}
PROVIO_EXPORT size_t fwrite_unlocked(const void* ptr, size_t size, size_t n, FILE* f) {
  return traced(s_fwrite_unlocked, on_stream<s_fwrite_unlocked, Op::kWrite>(f, items_of(size)), ptr, size, n,
                f);
}
PROVIO_EXPORT char* fgets(char* s, int n, FILE* f) {
  return traced(s_fgets, on_stream<s_fgets, Op::kRead>(f, line_length), s, n, f);
}
PROVIO_EXPORT char* fgets_unlocked(char* s, int n, FILE* f) {
  return traced(s_fgets_unlocked, on_stream<s_fgets_unlocked, Op::kRead>(f, line_length), s, n, f);
}
PROVIO_EXPORT char* __fgets_chk(char* s, size_t size, int n, FILE* f) {
  return traced(s_fgets_chk, on_stream<s_fgets_chk, Op::kRead>(f, line_length), s, size, n, f);
}
PROVIO_EXPORT char* __fgets_unlocked_chk(char* s, size_t size, int n, FILE* f) {
  return traced(s_fgets_unlocked_chk, on_stream<s_fgets_unlocked_chk, Op::kRead>(f, line_length), s, size, n,
                f);
}
PROVIO_EXPORT ssize_t getline(char** line, size_t* n, FILE* f) {
  auto moved = [](ssize_t r) { return static_cast<std::int64_t>(r); };
  return traced(s_getline, on_stream<s_getline, Op::kRead>(f, moved), line, n, f);
}
PROVIO_EXPORT ssize_t getdelim(char** line, size_t* n, int delim, FILE* f) {
  auto moved = [](ssize_t r) { return static_cast<std::int64_t>(r); };
  return traced(s_getdelim, on_stream<s_getdelim, Op::kRead>(f, moved), line, n, delim, f);
}
PROVIO_EXPORT ssize_t __getdelim(char** line, size_t* n, int delim, FILE* f) {
  auto moved = [](ssize_t r) { return static_cast<std::int64_t>(r); };
  return traced(s_getdelim_internal, on_stream<s_getdelim_internal, Op::kRead>(f, moved), line, n, delim, f);
}
PROVIO_EXPORT int fputs(const char* s, FILE* f) {
  return traced(s_fputs, on_stream<s_fputs, Op::kWrite>(f, length_on_success(s)), s, f);
}
PROVIO_EXPORT int fputs_unlocked(const char* s, FILE* f) {
  return traced(s_fputs_unlocked, on_stream<s_fputs_unlocked, Op::kWrite>(f, length_on_success(s)), s, f);
}
PROVIO_EXPORT int puts(const char* s) {
  return traced(s_puts, on_stream<s_puts, Op::kWrite>(stdout, length_on_success(s, 1)), s);
}

PROVIO_EXPORT int vfprintf(FILE* f, const char* fmt, va_list ap) {
  return traced(s_vfprintf, on_stream<s_vfprintf, Op::kWrite>(f, printed), f, fmt, ap);
}
PROVIO_EXPORT int fprintf(FILE* f, const char* fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  int r = traced(s_fprintf, on_stream<s_fprintf, Op::kWrite>(f, printed), f, fmt, ap);
  va_end(ap);
  return r;
}
PROVIO_EXPORT int vprintf(const char* fmt, va_list ap) {
  return traced(s_vprintf, on_stream<s_vprintf, Op::kWrite>(stdout, printed), stdout, fmt, ap);
}
PROVIO_EXPORT int printf(const char* fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  int r = traced(s_printf, on_stream<s_printf, Op::kWrite>(stdout, printed), stdout, fmt, ap);
  va_end(ap);
  return r;
}
PROVIO_EXPORT int __vfprintf_chk(FILE* f, int flag, const char* fmt, va_list ap) {
  return traced(s_vfprintf_chk, on_stream<s_vfprintf_chk, Op::kWrite>(f, printed), f, flag, fmt, ap);
}
PROVIO_EXPORT int __fprintf_chk(FILE* f, int flag, const char* fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  int r = traced(s_fprintf_chk, on_stream<s_fprintf_chk, Op::kWrite>(f, printed), f, flag, fmt, ap);
  va_end(ap);
  return r;
}
PROVIO_EXPORT int __vprintf_chk(int flag, const char* fmt, va_list ap) {
  return traced(s_vprintf_chk, on_stream<s_vprintf_chk, Op::kWrite>(stdout, printed), stdout, flag, fmt, ap);
}
PROVIO_EXPORT int __printf_chk(int flag, const char* fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  int r = traced(s_printf_chk, on_stream<s_printf_chk, Op::kWrite>(stdout, printed), stdout, flag, fmt, ap);
  va_end(ap);
  return r;
}

PROVIO_EXPORT int fflush(FILE* f) {
  if (!f) return passthrough(s_fflush, f);  // all streams: nothing to attribute
  return traced(s_fflush, on_stream<s_fflush, Op::kFlush>(f, zero_on_success), f);
}
PROVIO_EXPORT int fseek(FILE* f, long off, int whence) {
  return traced(s_fseek, on_stream<s_fseek, Op::kAccess>(f, zero_on_success), f, off, whence);
}
PROVIO_EXPORT int fseeko(FILE* f, off_t off, int whence) {
  return traced(s_fseeko, on_stream<s_fseeko, Op::kAccess>(f, zero_on_success), f, off, whence);
}
PROVIO_EXPORT int fseeko64(FILE* f, off64_t off, int whence) {
  return traced(s_fseeko64, on_stream<s_fseeko64, Op::kAccess>(f, zero_on_success), f, off, whence);
}

// ---- directories: a listing is a read of the directory, one count per entry ----

PROVIO_EXPORT DIR* opendir(const char* path) {
  return traced(
      s_opendir,
      [path](DIR* d, const Timing& t) {
        if (d) emit(Op::kOpen, s_opendir.api(), bind_opened(dirfd(d), AT_FDCWD, path, true), 0, kNoOffset, t);
      },
      path);
}
PROVIO_EXPORT DIR* fdopendir(int fd) {
  return traced(
      s_fdopendir,
      [fd](DIR* d, const Timing& t) {
        if (d) emit(Op::kOpen, s_fdopendir.api(), fd_entity(fd), 0, kNoOffset, t);
      },
      fd);
}
PROVIO_EXPORT int closedir(DIR* d) {
  int fd;
  {
    provio::model::ErrnoSaver saved;
    fd = dir_fd(d);
  }
  int result = traced(
      s_closedir,
      [fd](int r, const Timing& t) {
        if (r == 0) emit(Op::kClose, s_closedir.api(), known_entity(fd), 0, kNoOffset, t);
      },
      d);
  if (fd >= 0) fd_table().clear(fd);  // closed inside libc, where close() is not seen
  return result;
}
PROVIO_EXPORT struct dirent* readdir(DIR* d) {
  return traced(
      s_readdir,
      [d](struct dirent* e, const Timing& t) {
        if (e) emit(Op::kRead, s_readdir.api(), known_entity(dirfd(d)), 0, kNoOffset, t);
      },
      d);
}
PROVIO_EXPORT struct dirent64* readdir64(DIR* d) {
  return traced(
      s_readdir64,
      [d](struct dirent64* e, const Timing& t) {
        if (e) emit(Op::kRead, s_readdir64.api(), known_entity(dirfd(d)), 0, kNoOffset, t);
      },
      d);
}

// ---- exec and spawn ----

// vfork is fork here (POSIX allows it). A vfork child shares its parent's memory until it execs:
// anything it recorded would land in the parent's buffers, and a flush there would write through
// descriptor numbers that mean other files in the parent. As a fork child it is a program execution
// of its own, with its own files, and its exec records and flushes like any other (dash runs every
// command through vfork). glibc's posix_spawn children run no wrapped code, so they stay fast.
PROVIO_EXPORT pid_t vfork() noexcept {
  return passthrough(s_vfork);
}

PROVIO_EXPORT int execve(const char* path, char* const argv[], char* const envp[]) noexcept {
  return exec_with(s_execve, false, path, argv, envp);
}
PROVIO_EXPORT int execv(const char* path, char* const argv[]) noexcept {
  return exec_with(s_execv, false, path, argv, environ);
}
PROVIO_EXPORT int execvp(const char* file, char* const argv[]) noexcept {
  return exec_with(s_execvp, true, file, argv, environ);
}
PROVIO_EXPORT int execvpe(const char* file, char* const argv[], char* const envp[]) noexcept {
  return exec_with(s_execvpe, true, file, argv, envp);
}
PROVIO_EXPORT int execl(const char* path, const char* arg, ...) noexcept {
  va_list ap;
  va_start(ap, arg);
  std::size_t argc = count_args(ap);
  char** argv = static_cast<char**>(alloca((argc + 1) * sizeof(char*)));
  collect_args(argv, arg, argc, ap, false);
  va_end(ap);
  return exec_with(s_execl, false, path, argv, environ);
}
PROVIO_EXPORT int execlp(const char* file, const char* arg, ...) noexcept {
  va_list ap;
  va_start(ap, arg);
  std::size_t argc = count_args(ap);
  char** argv = static_cast<char**>(alloca((argc + 1) * sizeof(char*)));
  collect_args(argv, arg, argc, ap, false);
  va_end(ap);
  return exec_with(s_execlp, true, file, argv, environ);
}
PROVIO_EXPORT int execle(const char* path, const char* arg, ...) noexcept {
  va_list ap;
  va_start(ap, arg);
  std::size_t argc = count_args(ap);
  char** argv = static_cast<char**>(alloca((argc + 1) * sizeof(char*)));
  char* const* envp = collect_args(argv, arg, argc, ap, true);
  va_end(ap);
  return exec_with(s_execle, false, path, argv, envp);
}
PROVIO_EXPORT int fexecve(int fd, char* const argv[], char* const envp[]) noexcept {
  return with_child_env(
      s_fexecve, Hand::kOver, [fd] { return fd_entity(fd); }, envp,
      [fd, argv](char* const* env) { return passthrough(s_fexecve, fd, argv, env); });
}

PROVIO_EXPORT int posix_spawn(pid_t* pid, const char* path, const posix_spawn_file_actions_t* actions,
                              const posix_spawnattr_t* attr, char* const argv[], char* const envp[]) {
  return with_child_env(
      s_posix_spawn, Hand::kSpawn, [path] { return program_entity(path ? path : ""); }, envp,
      [=](char* const* env) { return passthrough(s_posix_spawn, pid, path, actions, attr, argv, env); });
}
PROVIO_EXPORT int posix_spawnp(pid_t* pid, const char* file, const posix_spawn_file_actions_t* actions,
                               const posix_spawnattr_t* attr, char* const argv[], char* const envp[]) {
  return with_child_env(
      s_posix_spawnp, Hand::kSpawn, [file] { return program_entity(search_path(file)); }, envp,
      [=](char* const* env) { return passthrough(s_posix_spawnp, pid, file, actions, attr, argv, env); });
}
