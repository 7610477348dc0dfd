// One thread's provenance file, written through raw syscalls so that the preload shim does not
// see provio's own I/O.
//
// Hard rule: provio never writes through a descriptor it does not own at that moment. The
// application may close, dup2 over or close_range any descriptor number at any time (shells do
// `exec 3>log`, daemons close 3..1024 after fork), and only the preload library could see that
// happen — the VOL connector alone cannot. So no descriptor is kept between writes: each write
// opens the file by name (O_APPEND | O_NOFOLLOW | O_CLOEXEC), checks that it is still the file this
// object created (device and inode), writes, and closes. Every write is checked; the first failure
// is reported once and the file goes quiet (sticky error), the application carries on.
#pragma once

#include <sys/types.h>

#include <string>
#include <string_view>

#include "store/incomplete.h"

namespace provio::store {

class OutputFile {
 public:
  OutputFile() = default;
  OutputFile(const OutputFile&) = delete;
  OutputFile& operator=(const OutputFile&) = delete;

  // Creates `dir` (and parents) and a new file "<stem>.ttl" in it ("<stem>-1.ttl", … if taken)
  // with O_EXCL | O_NOFOLLOW: never follows a planted symlink, never appends to another's file.
  // A directory another user could tamper with is refused (store/output_dir.h).
  bool open(const std::string& dir, const std::string& stem);
  bool is_open() const { return created_ && !failed_; }
  bool failed() const { return failed_; }
  // Why the file went quiet: the free-space reserve, or an error.
  Loss failure() const { return failure_; }
  const std::string& path() const { return path_; }

  // Appends all of `data`; false (and the sticky error) if it could not.
  bool write(std::string_view data);
  // Fork child: the file stays the parent's; this object forgets it without writing.
  void abandon();

 private:
  // A descriptor of this object's file opened for appending, or -1 (sticky error set).
  int reopen();
  void fail(const char* what, int err);

  bool created_ = false;
  bool failed_ = false;
  Loss failure_ = Loss::kOutputFailed;
  dev_t dev_ = 0;
  ino_t ino_ = 0;
  std::string path_;
};

}  // namespace provio::store
