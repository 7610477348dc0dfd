// The environment an exec'd program gets: the caller's, with PROVIO_PARENT_RUN set to the caller's
// program execution so that the new execution links to it (model/identity.h).
//
// Hard rule: no allocation. exec may run in a vfork child, which shares the parent's heap and
// locks; the caller provides the storage (on its stack).
#pragma once

#include <cstddef>

namespace provio::posix {

inline constexpr const char kParentRunVar[] = "PROVIO_PARENT_RUN";
inline constexpr std::size_t kEntrySize = 1024;  // "PROVIO_PARENT_RUN=<run IRI>"
// Environments with more entries go to the child unchanged (the copy is built on the stack).
inline constexpr std::size_t kMaxEnv = 1 << 14;

// Entries in `env` (null-terminated; nullptr counts as empty).
std::size_t env_count(char* const* env);

// Writes "PROVIO_PARENT_RUN=<this execution's IRI>" into `entry` (kEntrySize bytes); false if the
// identity is unknown or does not fit.
bool parent_run_entry(char* entry);

// `out` (room for env_count(env) + 2 pointers) receives `env` without any PROVIO_PARENT_RUN entry,
// then `entry`, then nullptr.
void child_env(char** out, char* const* env, const char* entry);

}  // namespace provio::posix
