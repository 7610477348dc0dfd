// The lines form of a store (see store_lines.h).
#include "graph/store_lines.h"

#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>

#include "graph/reader.h"
#include "graph/store_layout.h"
#include "graph/writer.h"

namespace provio::rdf {

Status load_lines(const std::string& dir, Graph& graph, std::uint64_t* read) {
  ReadResult r;
  read_file_keeping_blank_labels(store_mark(dir, StoreForm::kLines), graph, r);
  if (read) *read += r.triples_in;
  if (r.damaged) {
    std::string m = r.messages.empty() ? "cannot read it" : r.messages.front();
    if (r.messages.size() > 1) m += " (and " + std::to_string(r.messages.size() - 1) + " more problems)";
    return Status::error(dir + ": store damaged: " + m);
  }
  return Status::success();
}

Status write_lines(const std::string& dir, const Graph& graph) {
  std::string path = store_mark(dir, StoreForm::kLines);
  int fd = ::open(path.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0600);
  std::FILE* out = fd < 0 ? nullptr : ::fdopen(fd, "w");
  if (!out) {
    int err = errno;
    if (fd >= 0) ::close(fd);
    return Status::error(path + ": cannot create: " + std::strerror(err));
  }
  Status s = write_graph(graph, "ntriples", out);
  // Synced before the swap: after a crash the store in place is whole, the old one or this one.
  bool ok = s.ok && std::fflush(out) == 0 && ::fsync(fd) == 0;
  int err = errno;
  if (std::fclose(out) != 0 && ok) {
    ok = false;
    err = errno;
  }
  if (!s.ok) return Status::error(path + ": " + s.message);
  if (!ok) return Status::error(path + ": cannot write: " + std::strerror(err));
  return Status::success();
}

}  // namespace provio::rdf
