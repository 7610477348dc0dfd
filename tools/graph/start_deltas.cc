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
constexpr std::size_t kShown = 120;         // of a dropped line, in the message
constexpr std::size_t kLongLine = 1 << 20;  // a plain input's cut line held for its end at most

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

// Whether the byte at `at` (or the end of the text) may end an integer object.
bool ends_integer(std::string_view text, std::size_t at) {
  if (at == text.size()) return true;
  char c = text[at];
  if (c == '.') return at + 1 == text.size() || text[at + 1] < '0' || text[at + 1] > '9';
  return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == ';' || c == ',' || c == ']' || c == ')';
}

}  // namespace

std::string dropped_message(const StartDeltas& d, std::string_view where) {
  if (!d.dropped) return {};
  return std::to_string(d.dropped) +
         " statement(s) with a signed :start that cannot be resolved dropped (the first, line " +
         std::to_string(d.first_line) + std::string(where) + ": " + d.first_dropped + ")";
}

StartDeltas resolve_start_deltas(std::string_view frame, std::string& out) {
  StartResolver r;
  r.feed(frame, out);
  r.finish(out);
  return r.dropped();
}

void StartResolver::feed(std::string_view text, std::string& out) {
  std::size_t nl = text.rfind('\n');
  if (nl == std::string_view::npos) {
    if (carry_.size() + text.size() <= kLongLine) {
      carry_.append(text);
      return;
    }
    // Not a line of an activity (nor any text a reader should hold whole): handed on as it is.
    out += carry_;
    out.append(text);
    carry_.clear();
    return;
  }
  if (carry_.empty()) {
    resolve(text.substr(0, nl + 1), out);
  } else {
    carry_.append(text.substr(0, nl + 1));
    resolve(carry_, out);
  }
  carry_.assign(text.substr(nl + 1));
}

void StartResolver::finish(std::string& out) {
  resolve(carry_, out);
  carry_.clear();
}

void StartResolver::resolve(std::string_view text, std::string& out) {
  std::size_t copied = 0;                     // text[0, copied) is in out
  std::size_t line = std::string_view::npos;  // the line of the last_ :start met, where it begins
  std::size_t line_out = 0;                   // and where that line begins in out
  const char* data = text.data();
  std::size_t pos = 0;
  while (pos < text.size()) {
    const void* hit = memmem(data + pos, text.size() - pos, kStart.data(), kStart.size());
    if (!hit) break;
    std::size_t at = static_cast<std::size_t>(static_cast<const char*>(hit) - data);
    pos = at + kStart.size();
    if (at > 0 && !std::strchr(" \t;\n", text[at - 1])) continue;  // a longer name
    if (pos >= text.size() || (text[pos] != ' ' && text[pos] != '\t')) continue;
    std::size_t begin = text.rfind('\n', at);
    begin = begin == std::string_view::npos ? 0 : begin + 1;
    if (in_text(text.substr(begin, at - begin))) continue;
    if (begin != line) {  // a new line: none of it is in out yet
      line = begin;
      line_out = out.size() + (begin - copied);
    }
    std::size_t v = pos;
    while (v < text.size() && (text[v] == ' ' || text[v] == '\t')) ++v;
    char sign = v < text.size() && (text[v] == '+' || text[v] == '-') ? text[v] : 0;
    std::size_t digits = v + (sign ? 1 : 0);
    std::uint64_t n = 0;
    auto [end, ec] = std::from_chars(data + digits, data + text.size(), n);
    std::size_t e = static_cast<std::size_t>(end - data);
    bool whole = ec == std::errc() && e > digits && text[digits] >= '0' && text[digits] <= '9' &&
                 n <= static_cast<std::uint64_t>(std::numeric_limits<std::int64_t>::max()) &&
                 ends_integer(text, e);
    if (!sign) {
      have_ = whole;
      last_ = static_cast<std::int64_t>(n);
      continue;
    }
    std::int64_t value = 0;
    auto delta = static_cast<std::int64_t>(n);
    if (whole && have_ &&
        !(sign == '+' ? __builtin_add_overflow(last_, delta, &value)
                      : __builtin_sub_overflow(last_, delta, &value))) {
      out.append(data + copied, v - copied);
      char text[24];
      out.append(text, static_cast<std::size_t>(std::to_chars(text, text + sizeof text, value).ptr - text));
      copied = e;
      last_ = value;
      continue;
    }
    // Nothing to count from, or no number: the line goes, and what follows it cannot count from it.
    std::size_t stop = text.find('\n', at);
    stop = stop == std::string_view::npos ? text.size() : stop + 1;
    if (begin >= copied)
      out.append(data + copied, begin - copied);
    else
      out.resize(line_out);  // an earlier :start of this line was resolved into out
    if (dropped_.dropped++ == 0) {
      dropped_.first_dropped.assign(text.substr(begin, std::min(stop - begin, kShown)));
      while (!dropped_.first_dropped.empty() && dropped_.first_dropped.back() == '\n')
        dropped_.first_dropped.pop_back();
      dropped_.first_line = lines_ + 1 + static_cast<std::uint64_t>(std::count(data, data + begin, '\n'));
    }
    copied = pos = stop;
    have_ = false;
    line = std::string_view::npos;
  }
  out.append(data + copied, text.size() - copied);
  lines_ += static_cast<std::uint64_t>(std::count(data, data + text.size(), '\n'));
}

}  // namespace provio::rdf
