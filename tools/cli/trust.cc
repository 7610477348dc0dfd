// The whole-path rule for the tools' inputs (see trust.h).
#include "cli/trust.h"

#include <dirent.h>
#include <pwd.h>
#include <unistd.h>

#include <climits>
#include <cstdlib>
#include <string_view>

namespace provio::cli {
namespace {

bool trusted_owner(uid_t uid) {
  return uid == 0 || uid == geteuid();
}

std::string owner_text(uid_t uid) {
  std::string text = "uid " + std::to_string(uid);
  struct passwd pw, *found = nullptr;
  char buf[1024];
  if (::getpwuid_r(uid, &pw, buf, sizeof buf, &found) == 0 && found)
    text += std::string(" (") + pw.pw_name + ")";
  return text;
}

// Judges one component given the directory every user can write to that it lies below ("" if none).
void judge(const std::string& path, const struct stat& st, const std::string& open_dir, Trust& t) {
  if (!open_dir.empty() && !trusted_owner(st.st_uid)) {
    t.ok = false;
    t.why = path + " is owned by " + owner_text(st.st_uid) + ", below " + open_dir +
            ", which every user can write to";
  }
}

// Walks the components of `path` (made absolute) from the root as named; stops after the first
// symbolic link (path_trust judges where it leads) and at the first missing component (opening
// it reports that).
Trust walk(const std::string& path) {
  Trust t;
  std::string abs = path;
  if (abs.empty() || abs[0] != '/') {
    char cwd[PATH_MAX];
    if (!::getcwd(cwd, sizeof cwd)) return t;  // nothing to judge against: opening fails too
    abs = std::string(cwd) + "/" + path;
  }
  std::string open_dir;
  struct stat st;
  if (::lstat("/", &st) == 0 && (st.st_mode & S_IWOTH)) open_dir = "/";
  for (std::size_t i = 1; i <= abs.size(); ++i) {
    if (i < abs.size() && abs[i] != '/') continue;
    std::string partial = abs.substr(0, i);
    if (partial.back() == '/') continue;  // "//"
    if (::lstat(partial.c_str(), &st) != 0) break;
    judge(partial, st, open_dir, t);
    if (!t.ok || S_ISLNK(st.st_mode)) return t;
    if (open_dir.empty() && S_ISDIR(st.st_mode) && (st.st_mode & S_IWOTH)) open_dir = partial;
  }
  t.open_dir = open_dir;
  return t;
}

}  // namespace

Trust path_trust(const std::string& path) {
  Trust named = walk(path);
  if (!named.ok) return named;
  // A link of the user's own may lead anywhere: judge where it leads too.
  char real[PATH_MAX];
  if (!::realpath(path.c_str(), real)) return named;
  return walk(real);
}

Trust entry_trust(const std::string& path, const struct stat& st, const Trust& parent) {
  Trust t;
  judge(path, st, parent.open_dir, t);
  if (!t.ok) return t;
  if (S_ISLNK(st.st_mode)) return path_trust(path);
  t.open_dir = parent.open_dir;
  if (t.open_dir.empty() && S_ISDIR(st.st_mode) && (st.st_mode & S_IWOTH)) t.open_dir = path;
  return t;
}

Trust directory_trust(const std::string& dir) {
  Trust t = path_trust(dir);
  if (!t.ok || t.open_dir.empty()) return t;
  DIR* d = ::opendir(dir.c_str());
  if (!d) return t;
  while (dirent* e = ::readdir(d)) {
    std::string_view name = e->d_name;
    if (name == "." || name == "..") continue;
    std::string path = dir + "/" + e->d_name;
    struct stat st;
    if (::lstat(path.c_str(), &st) != 0) continue;
    Trust entry = entry_trust(path, st, t);
    if (!entry.ok) {
      t = entry;
      break;
    }
  }
  ::closedir(d);
  return t;
}

}  // namespace provio::cli
