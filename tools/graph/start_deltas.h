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
  std::uint64_t first_line = 0;  // its line in the frame or input (from 1)
};

// What was dropped, for a message: "N statement(s) with a signed :start that cannot be resolved
// dropped (the first, line L…: TEXT)"; empty if nothing was. `where`: " of the frame", "".
std::string dropped_message(const StartDeltas& d, std::string_view where);

// Resolves one frame's content, or a plain input (the text `zstdcat` gives: every frame's first
// :start is absolute, so the rule holds across frames there), fed in pieces of any size.
class StartResolver {
 public:
  // Appends the whole lines of `text` (after what earlier pieces left) to `out`, resolved; a line
  // cut at its end waits for the next piece.
  void feed(std::string_view text, std::string& out);
  // The end of the frame or input: appends the line left waiting, resolved.
  void finish(std::string& out);
  const StartDeltas& dropped() const { return dropped_; }

 private:
  void resolve(std::string_view lines, std::string& out);

  std::string carry_;        // a line cut at the end of the last piece
  bool have_ = false;        // a whole-integer :start before
  std::int64_t last_ = 0;    // its value
  std::uint64_t lines_ = 0;  // lines resolved before this piece
  StartDeltas dropped_;
};

// One whole frame: a StartResolver fed `frame` alone. Appends it to `out`, resolved.
StartDeltas resolve_start_deltas(std::string_view frame, std::string& out);

}  // namespace provio::rdf
