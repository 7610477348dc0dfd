// The signed :start values of a compressed raw file resolved back to absolute ones
// (docs/format.md, "Signed starts"), frame by frame, before the text is parsed: the parsers and
// folding see the statements a plain file carries.
//
// Hard rule: a value is only ever resolved from the :start before it in the same frame. A signed
// :start with nothing to count from (the first of a frame, or after one that is not a whole
// integer), or one that does not read (`:start +`, an overflow), is never guessed: its line (one
// statement in a raw file) is dropped and counted, as a bad statement is.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

namespace provio::rdf {

struct StartDeltas {
  std::uint64_t dropped = 0;     // lines dropped
  std::string first_dropped;     // the first of them, cut to a readable length
  std::uint64_t first_line = 0;  // its line in the frame (from 1)
};

// Appends `frame` (one frame's whole content) to `out` with each signed :start made absolute;
// says what it dropped.
StartDeltas resolve_start_deltas(std::string_view frame, std::string& out);

}  // namespace provio::rdf
