// Signed :start values resolved (see start_deltas.h).
#include "graph/start_deltas.h"

#include <algorithm>
#include <charconv>
#include <cstring>
#include <limits>

#include "model/raw_terms.h"

namespace provio::rdf {
namespace {

constexpr std::string_view kStart = model::raw::kStart;
constexpr std::size_t kShown = 120;  // of a dropped line, in the message

// Whether the text of a line before a term leaves that term inside a string, an IRI or a
// comment (where ":start" is not the predicate).
bool in_text(std::string_view before) {
  char open = 0;  // '"', '\'' or '<' while inside one
  for (std::size_t i = 0; i < before.size(); ++i) {
    char c = before[i];
    if (open == '<') {
      if (c == '>') open = 0;
    } else if (open) {
      if (c == '\\')
        ++i;
      else if (c == open)
        open = 0;
    } else if (c == '"' || c == '\'' || c == '<') {
      open = c;
    } else if (c == '#' && (i == 0 || before[i - 1] != '\\')) {
      return true;
    }
  }
  return open != 0;
}

// Whether `c` (or the end of the frame, 0) may end an integer object.
bool ends_integer(std::string_view frame, std::size_t at) {
  if (at == frame.size()) return true;
  char c = frame[at];
  if (c == '.') return at + 1 == frame.size() || frame[at + 1] < '0' || frame[at + 1] > '9';
  return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == ';' || c == ',' || c == ']' || c == ')';
}

}  // namespace

StartDeltas resolve_start_deltas(std::string_view frame, std::string& out) {
  StartDeltas r;
  bool have = false;                          // a whole-integer :start before, in this frame
  std::int64_t last = 0;                      // its value
  std::size_t copied = 0;                     // frame[0, copied) is in out
  std::size_t line = std::string_view::npos;  // the line of the last :start met, where it begins
  std::size_t line_out = 0;                   // and where that line begins in out
  const char* data = frame.data();
  std::size_t pos = 0;
  while (pos < frame.size()) {
    const void* hit = memmem(data + pos, frame.size() - pos, kStart.data(), kStart.size());
    if (!hit) break;
    std::size_t at = static_cast<std::size_t>(static_cast<const char*>(hit) - data);
    pos = at + kStart.size();
    if (at > 0 && !std::strchr(" \t;\n", frame[at - 1])) continue;  // a longer name
    if (pos >= frame.size() || (frame[pos] != ' ' && frame[pos] != '\t')) continue;
    std::size_t begin = frame.rfind('\n', at);
    begin = begin == std::string_view::npos ? 0 : begin + 1;
    if (in_text(frame.substr(begin, at - begin))) continue;
    if (begin != line) {  // a new line: none of it is in out yet
      line = begin;
      line_out = out.size() + (begin - copied);
    }
    std::size_t v = pos;
    while (v < frame.size() && (frame[v] == ' ' || frame[v] == '\t')) ++v;
    char sign = v < frame.size() && (frame[v] == '+' || frame[v] == '-') ? frame[v] : 0;
    std::size_t digits = v + (sign ? 1 : 0);
    std::uint64_t n = 0;
    auto [end, ec] = std::from_chars(data + digits, data + frame.size(), n);
    std::size_t e = static_cast<std::size_t>(end - data);
    bool whole = ec == std::errc() && e > digits && frame[digits] >= '0' && frame[digits] <= '9' &&
                 n <= static_cast<std::uint64_t>(std::numeric_limits<std::int64_t>::max()) &&
                 ends_integer(frame, e);
    if (!sign) {
      have = whole;
      last = static_cast<std::int64_t>(n);
      continue;
    }
    std::int64_t value = 0;
    auto delta = static_cast<std::int64_t>(n);
    if (whole && have &&
        !(sign == '+' ? __builtin_add_overflow(last, delta, &value)
                      : __builtin_sub_overflow(last, delta, &value))) {
      out.append(data + copied, v - copied);
      char text[24];
      out.append(text, static_cast<std::size_t>(std::to_chars(text, text + sizeof text, value).ptr - text));
      copied = e;
      last = value;
      continue;
    }
    // Nothing to count from, or no number: the line goes, and what follows it cannot count from it.
    std::size_t stop = frame.find('\n', at);
    stop = stop == std::string_view::npos ? frame.size() : stop + 1;
    if (begin >= copied)
      out.append(data + copied, begin - copied);
    else
      out.resize(line_out);  // an earlier :start of this line was resolved into out
    if (r.dropped++ == 0) {
      r.first_dropped.assign(frame.substr(begin, std::min(stop - begin, kShown)));
      while (!r.first_dropped.empty() && r.first_dropped.back() == '\n') r.first_dropped.pop_back();
      r.first_line = 1 + static_cast<std::uint64_t>(std::count(data, data + begin, '\n'));
    }
    copied = pos = stop;
    have = false;
    line = std::string_view::npos;
  }
  out.append(data + copied, frame.size() - copied);
  return r;
}

}  // namespace provio::rdf
