// File versions at the POSIX layer (docs/format.md, "Versions"). A descriptor's write epoch ends
// at its close, or at the process's exit while still open (a shell's `> out.txt`); the version it
// leaves is named from a stat then. A reader's version is named from a stat at the first read
// through a descriptor (opened here or inherited, like a shell's `< in.txt`) and carried by all
// its reads: a program that opens a file and never reads it (a lock file, an existence check)
// pays nothing.
//
// At every level, consecutive write epochs of one file by one thread with no read of it by that
// thread between them are one *run*: the first close names its version at once, the later ones
// name none, and the run's last close is held back until the run ends (a read of the file by the
// thread, another file taking its slot, a fork, the thread's or the process's end), when it is
// recorded generating the version the file holds then. A program that rewrites one file a million
// times leaves two versions of it, not a million; lineage attributes the versions others read in
// between to it by their modification time (docs/prov-query.md, "Lineage"). At level trace too:
// a version per epoch cost a stat and a new entity per close (~5 µs per fopen/fwrite/fclose
// cycle), most of what trace level cost a program that rewrites a file.
//
// Hard rule: a stat per descriptor read from and per close that starts or ends a run; no stat and
// no lock per later read, write or close within a run (relaxed loads and the thread's own table).
#pragma once

#include <sys/types.h>

#include <atomic>
#include <cstdint>

#include "model/event.h"
#include "posix/fd_table.h"
#include "posix/wrapper.h"
#include "posix/write_runs.h"

namespace provio::posix {

// A write epoch started (kWritten set in a descriptor's slot): the first of the image registers
// the exit handler that names the versions of descriptors still open at exit. Inline: one load
// once registered (every fopen of a file for writing starts an epoch).
namespace detail {
extern std::atomic<pid_t> g_exit_pid;  // the image that registered it, 0 before
void register_exit_versions();
}  // namespace detail
inline bool write_epochs_noted() {
  return detail::g_exit_pid.load(std::memory_order_relaxed) != 0;
}
inline void note_write_epoch() {
  if (!write_epochs_noted()) detail::register_exit_versions();
}

// A write or truncation through `fd`: its close will end a write epoch. Inline for the common
// case, a descriptor already marked: one load of its slot. (An open that truncates marks its slot
// as it binds it: bind_opened's `slot_flags`.)
inline void mark_slot_written(int fd, std::uint32_t v) {  // `v`: fd's used slot, as just read
  if (v & kWritten) return;
  fd_table().set(fd, v | kWritten);
  note_write_epoch();
}
inline void mark_written(int fd) {
  std::uint32_t v = fd_table().get(fd);
  if (v != kIgnored && v != kUnknown) mark_slot_written(fd, v);
}

// The version each descriptor below FdTable::kDirect reads, with the file it was named for:
// (file << 32) | version, set at the descriptor's first read so that all its reads are one
// activity per version. Zero-initialised .bss, touched only where descriptors are read.
extern std::atomic<std::uint64_t> g_read_versions[FdTable::kDirect];
// version_read() at a descriptor's first read: stats it and names the version.
model::EntityId first_version_read(int fd, model::EntityId file, std::uint32_t slot);

// A read through `fd` naming `file`: the version it reads, named from a stat at the descriptor's
// first read and remembered for the later ones (descriptors below FdTable::kDirect; above, the
// first read only); kNoEntity once the descriptor was written through. Inline for the common
// case, a later read: two loads.
inline model::EntityId version_read(int fd, model::EntityId file) {
  std::uint32_t v = fd_table().get(fd);
  if (file == model::kNoEntity || v == kIgnored || (v & kWritten)) return model::kNoEntity;
  if (!(v & kVersionKnown)) return first_version_read(fd, file, v);
  // The file check drops what a reused descriptor number left.
  std::uint64_t known =
      fd >= 0 && fd < FdTable::kDirect ? g_read_versions[fd].load(std::memory_order_relaxed) : 0;
  return (known >> 32) == file ? static_cast<model::EntityId>(known) : model::kNoEntity;
}

// dup, dup2, dup3, fcntl(F_DUPFD*) made `to` a copy of `from`: it names the same file, reads the
// same version, and both are marked kDuplicated (before_close). Out of line: duplication is rare.
void share_descriptor(int from, int to);

// exec (exec_calls.h): the descriptors this image hands to the program it execs and used without
// reading or writing them (a shell opened `< in.txt` and dup'ed it onto 0 for that program) are
// bound to the version their file holds now, each recorded as an access of API `api` using it:
// the use binds to the content there when it happened, in the raw files, not by time in the
// tools. Descriptors marked close-on-exec, written or already read are not handed on as such.
void record_handed_versions(model::ApiId api);

// Before a close: what names the version a written descriptor leaves. Runs outside any recorder
// (it guards itself and keeps errno); also before a dup2/dup3 that replaces a descriptor. A copy
// (kDuplicated) closed while another descriptor of this image still writes the file names none:
// the epoch ends when that one is closed or replaced, or at exit (a shell's `> out.txt` opened on
// 3, dup'ed onto 1 and 3 closed before the exec). `in_run`: the close continues this thread's run
// of write epochs of `file`, so nothing was stat'ed.
struct PendingVersion {
  model::EntityId file = model::kNoEntity;
  dev_t dev = 0;
  ino_t ino = 0;
  bool in_run = false;
};
PendingVersion stat_before_close(int fd, std::uint32_t slot);
inline PendingVersion before_close(int fd) {
  std::uint32_t v = fd_table().get(fd);
  if (v == kIgnored || !(v & kWritten) || !slot_used(v)) return {};  // most closes: inline, no stat
  // A close that continues this thread's run of write epochs of the file: nothing to stat. (Not
  // asked whether the close is recorded: only its recorder reads the answer.)
  model::EntityId file = slot_entity(v);
  if (file != model::kNoEntity && run_of(file)) return {file, 0, 0, true};
  return stat_before_close(fd, v);
}

// After a successful close of a written descriptor (pending.file set): records the Close of `api`
// and the version it left, now (from a stat of the file's path: stdio writes its last buffer
// inside fclose, so a stat before the close would be too early) or when its run ends. Out of
// line: inlined, it made every close's recording dearer (its registers saved on every path).
void record_written_close(model::ApiId api, std::uint64_t start_ns, std::uint64_t elapsed_ns,
                          const PendingVersion& pending);

// Ends the calling thread's runs of write epochs, recording their held closes with the versions
// they left: the process is ending (exit, _exit, a terminating signal).
void end_write_runs();
// fork (wrapper.cc's handlers): the forking thread's runs end first, since the child may read what
// it wrote; the child forgets the copies it inherited.
void end_write_runs_before_fork();
void forget_write_runs();

}  // namespace provio::posix
