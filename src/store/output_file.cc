// Output files (see output_file.h).
#include "store/output_file.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

#include "model/config.h"
#include "model/log.h"
#include "store/free_space.h"
#include "store/output_dir.h"

namespace provio::store {

bool OutputFile::open(const std::string& dir, const std::string& stem) {
  if (created_ || failed_) return is_open();
  const OwnModes modes = own_modes();
  std::string why;
  switch (prepare_output_dir(dir, modes.dir, why)) {
    case DirStatus::kReady: break;
    case DirStatus::kFailed:
      path_ = dir;
      fail("cannot create the output directory", errno);
      return false;
    case DirStatus::kRefused:
      failed_ = true;
      model::warn_once("output-refused",
                       "will not write provenance: %s; recording nothing (docs/security.md)", why.c_str());
      return false;
  }
  for (int attempt = 0; attempt < 100; ++attempt) {
    path_ = dir + "/" + stem + (attempt ? "-" + std::to_string(attempt) : "") + ".ttl";
    long fd = syscall(SYS_openat, AT_FDCWD, path_.c_str(),
                      O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC | O_APPEND, modes.file);
    if (fd >= 0) {
      struct stat st;
      bool known = syscall(SYS_fstat, fd, &st) == 0;
      syscall(SYS_close, fd);
      if (!known) break;
      dev_ = st.st_dev;
      ino_ = st.st_ino;
      created_ = true;
      return true;
    }
    if (errno != EEXIST) break;
  }
  fail("cannot create", errno);
  return false;
}

int OutputFile::reopen() {
  if (!is_open()) return -1;
  long fd =
      syscall(SYS_openat, AT_FDCWD, path_.c_str(), O_WRONLY | O_APPEND | O_NOFOLLOW | O_CLOEXEC | O_NONBLOCK);
  if (fd < 0) {
    fail("cannot reopen", errno);
    return -1;
  }
  struct stat st;
  if (syscall(SYS_fstat, fd, &st) != 0 || st.st_dev != dev_ || st.st_ino != ino_) {
    syscall(SYS_close, fd);
    fail("replaced since provio created it, will not write to", EEXIST);
    return -1;
  }
  return static_cast<int>(fd);
}

bool OutputFile::write(std::string_view data) {
  if (data.empty()) return is_open();
  int fd = reopen();
  if (fd < 0) return false;
  if (!leaves_reserve(fd, data.size(), model::config().free_space_reserve)) {
    syscall(SYS_close, fd);
    failed_ = true;
    failure_ = Loss::kFreeSpace;
    model::warn_once("free-space",
                     "less than PROVIO_RESERVE=%zu bytes would stay free on the file system of %s: "
                     "provio stops writing there; provenance is incomplete",
                     model::config().free_space_reserve, path_.c_str());
    return false;
  }
  while (!data.empty()) {
    long n = syscall(SYS_write, fd, data.data(), data.size());
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) {
      int err = n < 0 ? errno : ENOSPC;
      syscall(SYS_close, fd);
      fail("cannot write", err);
      return false;
    }
    data.remove_prefix(static_cast<std::size_t>(n));
  }
  syscall(SYS_close, fd);
  return true;
}

void OutputFile::abandon() {
  created_ = false;
}

void OutputFile::fail(const char* what, int err) {
  failed_ = true;
  model::warn_once("output-failed", "%s %s: %s; provenance of this thread is incomplete", what, path_.c_str(),
                   std::strerror(err));
}

}  // namespace provio::store
