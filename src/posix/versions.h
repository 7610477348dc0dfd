// File versions at the POSIX layer (docs/format.md, "Versions"). A descriptor's write epoch ends
// at its close, or at the process's exit while still open (a shell's `> out.txt`); the version it
// leaves is named from a stat then. A reader's version is named from a stat at the first read
// through a descriptor (opened here or inherited, like a shell's `< in.txt`) and carried by all
// its reads: a program that opens a file and never reads it (a lock file, an existence check)
// pays nothing.
//
// Hard rule: a stat per descriptor read from and per close of a written descriptor; no stat and
// no lock per later read or write (relaxed loads of the descriptor's slot and version).
#pragma once

#include <sys/types.h>

#include "model/event.h"
#include "posix/fd_table.h"

namespace provio::posix {

// A write or truncation through `fd`: its close will end a write epoch. Inline for the common
// case, a descriptor already marked: one load of its slot.
void mark_first_write(int fd, std::uint32_t slot);
inline void mark_written(int fd) {
  std::uint32_t v = fd_table().get(fd);
  if (v == kIgnored || v == kUnknown || (v & kWritten)) return;
  mark_first_write(fd, v);
}

// A read through `fd` naming `file`: the version it reads, named from a stat at the descriptor's
// first read and remembered for the later ones (descriptors below FdTable::kDirect; above, the
// first read only); kNoEntity once the descriptor was written through.
model::EntityId version_read(int fd, model::EntityId file);

// Before a close: what names the version a written descriptor leaves. Runs outside any recorder
// (it guards itself and keeps errno).
struct PendingVersion {
  model::EntityId file = model::kNoEntity;
  dev_t dev = 0;
  ino_t ino = 0;
};
PendingVersion stat_before_close(int fd, std::uint32_t slot);
inline PendingVersion before_close(int fd) {
  std::uint32_t v = fd_table().get(fd);
  if (v == kIgnored || !(v & kWritten) || !slot_used(v)) return {};  // most closes: inline, no stat
  return stat_before_close(fd, v);
}
// After a successful close: that version, from a stat of the file's path (stdio writes its last
// buffer inside fclose, so a stat before the close would be too early); kNoEntity if the path no
// longer names the same file.
model::EntityId stat_after_close(const PendingVersion& pending);
inline model::EntityId after_close(const PendingVersion& pending) {
  return pending.file == model::kNoEntity ? model::kNoEntity : stat_after_close(pending);
}

}  // namespace provio::posix
