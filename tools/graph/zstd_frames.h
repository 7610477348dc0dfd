// Reading a compressed raw file (docs/format.md, "Compressed raw files"): zstd frames one after
// the other, each the content of one flush.
//
// Hard rule: a frame's content is handed on only once the whole frame has been read and its
// checksum matched, so a frame cut by a killed writer (or damaged on disk) costs that frame and
// never puts half a statement into the graph. Memory: one frame's content at a time, never the
// whole file.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

struct ZSTD_DCtx_s;

namespace provio::rdf {

// Whether `head` (a file's first bytes) starts with a zstd frame.
bool is_zstd(std::string_view head);

class ZstdFrames {
 public:
  ZstdFrames();
  ~ZstdFrames();
  ZstdFrames(const ZstdFrames&) = delete;
  ZstdFrames& operator=(const ZstdFrames&) = delete;

  // Decodes `in`, the file's next bytes, appending to `out` the content of every frame that ends
  // in them. False at a damaged frame (what() says where): the rest of the file cannot be read.
  bool feed(std::string_view in, std::string& out);
  // At the end of the file: whether a frame was begun and not finished (a writer killed mid-write).
  bool cut() const { return in_frame_; }
  // Where the frame being decoded (or the damaged one) begins, in bytes from the file's start.
  std::uint64_t frame_offset() const { return frame_start_; }
  const std::string& what() const { return what_; }

 private:
  ZSTD_DCtx_s* dctx_;
  std::string frame_;           // content of the frame being decoded
  std::uint64_t consumed_ = 0;  // bytes of the file fed so far
  std::uint64_t frame_start_ = 0;
  bool in_frame_ = false;
  std::string what_;
};

}  // namespace provio::rdf
