// Fuzz target: prov-merge's reader on a compressed raw file (docs/format.md, "Compressed raw
// files"): the fuzzed bytes are the file, read by path as prov-merge reads its inputs; seeds are
// zstd frames of a raw file, whole, cut and damaged. Whatever it keeps must be valid RDF: the
// N-Triples prov-merge would write parse back in raptor without an error.
#include <cstdint>

#include "read_back.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  provio::fuzz::require_read_back(data, size, "fuzz-input.ttl.zst");
  return 0;
}
