// Output directory checks (see output_dir.h). Raw syscalls: the preload shim must not see them.
//
// The path is walked as the kernel resolves it, one component at a time, following symbolic links
// by hand, so that every directory the provenance would pass through is judged, not only the last
// one: a directory of another user's below /tmp is as dangerous as a link of theirs.
#include "store/output_dir.h"

#include <fcntl.h>
#include <limits.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <vector>

#include "model/config.h"

namespace provio::store {
namespace {

constexpr int kMaxLinks = 40;  // the kernel's own limit (MAXSYMLINKS)

bool lstat_at(const std::string& path, struct stat& st) {
  return syscall(SYS_newfstatat, AT_FDCWD, path.c_str(), &st, AT_SYMLINK_NOFOLLOW) == 0;
}

std::string uid_text(uid_t uid) {
  return "uid " + std::to_string(uid);
}

std::string mode_text(mode_t mode) {
  char text[8];
  std::snprintf(text, sizeof text, "%04o", static_cast<unsigned>(mode & 07777));
  return text;
}

bool foreign(uid_t uid) {
  return uid != geteuid() && uid != 0;
}

// Splits `path` into its names and pushes them, last first, onto `pending` (a stack: the next
// component to walk is at the back).
void push_components(const std::string& path, std::vector<std::string>& pending) {
  std::size_t end = path.size();
  while (end > 0) {
    std::size_t slash = path.rfind('/', end - 1);
    std::size_t begin = slash == std::string::npos ? 0 : slash + 1;
    if (end > begin) pending.push_back(path.substr(begin, end - begin));
    if (slash == std::string::npos) break;
    end = slash;
  }
}

std::string parent_of(const std::string& resolved) {
  std::size_t slash = resolved.rfind('/');
  return slash == 0 || slash == std::string::npos ? "/" : resolved.substr(0, slash);
}

}  // namespace

OwnModes own_modes() {
  if (model::config().share_group) return {0750, 0640};
  return {0700, 0600};
}

DirStatus prepare_output_dir(const std::string& dir, mode_t dir_mode, std::string& why) {
  if (dir.empty()) {
    why =
        "no output directory (the directory the process started in is unknown or removed, and PROVIO_DIR "
        "is not an absolute path)";
    return DirStatus::kRefused;
  }
  if (dir[0] != '/') {  // model::output_dir() resolves it against the start directory
    why = "the output directory " + dir + " is not an absolute path";
    return DirStatus::kRefused;
  }
  std::vector<std::string> pending;
  push_components(dir, pending);
  std::string resolved;  // the directory reached so far, without links; "" is "/"
  // Once the walk has passed a directory every user can write to, each component below it must
  // belong to the user running provio or to root: anything else may have been put there, or be
  // replaced at will, by the other user.
  bool below_shared = false;
  std::string shared_dir;
  int links = 0;
  struct stat st;
  if (!lstat_at("/", st)) return DirStatus::kFailed;
  if (st.st_mode & S_IWOTH) below_shared = true, shared_dir = "/";
  while (!pending.empty()) {
    std::string name = std::move(pending.back());
    pending.pop_back();
    if (name == ".") continue;
    if (name == "..") {
      resolved = parent_of(resolved.empty() ? "/" : resolved);
      if (resolved == "/") resolved.clear();
      continue;
    }
    const std::string path = resolved + "/" + name;
    if (!lstat_at(path, st)) {
      if (errno != ENOENT) return DirStatus::kFailed;
      if (syscall(SYS_mkdirat, AT_FDCWD, path.c_str(), dir_mode) != 0 && errno != EEXIST)
        return DirStatus::kFailed;
      if (!lstat_at(path, st)) return DirStatus::kFailed;
    }
    if (below_shared && foreign(st.st_uid)) {
      why = path + (S_ISLNK(st.st_mode) ? " is a symbolic link" : " is") + " owned by " +
            uid_text(st.st_uid) + " below " + shared_dir + ", which every user can write to";
      return DirStatus::kRefused;
    }
    if (S_ISLNK(st.st_mode)) {
      // The kernel's fs.protected_symlinks rule, which not every machine enables, made stricter:
      // a link of another user (root aside) is followed only from a directory that user owns and
      // others cannot write to (a project leader's link in their own directory).
      struct stat parent;
      if (foreign(st.st_uid) && !(lstat_at(resolved.empty() ? "/" : resolved, parent) &&
                                  parent.st_uid == st.st_uid && !(parent.st_mode & S_IWOTH))) {
        why = path + " is a symbolic link owned by " + uid_text(st.st_uid) +
              " in a directory others can write to";
        return DirStatus::kRefused;
      }
      if (++links > kMaxLinks) {
        errno = ELOOP;
        return DirStatus::kFailed;
      }
      char target[PATH_MAX];
      long n = syscall(SYS_readlinkat, AT_FDCWD, path.c_str(), target, sizeof target - 1);
      if (n <= 0) return DirStatus::kFailed;
      target[n] = '\0';
      push_components(target, pending);
      if (target[0] == '/') {
        // An absolute target starts over: the directories passed so far are no longer on the way.
        resolved.clear();
        below_shared = false;
        if (!lstat_at("/", st)) return DirStatus::kFailed;
        if (st.st_mode & S_IWOTH) below_shared = true, shared_dir = "/";
      }
      continue;
    }
    if (!S_ISDIR(st.st_mode)) {
      errno = ENOTDIR;
      return DirStatus::kFailed;
    }
    if ((st.st_mode & S_IWOTH) && !(st.st_mode & S_ISVTX)) {
      why = path + " is writable by every user (mode " + mode_text(st.st_mode) + ", no sticky bit)";
      return DirStatus::kRefused;
    }
    if (st.st_mode & S_IWOTH) below_shared = true, shared_dir = path;
    resolved = path;
  }
  if (!lstat_at(resolved.empty() ? "/" : resolved, st)) return DirStatus::kFailed;
  if (st.st_uid != geteuid()) {
    why = (resolved.empty() ? "/" : resolved) + " is owned by " + uid_text(st.st_uid) +
          ", not by the user running provio (" + uid_text(geteuid()) + ")";
    return DirStatus::kRefused;
  }
  return DirStatus::kReady;
}

}  // namespace provio::store
