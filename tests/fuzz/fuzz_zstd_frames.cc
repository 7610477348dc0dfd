// Fuzz target: prov-merge's reader on a compressed raw file (docs/format.md, "Compressed raw
// files"): the fuzzed bytes are the file, read by path as prov-merge reads its inputs; seeds are
// zstd frames of a raw file, whole, cut and damaged. Whatever it keeps must be valid RDF: the
// N-Triples prov-merge would write parse back in raptor without an error.
//
// And the frame reader's resynchronisation (graph/zstd_frames.h) on the same bytes: what it keeps
// and the ranges it reports do not depend on how the file is cut into reads; and the bytes, taken as damage
// between two whole frames, never cost those frames: the content of the first comes first, the
// content of the last comes last.
#include <zstd.h>

#include <algorithm>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "fuzz_check.h"
#include "graph/zstd_frames.h"
#include "read_back.h"

namespace {

using provio::fuzz::require;
using provio::rdf::ZstdFrames;

struct Decoded {
  std::string text;
  std::vector<std::string> damage;  // the ranges, without zstd's word on why
  bool cut = false;
  bool operator==(const Decoded& o) const { return text == o.text && damage == o.damage && cut == o.cut; }
};

// A damage message without its "(why)": zstd names a problem by where its decoder met it, which
// depends on how much of the frame it was given at once ("Data corruption detected" for a
// whole frame, "Destination buffer is too small" for the same frame in pieces).
std::string range_of(const std::string& message) {
  std::size_t open = message.find(" ("), close = message.rfind(')');
  return open < close && close != std::string::npos ? message.substr(0, open) + message.substr(close + 1)
                                                    : message;
}

// `file` through one reader, in reads of `chunk` bytes.
Decoded decode(std::string_view file, std::size_t chunk) {
  ZstdFrames frames;
  Decoded d;
  for (std::size_t at = 0; at < file.size(); at += chunk) frames.feed(file.substr(at, chunk), d.text);
  frames.finish(d.text, false);
  for (const std::string& m : frames.damage()) d.damage.push_back(range_of(m));
  d.cut = frames.cut();
  return d;
}

// A frame as provio writes it (store/frame_compressor.h): content size and checksum.
std::string frame(const std::string& plain) {
  std::string out(ZSTD_compressBound(plain.size()), '\0');
  ZSTD_CCtx* c = ZSTD_createCCtx();
  ZSTD_CCtx_setParameter(c, ZSTD_c_checksumFlag, 1);
  std::size_t n = ZSTD_compress2(c, out.data(), out.size(), plain.data(), plain.size());
  ZSTD_freeCCtx(c);
  require(!ZSTD_isError(n), "compressing a frame");
  out.resize(n);
  return out;
}

bool starts_with(std::string_view s, std::string_view p) {
  return s.substr(0, p.size()) == p;
}

bool ends_with(std::string_view s, std::string_view p) {
  return s.size() >= p.size() && s.substr(s.size() - p.size()) == p;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  provio::fuzz::require_read_back(data, size, "fuzz-input.ttl.zst");

  std::string_view bytes(reinterpret_cast<const char*>(data), size);
  Decoded whole = decode(bytes, std::max<std::size_t>(size, 1));
  require(decode(bytes, 1 + size % 13) == whole, "the reads a file is cut into change what is kept");

  static const std::string first_text = "<urn:first> <urn:p> \"before the damage\" .\n";
  static const std::string last_text = "<urn:last> <urn:p> \"after the damage\" .\n";
  static const std::string first = frame(first_text), last = frame(last_text);
  Decoded around = decode(first + std::string(bytes) + last, 1 << 20);
  require(starts_with(around.text, first_text), "the frame before the damage is lost");
  require(ends_with(around.text, last_text), "the frame after the damage is lost");
  require(!around.cut, "a whole last frame is reported cut");
  return 0;
}
