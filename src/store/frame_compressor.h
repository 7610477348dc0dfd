// Compressing one flush of a raw file into one zstd frame (docs/format.md, "Compressed raw files").
//
// Hard rule: a frame is complete in itself (content size and checksum in its header and trailer,
// no dictionary, no reference to an earlier frame), so every frame a killed process wrote whole
// can be read, whatever happened to the frames after it.
#pragma once

#include <string>
#include <string_view>

namespace provio::store {

// The zstd level, chosen by measurement on the metadata kernel's raw files (docs/performance.md,
// "Compressed raw files"): level 1 compresses provio's Turtle better than level 3 and about as
// well as level 6 at several times its speed. A frame is one write of a flush (at most
// RawWriter::kWriteChunk, 64 KiB, unless writes wait for the writer thread together): larger
// frames gain nothing there, 16 KiB ones lose 17 %.
inline constexpr int kZstdLevel = 1;

// Appends `plain` as one zstd frame to `out`; false (out unchanged) if zstd failed (out of memory).
bool compress_frame(std::string_view plain, std::string& out);

}  // namespace provio::store
