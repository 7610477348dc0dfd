// Output files (see output.h).
#include "graph/output.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <cstring>

#include "graph/temporary.h"

namespace provio::rdf {
namespace {

Status fail(const std::string& path, const char* what, int err) {
  return Status::error(path + ": " + what + ": " + std::strerror(err));
}

// A device or FIFO (reached directly or through a link) that may be written in place: owned by
// the user or root, and reached through no link of another user's.
bool special_of_trusted_owner(const struct stat& link, const struct stat& target) {
  auto trusted = [](uid_t uid) { return uid == 0 || uid == geteuid(); };
  bool special = S_ISCHR(target.st_mode) || S_ISBLK(target.st_mode) || S_ISFIFO(target.st_mode);
  return special && trusted(target.st_uid) && trusted(link.st_uid);
}

}  // namespace

OutputFile::~OutputFile() {
  if (stream_) std::fclose(stream_);
  if (!tmp_.empty()) ::unlink(tmp_.c_str());
}

Status OutputFile::open(const std::string& path) {
  path_ = path;
  struct stat link, target;
  bool exists = ::lstat(path.c_str(), &link) == 0;
  if (exists && S_ISDIR(link.st_mode)) return Status::error(path + ": is a directory");
  if (exists && ::stat(path.c_str(), &target) == 0 && special_of_trusted_owner(link, target)) {
    // /dev/null, /dev/stdout, a named pipe the user made: written in place, never created.
    int fd = ::open(path.c_str(), O_WRONLY | O_CLOEXEC | O_NOCTTY);
    if (fd < 0 || !(stream_ = ::fdopen(fd, "w"))) {
      int err = errno;
      if (fd >= 0) ::close(fd);
      return fail(path, "cannot open", err);
    }
    return Status::success();
  }
  std::size_t slash = path.rfind('/');
  std::string dir = slash == std::string::npos ? "" : path.substr(0, slash + 1);
  std::string base = slash == std::string::npos ? path : path.substr(slash + 1);
  // What a killed run left (temporary.h); then ours, named after this process.
  remove_dead_temporaries(dir + "." + base);
  std::string tmp = temporary_template(dir + "." + base);
  int fd = ::mkostemp(tmp.data(), O_CLOEXEC);
  if (fd < 0) return fail(path, "cannot open for writing", errno);
  tmp_ = tmp;
  if (!(stream_ = ::fdopen(fd, "w"))) {
    int err = errno;
    ::close(fd);
    return fail(path, "cannot open", err);
  }
  return Status::success();
}

Status OutputFile::commit(mode_t mode) {
  if (!stream_) return Status::error(path_ + ": not open");
  bool ok = std::fflush(stream_) == 0 && !std::ferror(stream_);
  int err = errno;
  if (ok && !tmp_.empty() && ::fchmod(::fileno(stream_), umasked(mode)) != 0) ok = false, err = errno;
  if (std::fclose(stream_) != 0 && ok) ok = false, err = errno;
  stream_ = nullptr;
  if (!ok) return fail(path_, "write error", err);
  if (tmp_.empty()) return Status::success();
  if (::rename(tmp_.c_str(), path_.c_str()) != 0) return fail(path_, "cannot rename into place", errno);
  tmp_.clear();
  return Status::success();
}

mode_t umasked(mode_t mode) {
  // umask() can only be read by setting it; the tools call this from one thread.
  mode_t mask = ::umask(0);
  ::umask(mask);
  return mode & ~mask;
}

Status write_output_file(const std::string& path, std::string_view text, mode_t mode) {
  OutputFile out;
  if (Status s = out.open(path); !s.ok) return s;
  if (!text.empty() && std::fwrite(text.data(), 1, text.size(), out.stream()) != text.size())
    return fail(path, "write error", errno);
  return out.commit(mode);
}

}  // namespace provio::rdf
