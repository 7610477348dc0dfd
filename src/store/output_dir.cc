// Output directory checks (see output_dir.h). Raw syscalls: the preload shim must not see them.
#include "store/output_dir.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>

#include "model/config.h"

namespace provio::store {
namespace {

bool stat_at(const std::string& path, struct stat& st, bool follow) {
  return syscall(SYS_newfstatat, AT_FDCWD, path.c_str(), &st, follow ? 0 : AT_SYMLINK_NOFOLLOW) == 0;
}

std::string uid_text(uid_t uid) {
  return "uid " + std::to_string(uid);
}

// Whether one existing component may be passed through; `why` otherwise. The kernel's
// fs.protected_symlinks rule, which not every machine enables, made stricter: a link of another
// user (root aside) is followed only from a directory that user owns and others cannot write to,
// where nobody but its owner could have put it (a project leader's link in their own directory).
bool component_ok(const std::string& path, const struct stat& st, std::string& why) {
  if (!S_ISLNK(st.st_mode) || st.st_uid == geteuid() || st.st_uid == 0) return true;
  std::size_t slash = path.rfind('/');
  std::string parent = slash == std::string::npos ? "." : slash == 0 ? "/" : path.substr(0, slash);
  struct stat dir;
  if (stat_at(parent, dir, true) && dir.st_uid == st.st_uid && !(dir.st_mode & S_IWOTH)) return true;
  why = path + " is a symbolic link owned by " + uid_text(st.st_uid) + " in a directory others can write to";
  return false;
}

}  // namespace

OwnModes own_modes() {
  if (model::config().share_group) return {0750, 0640};
  return {0700, 0600};
}

DirStatus prepare_output_dir(const std::string& dir, mode_t dir_mode, std::string& why) {
  if (dir.empty()) {
    why = "no output directory (the working directory is unknown and PROVIO_DIR is not set)";
    return DirStatus::kRefused;
  }
  for (std::size_t i = 0; i <= dir.size();) {
    std::size_t j = dir.find('/', i);
    if (j == std::string::npos) j = dir.size();
    std::string partial = dir.substr(0, j);
    i = j + 1;
    if (partial.empty()) continue;
    struct stat st;
    if (!stat_at(partial, st, false)) {
      if (errno != ENOENT) return DirStatus::kFailed;
      if (syscall(SYS_mkdirat, AT_FDCWD, partial.c_str(), dir_mode) != 0 && errno != EEXIST)
        return DirStatus::kFailed;
      if (!stat_at(partial, st, false)) return DirStatus::kFailed;
    }
    if (!component_ok(partial, st, why)) return DirStatus::kRefused;
  }
  struct stat st;
  if (!stat_at(dir, st, true)) return DirStatus::kFailed;
  if (!S_ISDIR(st.st_mode)) {
    errno = ENOTDIR;
    return DirStatus::kFailed;
  }
  if (st.st_uid != geteuid()) {
    why = dir + " is owned by " + uid_text(st.st_uid) + ", not by the user running provio (" +
          uid_text(geteuid()) + ")";
    return DirStatus::kRefused;
  }
  if ((st.st_mode & S_IWOTH) && !(st.st_mode & S_ISVTX)) {
    char mode[8];
    std::snprintf(mode, sizeof mode, "%04o", static_cast<unsigned>(st.st_mode & 07777));
    why = dir + " is writable by every user (mode " + mode + ", no sticky bit)";
    return DirStatus::kRefused;
  }
  return DirStatus::kReady;
}

}  // namespace provio::store
