// Fuzz target: prov-merge's reader on a raw provenance file (provio's @prefix header, then the
// fuzzed bytes), through the fast line parser and its raptor fallbacks. Whatever it keeps must be
// valid RDF: the N-Triples prov-merge would write parse back in raptor without an error.
#include <cstdint>
#include <string>

#include "model/vocabulary.h"
#include "read_back.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  std::string text(provio::model::kTurtlePrefixes);
  text.append(reinterpret_cast<const char*>(data), size);
  provio::fuzz::require_read_back(text.data(), text.size(), "fuzz-input.ttl");
  return 0;
}
