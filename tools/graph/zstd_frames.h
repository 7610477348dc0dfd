// Reading a compressed raw file (docs/format.md, "Compressed raw files"): zstd frames one after
// the other, each the content of one flush.
//
// Hard rule: a frame's content is handed on only once the whole frame has been read and its
// checksum matched, so a frame cut by a killed writer or damaged on disk costs that frame and
// never puts half a statement into the graph; a frame without a checksum is not trusted. After
// damage the reader resynchronises: it skips to the next zstd magic number that starts a frame of
// provio's kind (content size and checksum declared) and takes it only if it decodes whole with a
// matching checksum, so a false magic inside compressed data is never taken for a frame and every
// later whole frame is kept.
// A frame's signed :start values are made absolute before its content is handed on
// (graph/start_deltas.h), so the parsers see what a plain file says.
// Memory: one frame's content and its compressed bytes at a time (what resynchronising may have
// to read again), never the whole file.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

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

  // Decodes `in`, the file's next bytes, appending to `out` the content of every whole frame that
  // ends in them, its :start values resolved; damaged bytes are skipped (damage() says which).
  void feed(std::string_view in, std::string& out);
  // At the end of the file. Unless `growing` (the writer may still be at it), a frame left
  // unfinished is searched for later frames, in case it was damage rather than a cut end: what
  // they hold is appended to `out`.
  void finish(std::string& out, bool growing);
  // After finish(): whether the file ends in a frame begun and not finished (a writer killed
  // mid-write), with no whole frame after it; where that frame begins.
  bool cut() const { return cut_; }
  std::uint64_t cut_offset() const { return cut_at_; }
  // The damaged ranges skipped, one message each ("damaged zstd data at bytes A-B skipped (why)"),
  // and the frames with statements dropped for a :start that cannot be resolved.
  const std::vector<std::string>& damage() const { return damage_; }

 private:
  // Works through raw_ from pos_: decodes the frame at start_, and after damage looks for the next.
  void decode(std::string& out);
  // Decodes the current frame as far as raw_ goes; true once it ended whole (content in frame_).
  bool decode_frame(const char*& error);
  // After damage: moves start_ to the next byte that begins a frame of provio's kind; false if
  // raw_ holds none yet (more input may show one).
  bool find_candidate();
  // The frame at start_ failed (`why`): it is damage, resynchronise from its next byte.
  void skip_damaged(const std::string& why);

  ZSTD_DCtx_s* dctx_;
  std::string raw_;              // the file's bytes from start_'s frame on (earlier ones dropped at feed())
  std::uint64_t raw_at_ = 0;     // offset in the file of raw_[0]
  std::size_t start_ = 0;        // in raw_: where the frame being decoded (or the search) begins
  std::size_t pos_ = 0;          // in raw_: bytes given to the decoder
  std::string frame_;            // content of the frame being decoded
  bool in_frame_ = false;        // the decoder holds a frame begun at start_
  bool searching_ = false;       // after damage, until a whole frame is found
  std::uint64_t damage_at_ = 0;  // where the damage being skipped began
  std::string damage_why_;       // the decoder's word on its first bad frame
  bool cut_ = false;
  std::uint64_t cut_at_ = 0;
  std::vector<std::string> damage_;
};

}  // namespace provio::rdf
