// Writing the tools' output files on a shared machine (docs/security.md).
//
// Hard rule: an output path is never opened by name for writing. Another user may have planted a
// symlink there (in /tmp, a project or scratch directory) to make the tool, run by root or by the
// victim, overwrite a file of their choice. The new content goes to a temporary created with
// O_EXCL in the target's directory (mkstemp: never follows a symlink, never opens an existing
// file) and is renamed over the path, which replaces a symlink instead of following it. Readers
// never see half a file. Only a device or FIFO that the user or root owns is written in place.
#pragma once

#include <sys/types.h>

#include <cstdio>
#include <string>
#include <string_view>

#include "graph/status.h"

namespace provio::rdf {

class OutputFile {
 public:
  OutputFile() = default;
  ~OutputFile();  // an uncommitted temporary is removed
  OutputFile(const OutputFile&) = delete;
  OutputFile& operator=(const OutputFile&) = delete;

  // Prepares to replace `path` (errors: "path: why").
  Status open(const std::string& path);
  std::FILE* stream() { return stream_; }
  // Closes the stream and moves the new file into place with `mode` minus the umask (by default
  // 0666, as a newly created file gets); if anything failed, the target is left alone.
  Status commit(mode_t mode = 0666);

 private:
  std::string path_, tmp_;
  std::FILE* stream_ = nullptr;
};

// `mode` minus the process's umask: the mode a newly created file or directory gets.
mode_t umasked(mode_t mode);

// Writes `text` to `path` through an OutputFile (`mode`: as commit's).
Status write_output_file(const std::string& path, std::string_view text, mode_t mode = 0666);

}  // namespace provio::rdf
