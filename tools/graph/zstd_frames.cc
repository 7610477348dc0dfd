// Compressed raw files (see zstd_frames.h).
#include "graph/zstd_frames.h"

#include <zstd.h>

#include <cstring>
#include <new>

namespace provio::rdf {

bool is_zstd(std::string_view head) {
  static constexpr unsigned char kMagic[] = {0x28, 0xB5, 0x2F, 0xFD};  // ZSTD_MAGICNUMBER, little-endian
  return head.size() >= sizeof kMagic && std::memcmp(head.data(), kMagic, sizeof kMagic) == 0;
}

ZstdFrames::ZstdFrames() : dctx_(ZSTD_createDCtx()) {
  if (!dctx_) throw std::bad_alloc();
}

ZstdFrames::~ZstdFrames() {
  ZSTD_freeDCtx(dctx_);
}

bool ZstdFrames::feed(std::string_view in, std::string& out) {
  if (!what_.empty()) return false;
  ZSTD_inBuffer input{in.data(), in.size(), 0};
  char block[1 << 16];
  while (input.pos < input.size) {
    if (!in_frame_) {
      in_frame_ = true;
      frame_start_ = consumed_ + input.pos;
    }
    ZSTD_outBuffer output{block, sizeof block, 0};
    std::size_t left = ZSTD_decompressStream(dctx_, &output, &input);
    if (ZSTD_isError(left)) {
      what_ = std::string("damaged zstd frame at byte ") + std::to_string(frame_start_) + " (" +
              ZSTD_getErrorName(left) + ")";
      frame_.clear();
      consumed_ += input.pos;
      return false;
    }
    frame_.append(block, output.pos);
    if (left == 0) {  // the frame ended, its checksum matched
      out += frame_;
      frame_.clear();
      in_frame_ = false;
    }
  }
  // A frame whose last bytes are all in its content buffer may still be owed output.
  while (in_frame_) {
    ZSTD_outBuffer output{block, sizeof block, 0};
    std::size_t left = ZSTD_decompressStream(dctx_, &output, &input);
    if (ZSTD_isError(left) || output.pos == 0) break;
    frame_.append(block, output.pos);
    if (left == 0) {
      out += frame_;
      frame_.clear();
      in_frame_ = false;
    }
  }
  consumed_ += in.size();
  return true;
}

}  // namespace provio::rdf
