// From what a call names (a path, a directory descriptor plus a path, a descriptor) to the entity
// the core records, with the exclusions applied.
//
// Hard rule: path canonicalisation (getcwd, realpath, readlink of /proc/self/fd) happens when a
// name is first met — open, stat, rename, … — never per read or write. A per-thread cache maps the
// names a thread keeps using to their entities; it is dropped when this process changes what names
// mean (chdir, rename, unlink, symlink, …). Every function here runs inside a wrapper's recorder
// (errno saved, "inside" flag set).
#pragma once

#include <fcntl.h>

#include <atomic>
#include <cstdint>
#include <cstring>
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

namespace detail {
// Bumped by names_changed(): cached names of an older generation are stale.
extern std::atomic<std::uint32_t> g_names_generation;

// A copy of the thread's last name-cache lookup (paths.cc keeps it in step with the cache entry
// whose name it points to): a name looked up again (a polled lock file, a loop reopening or
// stat'ing its input) is answered inline by one comparison, before any call. initial-exec, like
// tls_inside: the shim is loaded at start-up.
struct LastName {
  const char* path;  // the entry's name, null when there is none
  std::size_t size;
  std::uint32_t value;  // entity or kIgnored
  std::uint32_t generation;
  std::uint8_t kind;  // kind_of(follow, class)
};
inline thread_local LastName tls_last_name __attribute__((tls_model("initial-exec"))) = {nullptr, 0, 0, 0, 0};

constexpr std::uint8_t kind_of(bool follow, model::EntityClass cls) {
  return static_cast<std::uint8_t>((static_cast<unsigned>(cls) << 1) | (follow ? 1u : 0u));
}

// Whether `path` (a cacheable name: absolute, or relative to the working directory) is the last
// name looked up, with the same kind; its value then. The comparison is bounded by the cached
// name's length.
inline bool last_hit(const char* path, std::uint8_t kind, std::uint32_t* value) {
  const LastName& l = tls_last_name;
  if (!l.path || l.generation != g_names_generation.load(std::memory_order_relaxed) || l.kind != kind ||
      std::strncmp(l.path, path, l.size + 1) != 0)
    return false;
  *value = l.value;
  return true;
}
inline bool cacheable(int dirfd, const char* path) {
  return path && (path[0] == '/' || dirfd == AT_FDCWD);
}

model::EntityId bind_opened_lookup(int fd, int dirfd, const char* path, bool directory,
                                   std::uint32_t slot_flags);
model::EntityId path_entity_lookup(int dirfd, const char* path, bool follow, model::EntityClass cls);
}  // namespace detail

// After a successful open of `path` (relative to `dirfd`) that returned `fd`: which entity fd now
// names, also stored in the descriptor table with `slot_flags` (kWritten for an open that
// truncates or creates: one store where marking it afterwards took a second, and a call).
// kNoEntity when not tracked.
inline model::EntityId bind_opened(int fd, int dirfd, const char* path, bool directory,
                                   std::uint32_t slot_flags = 0) {
  std::uint32_t value;
  // Same key as path_entity's follow lookups: open follows symlinks too.
  std::uint8_t kind =
      detail::kind_of(true, directory ? model::EntityClass::kDirectory : model::EntityClass::kFile);
  if (!(detail::cacheable(dirfd, path) && detail::last_hit(path, kind, &value)))
    return detail::bind_opened_lookup(fd, dirfd, path, directory, slot_flags);
  fd_table().set(fd, value == kIgnored ? kIgnored : value | kUsed | slot_flags);
  return value == kIgnored ? model::kNoEntity : value;
}

// The entity `path` names (relative to `dirfd`, AT_FDCWD for the working directory). `follow`:
// a final symlink is resolved (stat, truncate) or is itself the entity (lstat, unlink, rename).
// kNoEntity when excluded or not tracked.
inline model::EntityId path_entity(int dirfd, const char* path, bool follow, model::EntityClass cls) {
  std::uint32_t value;
  if (!(detail::cacheable(dirfd, path) && detail::last_hit(path, detail::kind_of(follow, cls), &value)))
    return detail::path_entity_lookup(dirfd, path, follow, cls);
  return value == kIgnored ? model::kNoEntity : value;
}

// The canonical form of `path` (relative to `dirfd`), with the same `follow` rule; empty if the
// directory descriptor cannot be resolved.
std::string canonical(int dirfd, const char* path, bool follow);

// Something this process did may have changed what names resolve to: drop every thread's cache.
void names_changed();

// The executable `file` names as execvp would find it through PATH ("" if none).
std::string search_path(const char* file);

}  // namespace provio::posix
