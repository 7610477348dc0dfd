// Output files (see output_file.h).
#include "store/output_file.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

#include "model/log.h"

namespace provio::store {
namespace {

long sys_mkdir(const char* path) {
  return syscall(SYS_mkdirat, AT_FDCWD, path, 0755);
}

}  // namespace

bool make_directories(const std::string& dir) {
  std::string partial;
  std::size_t i = 0;
  while (i <= dir.size()) {
    std::size_t j = dir.find('/', i);
    if (j == std::string::npos) j = dir.size();
    partial = dir.substr(0, j);
    i = j + 1;
    if (partial.empty()) continue;
    if (sys_mkdir(partial.c_str()) != 0 && errno != EEXIST) return false;
  }
  struct stat st;
  return syscall(SYS_newfstatat, AT_FDCWD, dir.c_str(), &st, 0) == 0 && S_ISDIR(st.st_mode);
}

bool OutputFile::open(const std::string& dir, const std::string& stem) {
  if (fd_ >= 0 || failed_) return fd_ >= 0;
  if (!make_directories(dir)) {
    path_ = dir;
    fail("cannot create the output directory", errno);
    return false;
  }
  for (int attempt = 0; attempt < 100; ++attempt) {
    path_ = dir + "/" + stem + (attempt ? "-" + std::to_string(attempt) : "") + ".ttl";
    long fd = syscall(SYS_openat, AT_FDCWD, path_.c_str(),
                      O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC | O_APPEND, 0644);
    if (fd >= 0) {
      fd_ = static_cast<int>(fd);
      return true;
    }
    if (errno != EEXIST) break;
  }
  fail("cannot create", errno);
  return false;
}

bool OutputFile::write(std::string_view data) {
  if (fd_ < 0) return false;
  while (!data.empty()) {
    long n = syscall(SYS_write, fd_, data.data(), data.size());
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) {
      fail("cannot write", n < 0 ? errno : ENOSPC);
      return false;
    }
    data.remove_prefix(static_cast<std::size_t>(n));
  }
  return true;
}

void OutputFile::close() {
  if (fd_ >= 0) syscall(SYS_close, fd_);
  fd_ = -1;
}

void OutputFile::abandon() {
  if (fd_ >= 0) syscall(SYS_close, fd_);  // the child's copy of the descriptor only
  fd_ = -1;
}

void OutputFile::fail(const char* what, int err) {
  failed_ = true;
  model::warn_once("output-failed", "%s %s: %s; provenance of this thread is incomplete", what, path_.c_str(),
                   std::strerror(err));
  close();
}

}  // namespace provio::store
