// One thread's provenance file. Opened on the first flush with O_EXCL | O_NOFOLLOW (never
// follows a planted symlink, never appends to someone else's file) through raw syscalls, so the
// preload shim does not see provio's own I/O. Every write is checked; the first failure is
// reported once and the file goes quiet (sticky error), the application carries on.
#pragma once

#include <string>
#include <string_view>

namespace provio::store {

class OutputFile {
 public:
  OutputFile() = default;
  OutputFile(const OutputFile&) = delete;
  OutputFile& operator=(const OutputFile&) = delete;
  ~OutputFile() { close(); }

  // Creates `dir` (and parents) and a new file "<stem>.ttl" in it ("<stem>-1.ttl", … if taken).
  bool open(const std::string& dir, const std::string& stem);
  bool is_open() const { return fd_ >= 0; }
  bool failed() const { return failed_; }
  const std::string& path() const { return path_; }

  // Writes all of `data`; false (and the sticky error) if it could not.
  bool write(std::string_view data);
  void close();
  // Forgets the descriptor without writing anything (fork child: the parent owns the file).
  void abandon();

 private:
  void fail(const char* what, int err);

  int fd_ = -1;
  bool failed_ = false;
  std::string path_;
};

// mkdir -p through raw syscalls; true if `dir` exists as a directory afterwards.
bool make_directories(const std::string& dir);

}  // namespace provio::store
