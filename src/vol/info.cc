// Parsing and formatting of the connector info string (see info.h). The grammar:
//   info    := [item (';' item)*]          empty items are ignored
//   item    := key '=' value
//   value   := '{' balanced '}' | text without ';'   (whitespace around keys/plain values trimmed)
// under_vol and under_info are the connector below; every other key is a provio option.
#include "vol/info.h"

#include <cctype>
#include <limits>

namespace provio::vol {
namespace {

std::string_view trim(std::string_view s) {
  while (!s.empty() && std::isspace(static_cast<unsigned char>(s.front()))) s.remove_prefix(1);
  while (!s.empty() && std::isspace(static_cast<unsigned char>(s.back()))) s.remove_suffix(1);
  return s;
}

bool valid_key(std::string_view k) {
  if (k.empty() || k.size() > 64) return false;
  for (char c : k) {
    if (!(std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '-' || c == '.')) return false;
  }
  return true;
}

// Index one past the '}' matching the '{' at s[open], or npos when unbalanced.
std::size_t match_brace(std::string_view s, std::size_t open) {
  int depth = 0;
  for (std::size_t i = open; i < s.size(); ++i) {
    if (s[i] == '{') {
      ++depth;
    } else if (s[i] == '}') {
      if (--depth == 0) return i + 1;
    }
  }
  return std::string_view::npos;
}

bool balanced(std::string_view s) {
  int depth = 0;
  for (char c : s) {
    if (c == '{') ++depth;
    if (c == '}' && --depth < 0) return false;
  }
  return depth == 0;
}

bool needs_braces(std::string_view v) {
  if (v.empty()) return false;
  if (v.find(';') != std::string_view::npos || v.front() == '{') return true;
  return std::isspace(static_cast<unsigned char>(v.front())) ||
         std::isspace(static_cast<unsigned char>(v.back()));
}

}  // namespace

bool under_is_value(std::string_view under_vol, unsigned* value) {
  if (under_vol.empty() || under_vol.size() > 10) return false;
  unsigned long long v = 0;
  for (char c : under_vol) {
    if (c < '0' || c > '9') return false;
    v = v * 10 + static_cast<unsigned>(c - '0');
  }
  if (v > static_cast<unsigned long long>(std::numeric_limits<int>::max())) return false;
  if (value) *value = static_cast<unsigned>(v);
  return true;
}

ParseResult parse_info(std::string_view text) {
  ParseResult r;
  bool seen_vol = false, seen_info = false;
  std::size_t i = 0;
  while (i < text.size()) {
    std::size_t eq = text.find('=', i);
    std::size_t semi = text.find(';', i);
    if (semi != std::string_view::npos && (eq == std::string_view::npos || semi < eq)) {
      if (!trim(text.substr(i, semi - i)).empty()) {
        r.error = "item '" + std::string(trim(text.substr(i, semi - i))) + "' has no '='";
        return r;
      }
      i = semi + 1;  // empty item
      continue;
    }
    if (eq == std::string_view::npos) {
      if (!trim(text.substr(i)).empty()) {
        r.error = "item '" + std::string(trim(text.substr(i))) + "' has no '='";
        return r;
      }
      break;
    }
    std::string_view key = trim(text.substr(i, eq - i));
    if (!valid_key(key)) {
      r.error = "bad key '" + std::string(key.substr(0, 64)) + "'";
      return r;
    }
    std::size_t v = eq + 1;
    while (v < text.size() && std::isspace(static_cast<unsigned char>(text[v]))) ++v;
    std::string value;
    std::size_t next;
    if (v < text.size() && text[v] == '{') {
      std::size_t end = match_brace(text, v);
      if (end == std::string_view::npos) {
        r.error = "unbalanced '{' in the value of " + std::string(key);
        return r;
      }
      value.assign(text.substr(v + 1, end - v - 2));
      next = end;
      while (next < text.size() && std::isspace(static_cast<unsigned char>(text[next]))) ++next;
      if (next < text.size() && text[next] != ';') {
        r.error = "text after '}' in the value of " + std::string(key);
        return r;
      }
    } else {
      next = text.find(';', v);
      if (next == std::string_view::npos) next = text.size();
      value.assign(trim(text.substr(v, next - v)));
    }
    if (key == "under_vol") {
      if (seen_vol) {
        r.error = "under_vol given twice";
        return r;
      }
      seen_vol = true;
      if (value.empty()) value = "0";
      r.info.under_vol = value;
    } else if (key == "under_info") {
      if (!balanced(value)) {
        r.error = "unbalanced braces in under_info";
        return r;
      }
      if (seen_info) {
        r.error = "under_info given twice";
        return r;
      }
      seen_info = true;
      r.info.under_info = std::move(value);
    } else {
      r.info.options.emplace_back(std::string(key), std::move(value));
    }
    i = next < text.size() ? next + 1 : next;
  }
  if (!under_is_value(r.info.under_vol, nullptr) && !valid_key(r.info.under_vol)) {
    r.error = "under_vol must be a connector value or name";
    return r;
  }
  r.ok = true;
  return r;
}

std::string format_info(const InfoText& info) {
  std::string s;
  s.reserve(32 + info.under_vol.size() + info.under_info.size());
  s += "under_vol=";
  s += info.under_vol;
  s += ";under_info={";
  s += info.under_info;
  s += '}';
  for (const auto& [k, v] : info.options) {
    s += ';';
    s += k;
    s += '=';
    if (needs_braces(v)) {
      s += '{';
      s += v;
      s += '}';
    } else {
      s += v;
    }
  }
  return s;
}

}  // namespace provio::vol
