// From what a call names (a path, a directory descriptor plus a path, a descriptor) to the entity
// the core records, with the exclusions applied.
//
// Hard rule: path canonicalisation (getcwd, realpath, readlink of /proc/self/fd) happens when a
// name is first met — open, stat, rename, … — never per read or write. A per-thread cache maps the
// names a thread keeps using to their entities; it is dropped when this process changes what names
// mean (chdir, rename, unlink, symlink, …). Every function here runs inside a wrapper's recorder
// (errno saved, "inside" flag set).
#pragma once

#include <string>
#include <string_view>

#include "model/event.h"
#include "model/vocabulary.h"
#include "posix/fd_table.h"

namespace provio::posix {

// Path prefixes not recorded (PROVIO_POSIX_EXCLUDE, docs/posix.md) and provio's output directory.
bool excluded(std::string_view canonical_path);
// Reads the exclusion settings now (library constructor; tests).
void load_exclusions();

// The entity a descriptor names; resolves a descriptor never seen before (inherited, or opened by
// a call the shim does not wrap) through /proc/self/fd once. kNoEntity when it is not a tracked
// file (pipe, socket, terminal, excluded path).
// Marks the descriptor used (data moved through it). Inline for the common case, a descriptor
// already used: one load of its slot.
model::EntityId resolve_fd_entity(int fd);
inline model::EntityId fd_entity(int fd) {
  std::uint32_t v = fd_table().get(fd);
  if (v == kIgnored) return model::kNoEntity;
  return slot_used(v) ? slot_entity(v) : resolve_fd_entity(fd);
}
// The same, for calls that only touch a descriptor (flush, close, seek, fstat): kNoEntity unless
// this image opened it or moved data through it.
model::EntityId fd_entity_if_used(int fd);

// After a successful open of `path` (relative to `dirfd`) that returned `fd`: which entity fd now
// names, also stored in the descriptor table. kNoEntity when not tracked.
model::EntityId bind_opened(int fd, int dirfd, const char* path, bool directory);

// The entity `path` names (relative to `dirfd`, AT_FDCWD for the working directory). `follow`:
// a final symlink is resolved (stat, truncate) or is itself the entity (lstat, unlink, rename).
// kNoEntity when excluded or not tracked.
model::EntityId path_entity(int dirfd, const char* path, bool follow, model::EntityClass cls);

// The canonical form of `path` (relative to `dirfd`), with the same `follow` rule; empty if the
// directory descriptor cannot be resolved.
std::string canonical(int dirfd, const char* path, bool follow);

// Something this process did may have changed what names resolve to: drop every thread's cache.
void names_changed();

// The executable `file` names as execvp would find it through PATH ("" if none).
std::string search_path(const char* file);

}  // namespace provio::posix
