// Compressed raw files (see zstd_frames.h).
#include "graph/zstd_frames.h"

#include <zstd.h>

#include <algorithm>
#include <cstring>
#include <new>

#include "graph/start_deltas.h"

namespace provio::rdf {
namespace {

constexpr char kMagic[] = {'\x28', '\xB5', '\x2F', '\xFD'};  // ZSTD_MAGICNUMBER, little-endian
constexpr std::size_t kMagicSize = sizeof kMagic;

// Whether a frame header descriptor (RFC 8878, 3.1.1.1.1) is one this reader takes. Every frame
// must declare a checksum (Content_Checksum_flag): a frame without one could be damage nobody can
// detect, and would let a damaged length swallow the frames after it. A candidate found while
// resynchronising (`strict`) must also be of provio's kind: its content size declared
// (Frame_Content_Size_flag, or Single_Segment_flag which implies it), no dictionary, the reserved
// bit clear. Most false magic numbers fail here; the checksum catches the rest.
bool takes(unsigned char descriptor, bool strict) {
  bool checksum = descriptor & 0x04;
  if (!strict) return checksum;
  bool reserved = descriptor & 0x08;
  bool dictionary = descriptor & 0x03;
  bool content_size = (descriptor >> 6) != 0 || (descriptor & 0x20);
  return checksum && !reserved && !dictionary && content_size;
}

}  // namespace

bool is_zstd(std::string_view head) {
  return head.size() >= kMagicSize && std::memcmp(head.data(), kMagic, kMagicSize) == 0;
}

ZstdFrames::ZstdFrames() : dctx_(ZSTD_createDCtx()) {
  if (!dctx_) throw std::bad_alloc();
}

ZstdFrames::~ZstdFrames() {
  ZSTD_freeDCtx(dctx_);
}

void ZstdFrames::feed(std::string_view in, std::string& out) {
  // What lies before the frame being decoded (or the search) is never read again.
  raw_.erase(0, start_);
  raw_at_ += start_;
  pos_ = in_frame_ ? pos_ - start_ : 0;  // (only a frame being decoded has a position)
  start_ = 0;
  raw_.append(in);
  decode(out);
}

void ZstdFrames::finish(std::string& out, bool growing) {
  if (growing) return;  // an unfinished frame is the one being written
  while (in_frame_ || (!searching_ && start_ < raw_.size())) {
    // An unfinished last frame is a cut, unless a whole frame follows it: then it was damage.
    if (!searching_) {
      cut_ = true;
      cut_at_ = raw_at_ + start_;
    }
    skip_damaged("a frame that does not end");
    decode(out);
  }
  if (searching_ && !cut_)
    damage_.push_back("damaged zstd data at bytes " + std::to_string(damage_at_) + "-" +
                      std::to_string(raw_at_ + raw_.size() - 1) + " dropped, to the end of the file (" +
                      damage_why_ + ")");
  searching_ = false;
}

void ZstdFrames::decode(std::string& out) {
  while (true) {
    if (!in_frame_) {
      if (searching_) {
        if (!find_candidate()) return;
      } else {
        if (raw_.size() - start_ <= kMagicSize) return;  // its header comes with the next bytes
        std::string_view head(raw_.data() + start_, raw_.size() - start_);
        if (!is_zstd(head) || !takes(static_cast<unsigned char>(head[kMagicSize]), false)) {
          skip_damaged(is_zstd(head) ? "a zstd frame without a checksum" : "no zstd frame here");
          continue;
        }
      }
      ZSTD_DCtx_reset(dctx_, ZSTD_reset_session_only);
      in_frame_ = true;
      pos_ = start_;
      frame_.clear();
    }
    const char* error = nullptr;
    if (!decode_frame(error)) {
      if (!error) return;  // the frame goes on in the next bytes
      skip_damaged(error);
      continue;
    }
    if (searching_) {
      damage_.push_back("damaged zstd data at bytes " + std::to_string(damage_at_) + "-" +
                        std::to_string(raw_at_ + start_ - 1) + " skipped (" + damage_why_ +
                        "); the frames after it are kept");
      searching_ = false;
      cut_ = false;  // what finish() took for a cut end was damage
    }
    StartDeltas starts = resolve_start_deltas(frame_, out);
    if (starts.dropped)
      damage_.push_back("zstd frame at bytes " + std::to_string(raw_at_ + start_) + "-" +
                        std::to_string(raw_at_ + pos_ - 1) + ": " + dropped_message(starts, " of the frame"));
    frame_.clear();
    in_frame_ = false;
    start_ = pos_;
  }
}

bool ZstdFrames::decode_frame(const char*& error) {
  ZSTD_inBuffer input{raw_.data(), raw_.size(), pos_};
  char block[1 << 16];
  while (true) {
    ZSTD_outBuffer output{block, sizeof block, 0};
    std::size_t left = ZSTD_decompressStream(dctx_, &output, &input);
    pos_ = input.pos;
    if (ZSTD_isError(left)) {
      error = ZSTD_getErrorName(left);
      return false;
    }
    frame_.append(block, output.pos);
    if (left == 0) return true;  // the frame ended, its checksum (if it has one) matched
    // Output not full and input all taken: the decoder has given all it can from these bytes.
    if (output.pos < output.size && input.pos == input.size) return false;
  }
}

bool ZstdFrames::find_candidate() {
  while (true) {
    std::size_t at = raw_.find(kMagic, start_, kMagicSize);
    if (at == std::string::npos) {
      // The last bytes may begin a magic number that the next ones complete.
      start_ = std::max(start_, raw_.size() - std::min(raw_.size(), kMagicSize - 1));
      return false;
    }
    start_ = at;
    if (raw_.size() - at <= kMagicSize) return false;  // its descriptor comes with the next bytes
    if (takes(static_cast<unsigned char>(raw_[at + kMagicSize]), true)) return true;
    start_ = at + 1;
  }
}

void ZstdFrames::skip_damaged(const std::string& why) {
  if (!searching_) {
    searching_ = true;
    damage_at_ = raw_at_ + start_;
    damage_why_ = why;
  }
  in_frame_ = false;
  frame_.clear();
  start_ += 1;
  pos_ = start_;
}

}  // namespace provio::rdf
