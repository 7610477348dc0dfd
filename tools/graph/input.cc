// Input files and directories (see input.h and reader.h's list_inputs).
#include "graph/input.h"

#include <dirent.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <set>
#include <utility>

#include "graph/reader.h"

namespace provio::rdf {
namespace {

const char* kind_of(mode_t mode) {
  if (S_ISFIFO(mode)) return "a FIFO";
  if (S_ISSOCK(mode)) return "a socket";
  if (S_ISCHR(mode) || S_ISBLK(mode)) return "a device";
  if (S_ISDIR(mode)) return "a directory";
  return "a special file";
}

bool has_suffix(const std::string& s, const char* suffix) {
  std::size_t n = std::strlen(suffix);
  return s.size() >= n && s.compare(s.size() - n, n, suffix) == 0;
}

// Walks directories, following symlinked directories once: `seen` holds the (device, inode) of
// every directory entered, so a link back up the tree (or a second link to one directory) is
// reported instead of read twice or for ever.
class Walker {
 public:
  Walker(ReadResult& result, bool other_files_are_damage, cli::OtherOwners other_owners)
      : result_(result), other_files_are_damage_(other_files_are_damage), other_owners_(other_owners) {}

  // Whether `path`, judged `trust`, may be read; reports it when not, or when read with a warning.
  bool trusted(const std::string& path, const cli::Trust& trust) {
    if (trust.ok) return true;
    if (other_owners_ == cli::OtherOwners::kWarn) {
      result_.messages.push_back(path +
                                 ": warning: read although another user could have planted it: " + trust.why);
      return true;
    }
    damaged(path, "refused: another user could have planted it: " + trust.why +
                      " (name it with --trust-inputs to read it anyway)");
    return false;
  }

  void directory(const std::string& dir, const struct stat& st, const cli::Trust& trust,
                 std::vector<std::string>& found) {
    if (!seen_.insert({st.st_dev, st.st_ino}).second) {
      result_.messages.push_back(dir +
                                 ": skipped: directory already read (symbolic link loop or second link)");
      return;
    }
    DIR* d = ::opendir(dir.c_str());
    if (!d) return damaged(dir, std::string("cannot list directory: ") + std::strerror(errno));
    std::vector<std::string> names;
    errno = 0;
    while (dirent* e = ::readdir(d)) {
      std::string name = e->d_name;
      if (name != "." && name != "..") names.push_back(std::move(name));
    }
    if (errno) damaged(dir, std::string("cannot list directory: ") + std::strerror(errno));
    ::closedir(d);
    std::sort(names.begin(), names.end());
    std::string prefix = dir.back() == '/' ? dir : dir + "/";
    for (const std::string& name : names) entry(prefix + name, trust, found);
  }

 private:
  void entry(const std::string& path, const cli::Trust& parent, std::vector<std::string>& found) {
    struct stat st;
    if (::lstat(path.c_str(), &st) != 0)
      return damaged(path, std::string("cannot read: ") + std::strerror(errno));
    cli::Trust trust = cli::entry_trust(path, st, parent);
    if (!trusted(path, trust)) return;
    if (S_ISLNK(st.st_mode) && ::stat(path.c_str(), &st) != 0)
      return damaged(path, std::string("cannot read: ") + std::strerror(errno));
    if (S_ISDIR(st.st_mode)) return directory(path, st, trust, found);
    if (!has_suffix(path, ".ttl") && !has_suffix(path, ".nt") && !has_suffix(path, ".ttl.zst") &&
        !has_suffix(path, ".nt.zst")) {
      if (other_files_are_damage_) damaged(path, "skipped: not a .ttl or .nt file (or .zst of one)");
      return;
    }
    if (!S_ISREG(st.st_mode))
      return damaged(path, std::string("skipped: ") + kind_of(st.st_mode) + ", not a regular file");
    found.push_back(path);
  }

  void damaged(const std::string& path, const std::string& why) {
    result_.messages.push_back(path + ": " + why);
    ++result_.damaged;
  }

  ReadResult& result_;
  bool other_files_are_damage_;
  cli::OtherOwners other_owners_;
  std::set<std::pair<dev_t, ino_t>> seen_;
};

}  // namespace

int open_input(const std::string& path, std::string& error) {
  if (path == "-") return STDIN_FILENO;
  int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC | O_NOCTTY | O_NONBLOCK);
  if (fd < 0) {
    error = std::string("cannot open: ") + std::strerror(errno);
    return -1;
  }
  struct stat st;
  if (::fstat(fd, &st) != 0) {
    error = std::string("cannot stat: ") + std::strerror(errno);
  } else if (!S_ISREG(st.st_mode)) {
    error = std::string("skipped: ") + kind_of(st.st_mode) + ", not a regular file";
  } else {
    ::fcntl(fd, F_SETFL, ::fcntl(fd, F_GETFL) & ~O_NONBLOCK);
    return fd;
  }
  ::close(fd);
  return -1;
}

std::vector<std::string> list_inputs(const std::vector<std::string>& args, ReadResult& result,
                                     bool other_files_are_damage, cli::OtherOwners other_owners) {
  std::vector<std::string> files;
  Walker walker(result, other_files_are_damage, other_owners);
  for (const std::string& arg : args) {
    if (arg == "-") {
      files.push_back(arg);
      continue;
    }
    cli::Trust trust = cli::path_trust(arg);
    if (!walker.trusted(arg, trust)) continue;
    struct stat st;
    if (::stat(arg.c_str(), &st) == 0 && S_ISDIR(st.st_mode)) {
      std::vector<std::string> found;
      walker.directory(arg, st, trust, found);
      std::sort(found.begin(), found.end());
      files.insert(files.end(), found.begin(), found.end());
    } else {
      files.push_back(arg);  // opening it reports what is wrong with it
    }
  }
  return files;
}

}  // namespace provio::rdf
