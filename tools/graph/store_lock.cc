// The store's lock and recovery (see store_lock.h).
#include "graph/store_lock.h"

#include <dirent.h>
#include <fcntl.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <string_view>

#include "cli/trust.h"
#include "graph/output.h"
#include "graph/temporary.h"
#include "store/output_dir.h"

namespace provio::rdf {
namespace {

constexpr std::string_view kAside = ".old-";

// A store a killed update moved aside ("DIR.old-PID", PID gone, ours) while `dir` is missing:
// moved back.
void put_back_moved_aside(const std::string& dir) {
  struct stat st;
  if (::lstat(dir.c_str(), &st) == 0 || errno != ENOENT) return;
  std::size_t slash = dir.rfind('/');
  std::string parent = slash == std::string::npos ? "." : dir.substr(0, slash + 1);
  std::string prefix =
      std::string(slash == std::string::npos ? dir : dir.substr(slash + 1)) + std::string(kAside);
  DIR* d = ::opendir(parent.c_str());
  if (!d) return;
  while (dirent* e = ::readdir(d)) {
    std::string_view name = e->d_name;
    if (name.compare(0, prefix.size(), prefix) != 0) continue;
    if (!process_gone(name.substr(prefix.size()))) continue;
    std::string path = (slash == std::string::npos ? "" : parent) + std::string(name);
    if (::lstat(path.c_str(), &st) != 0 || !S_ISDIR(st.st_mode) || st.st_uid != ::geteuid()) continue;
    if (::rename(path.c_str(), dir.c_str()) == 0) break;
  }
  ::closedir(d);
}

}  // namespace

std::string moved_aside_name(const std::string& dir) {
  return dir + std::string(kAside) + std::to_string(::getpid());
}

StoreLock::~StoreLock() {
  if (fd_ >= 0) ::close(fd_);
}

Status StoreLock::acquire(const std::string& dir, const std::function<void()>& on_wait) {
  std::string path = dir + ".lock";
  fd_ = ::open(path.c_str(), O_RDONLY | O_CREAT | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC | O_NOCTTY,
               umasked(store::own_modes().file));
  if (fd_ < 0) return Status::error(path + ": cannot open the store's lock: " + std::strerror(errno));
  struct stat st;
  if (::fstat(fd_, &st) != 0 || !S_ISREG(st.st_mode))
    return Status::error(path + ": the store's lock is not a regular file");
  // Judged once it exists: a lock file another user could have planted, they could hold for ever.
  if (cli::Trust t = cli::path_trust(path); !t.ok)
    return Status::error(path + ": refused as the store's lock: " + t.why);
  if (::flock(fd_, LOCK_EX | LOCK_NB) != 0) {
    if (errno != EWOULDBLOCK) return Status::error(path + ": cannot lock: " + std::strerror(errno));
    if (on_wait) on_wait();
    while (::flock(fd_, LOCK_EX) != 0) {
      if (errno != EINTR) return Status::error(path + ": cannot lock: " + std::strerror(errno));
    }
  }
  remove_dead_temporaries(dir);
  put_back_moved_aside(dir);
  return Status::success();
}

}  // namespace provio::rdf
