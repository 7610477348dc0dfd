#include "read_back.h"

#include <stdio.h>
#include <sys/mman.h>
#include <unistd.h>

#include <cstdlib>
#include <string>

#include "fuzz_check.h"
#include "graph/graph.h"
#include "graph/reader.h"
#include "graph/terms.h"
#include "graph/writer.h"

namespace provio::fuzz {

void require_read_back(const void* bytes, std::size_t size, const char* file_name) {
  int fd = memfd_create(file_name, MFD_CLOEXEC);
  require(fd >= 0, "memfd_create");
  require(write(fd, bytes, size) == static_cast<ssize_t>(size), "write to memfd");
  rdf::Graph graph;
  rdf::ReadResult result;
  rdf::read_files({"/proc/self/fd/" + std::to_string(fd)}, 1, graph, result);
  close(fd);

  char* buf = nullptr;
  std::size_t len = 0;
  FILE* out = open_memstream(&buf, &len);
  require(rdf::write_graph(graph, "ntriples", out).ok, "write_graph");
  std::fclose(out);
  std::string written(buf, len);
  std::free(buf);
  require(rdf::valid_utf8(written), "the output is not UTF-8");
  require(parse_ntriples(written) == graph.size(), "raptor reads another number of triples");
}

}  // namespace provio::fuzz
