// Output files (see output_file.h).
#include "store/output_file.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <thread>

#include "model/config.h"
#include "model/log.h"
#include "store/background_writer.h"
#include "store/frame_compressor.h"
#include "store/free_space.h"
#include "store/output_dir.h"

namespace provio::store {
namespace {
std::atomic<bool> g_write_through{false};
// How long process exit waits for the writer thread's queued frames (it takes milliseconds).
constexpr long kExitDrainMs = 5000;
}  // namespace

OutputFile::~OutputFile() {
  while (jobs_.load(std::memory_order_acquire)) std::this_thread::yield();
}

void OutputFile::set_write_through(bool on) {
  g_write_through.store(on, std::memory_order_relaxed);
  // A file whose last flush before exit had nothing new is not written again: what its earlier
  // flushes left pending must reach it before the process ends.
  if (on) drain_background_within(kExitDrainMs);
}

bool OutputFile::open(const std::string& dir, const std::string& stem) {
  if (created_ || failed()) return is_open();
  const OwnModes modes = own_modes();
  std::string why;
  switch (prepare_output_dir(dir, modes.dir, why)) {
    case DirStatus::kReady: break;
    case DirStatus::kFailed:
      path_ = dir;
      fail("cannot create the output directory", errno);
      return false;
    case DirStatus::kRefused:
      failed_.store(true, std::memory_order_release);
      model::warn_once("output-refused",
                       "will not write provenance: %s; recording nothing (docs/security.md)", why.c_str());
      return false;
  }
  compressed_ = model::config().compression == model::Compression::kZstd;
  const char* suffix = compressed_ ? ".ttl.zst" : ".ttl";
  for (int attempt = 0; attempt < 100; ++attempt) {
    path_ = dir + "/" + stem + (attempt ? "-" + std::to_string(attempt) : "") + suffix;
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

int OutputFile::reopen(off_t& size) {
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
  size = st.st_size;
  return static_cast<int>(fd);
}

bool OutputFile::write(std::string_view data, std::uint64_t events) {
  if (!is_open()) {
    lose(events);
    return false;
  }
  if (data.empty()) return true;
  if (!compressed_) {
    if (append(data)) return true;
    lose(events);
    return false;
  }
  if (on_background_writer() || g_write_through.load(std::memory_order_relaxed))
    return write_frame_now(data, events);
  bool submit_now;
  {
    std::lock_guard<std::mutex> lock(pending_mutex_);
    pending_.append(data);
    pending_events_ += events;
    submit_now = !queued_;
    queued_ = true;
  }
  if (!submit_now) return true;  // the job queued earlier takes these bytes too
  jobs_.fetch_add(1, std::memory_order_relaxed);
  if (submit(HandOff{[](void* self) { static_cast<OutputFile*>(self)->write_pending(); }, this})) return true;
  jobs_.fetch_sub(1, std::memory_order_relaxed);
  {
    std::lock_guard<std::mutex> lock(pending_mutex_);
    queued_ = false;
  }
  return write_frame_now({}, 0);  // the writer cannot take it: compress here
}

void OutputFile::write_pending() {
  {
    std::lock_guard<std::mutex> lock(write_mutex_);
    std::string plain;
    std::uint64_t events;
    {
      std::lock_guard<std::mutex> pending(pending_mutex_);
      plain.swap(pending_);
      events = pending_events_;
      pending_events_ = 0;
      queued_ = false;
    }
    write_frame(plain, events);
  }
  jobs_.fetch_sub(1, std::memory_order_release);  // the owner may delete this object from here on
}

bool OutputFile::write_frame_now(std::string_view data, std::uint64_t events) {
  std::lock_guard<std::mutex> lock(write_mutex_);
  std::string plain;
  {
    std::lock_guard<std::mutex> pending(pending_mutex_);
    plain.swap(pending_);  // a job still queued finds nothing left: these bytes go first, here
    events += pending_events_;
    pending_events_ = 0;
  }
  plain.append(data);
  return write_frame(plain, events);
}

bool OutputFile::write_frame(const std::string& plain, std::uint64_t events) {
  bool written = false;
  if (plain.empty()) {
    written = is_open();
  } else if (is_open()) {
    std::string frame;
    if (compress_frame(plain, frame))
      written = append(frame);
    else
      fail("cannot compress (out of memory) for", ENOMEM);
  }
  if (!written) lose(events);
  return written;
}

void OutputFile::lose(std::uint64_t events) const {
  if (events) count_loss(failure(), events);
}

bool OutputFile::append(std::string_view data) {
  off_t size = 0;
  int fd = reopen(size);
  if (fd < 0) return false;
  if (!leaves_reserve(fd, data.size(), model::config().free_space_reserve)) {
    syscall(SYS_close, fd);
    failure_.store(Loss::kFreeSpace, std::memory_order_relaxed);
    failed_.store(true, std::memory_order_release);
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
      // A short write before the failure (a file system filling up) would leave a cut line or
      // frame: the file keeps whole statements, as after a kill it keeps whole flushes.
      syscall(SYS_ftruncate, fd, size);
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
  // A job a parent's thread had counted but not yet queued when the fork came is in no queue the
  // child has, and no writer thread here will run it: the destructor must not wait for it.
  jobs_.store(0, std::memory_order_relaxed);
}

void OutputFile::fail(const char* what, int err) {
  failed_.store(true, std::memory_order_release);
  model::warn_once("output-failed", "%s %s: %s; provenance of this thread is incomplete", what, path_.c_str(),
                   std::strerror(err));
}

}  // namespace provio::store
