// Escaping text for a terminal (see terminal.h).
#include "cli/terminal.h"

#include <unistd.h>

#include <cstdint>

namespace provio::cli {
namespace {

constexpr char kHex[] = "0123456789abcdef";

void append_hex(std::string& out, const char* prefix, unsigned value, int digits) {
  out += prefix;
  for (int shift = 4 * (digits - 1); shift >= 0; shift -= 4) out += kHex[(value >> shift) & 0xF];
}

}  // namespace

std::size_t utf8_error_at(std::string_view s) {
  const auto* p = reinterpret_cast<const unsigned char*>(s.data());
  const std::size_t n = s.size();
  for (std::size_t i = 0; i < n;) {
    unsigned c = p[i];
    if (c < 0x80) {
      ++i;
      continue;
    }
    // Length and the smallest code point of that length (anything below is an overlong form).
    std::size_t len = c >= 0xF0 && c <= 0xF4 ? 4 : c >= 0xE0 ? 3 : c >= 0xC2 && c <= 0xDF ? 2 : 0;
    if (c >= 0xF5) len = 0;
    if (len == 0 || i + len > n) return i;
    std::uint32_t cp = c & (0xFFu >> (len + 1));
    for (std::size_t k = 1; k < len; ++k) {
      if ((p[i + k] & 0xC0) != 0x80) return i;
      cp = cp << 6 | (p[i + k] & 0x3F);
    }
    static constexpr std::uint32_t kMin[] = {0, 0, 0x80, 0x800, 0x10000};
    if (cp < kMin[len] || cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF)) return i;
    i += len;
  }
  return std::string_view::npos;
}

std::string escape_controls(std::string_view text) {
  std::string out;
  out.reserve(text.size());
  while (!text.empty()) {
    // Valid UTF-8 up to `bad`: only its controls are escaped; the byte at `bad` is not UTF-8.
    std::size_t bad = utf8_error_at(text);
    std::string_view valid = text.substr(0, bad);
    for (std::size_t i = 0; i < valid.size(); ++i) {
      auto c = static_cast<unsigned char>(valid[i]);
      auto next = i + 1 < valid.size() ? static_cast<unsigned char>(valid[i + 1]) : 0u;
      if (c == '\n' || c == '\r' || c == '\t') {
        out += c == '\n' ? "\\n" : c == '\r' ? "\\r" : "\\t";
      } else if (c < 0x20 || c == 0x7F) {
        append_hex(out, "\\x", c, 2);
      } else if (c == 0xC2 && next < 0xA0) {
        append_hex(out, "\\u00", next, 2);  // a C1 control: CSI (U+009B) is ESC [ to xterm
        ++i;
      } else {
        out += static_cast<char>(c);
      }
    }
    if (bad == std::string_view::npos) break;
    append_hex(out, "\\x", static_cast<unsigned char>(text[bad]), 2);
    text.remove_prefix(bad + 1);
  }
  return out;
}

void print_message(const char* tool, std::string_view text) {
  std::string line = std::string(tool) + ": " + escape_controls(text) + "\n";
  std::fwrite(line.data(), 1, line.size(), stderr);
}

bool is_terminal(std::FILE* stream) {
  return ::isatty(::fileno(stream)) == 1;
}

}  // namespace provio::cli
