// Compressing one flush of a raw file into one zstd frame (docs/format.md, "Compressed raw files").
//
// Hard rule: a frame is complete in itself (content size and checksum in its header and trailer,
// no dictionary, no reference to an earlier frame), so every frame a killed process wrote whole
// can be read, whatever happened to the frames after it.
#pragma once

#include <string>
#include <string_view>

namespace provio::store {

// zstd level and the number of bytes a frame holds at most, chosen by measurement on raw files
// of the metadata kernel and the examples (docs/performance.md, "Compressed raw files"): level 1
// gives almost all of the size level 3 gives at about half its CPU time, and frames beyond
// 256 KiB gain little.
inline constexpr int kZstdLevel = 1;

// Appends `plain` as one zstd frame to `out`; false (out unchanged) if zstd failed (out of memory).
bool compress_frame(std::string_view plain, std::string& out);

}  // namespace provio::store
