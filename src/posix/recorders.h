// The recorders of the preload shim: what each kind of wrapped call records once the real call
// has returned (the `record` argument of traced() in wrapper.h). posix_abi.cc builds every
// exported wrapper from one of these; docs/posix.md says what each call records.
//
// Hard rule: a recorder records only what the call did (failed calls record nothing) and never
// changes the call's result, errno or descriptors. Each recorder takes its wrapper's Symbol as a
// template argument, so that it is inlined into that wrapper (see "recorders" below).
//
// posix_abi.cc is its only includer, and everything here has internal linkage (an unnamed
// namespace), as it had when it was written in that file: GCC then inlines a helper called from
// one wrapper into it. With external linkage close() and fclose() called closed() out of line
// (+30 instructions per open + close, bench/posix/instructions).
#pragma once

#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>

#include <cstdint>
#include <type_traits>

#include "model/entities.h"
#include "model/iri.h"
#include "posix/call_args.h"
#include "posix/fd_table.h"
#include "posix/paths.h"
#include "posix/store_state.h"
#include "posix/versions.h"
#include "posix/wrapper.h"
#include "store/recorder.h"

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

// open, open64, openat and openat64 once their mode is read (mode_arg): one traced call. open and
// open64 take no directory descriptor (their `dirfd` is AT_FDCWD). The wrappers read the mode
// and va_end before this call: with the list still live across it, each read stored its advanced
// position back (+5 instructions in open), and a helper that reads the list is never inlined.
template <const auto& sym>
int open_with_mode(int dirfd, const char* path, int flags, mode_t mode) {
  if constexpr (std::is_invocable_v<decltype(sym.real()), int, const char*, int>)
    return traced(sym, opened<sym>(dirfd, path, flags), dirfd, path, flags, mode);
  else
    return traced(sym, opened<sym>(dirfd, path, flags), path, flags, mode);
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

// dup and friends record nothing: the new descriptor names what the old one did, and reads the
// version it reads (versions.h).
auto duplicated(int from) {
  return [from](int to, const Timing&) {
    if (to >= 0 && to != from) share_descriptor(from, to);
  };
}

// dup2, dup3: the call closes what `to` named. A written file's epoch may end there, as at
// close() (a shell restoring its stdout after a builtin's `echo x > out.txt`): the version is
// prepared before the call and recorded after it, a Close of API dup2/dup3.
template <typename Fn, typename... Flags>
int duplicate_onto(const Symbol<Fn>& sym, int from, int to, Flags... flags) {
  PendingVersion pending = to != from ? before_close(to) : PendingVersion{};
  return traced(
      sym,
      [&sym, from, &pending](int r, const Timing& t) {
        if (r < 0) return;
        if (pending.file != kNoEntity) record_written_close(sym.api(), t.start_ns, t.elapsed_ns, pending);
        duplicated(from)(r, t);
      },
      from, to, flags...);
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

}  // namespace
}  // namespace provio::posix
