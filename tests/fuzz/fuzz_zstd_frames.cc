// Fuzz target: prov-merge's reader on a compressed raw file (docs/format.md, "Compressed raw
// files"): the fuzzed bytes are the file, read by path as prov-merge reads its inputs; seeds are
// zstd frames of a raw file, whole, cut and damaged. Whatever it keeps must be valid RDF: the
// N-Triples prov-merge would write parse back in raptor without an error.
#include <stdio.h>
#include <sys/mman.h>
#include <unistd.h>

#include <cstdint>
#include <cstdlib>
#include <string>

#include "fuzz_check.h"
#include "graph/graph.h"
#include "graph/reader.h"
#include "graph/terms.h"
#include "graph/writer.h"

using provio::fuzz::require;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  int fd = memfd_create("fuzz-input.ttl.zst", MFD_CLOEXEC);
  require(fd >= 0, "memfd_create");
  require(write(fd, data, size) == static_cast<ssize_t>(size), "write to memfd");
  provio::rdf::Graph graph;
  provio::rdf::ReadResult result;
  provio::rdf::read_files({"/proc/self/fd/" + std::to_string(fd)}, 1, graph, result);
  close(fd);

  char* buf = nullptr;
  std::size_t len = 0;
  FILE* out = open_memstream(&buf, &len);
  require(provio::rdf::write_graph(graph, "ntriples", out).ok, "write_graph");
  std::fclose(out);
  std::string written(buf, len);
  std::free(buf);
  require(provio::rdf::valid_utf8(written), "the output is not UTF-8");
  require(provio::fuzz::parse_ntriples(written) == graph.size(), "raptor reads another number of triples");
  return 0;
}
