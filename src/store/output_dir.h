// provio's output directory on a shared machine (docs/security.md).
//
// Hard rule: provio writes only into a directory that the user running it owns and that no other
// user can replace files in. /tmp, project and scratch directories are shared, and provio runs as
// every user, root included: a directory another user created (or can write without the sticky
// bit), or a symlink another user planted on the way, would let that user read, redirect or forge
// the provenance. Such a directory is refused and nothing is recorded (the caller warns once).
#pragma once

#include <sys/types.h>

#include <string>

namespace provio::store {

// Modes of provio's own directories and files: 0700 / 0600, or 0750 / 0640 when the user asks
// for group sharing (PROVIO_SHARE=group). The umask may take more away.
struct OwnModes {
  mode_t dir;
  mode_t file;
};
OwnModes own_modes();

enum class DirStatus {
  kReady,
  kFailed,   // a system call failed: errno says why
  kRefused,  // someone else could tamper with it: `why` says how
};

// Creates the missing components of `dir` (mode `dir_mode`) and checks the whole path as the
// kernel resolves it (`dir` is absolute: model::output_dir(); links followed). Refuses:
// - below a directory every user can write to (/tmp, a scratch area), any component, directory
//   or link, owned by another user than root and the user running provio;
// - a symlink of another user (root aside) unless it lies in a directory of that user's that
//   others cannot write to;
// - a directory on the way writable by all without the sticky bit;
// - a final directory owned by another user.
DirStatus prepare_output_dir(const std::string& dir, mode_t dir_mode, std::string& why);

}  // namespace provio::store
