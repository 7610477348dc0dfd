// Percent-encoding and canonical paths for entity IRIs (see iri.h).
#include "model/iri.h"

#include <limits.h>
#include <stdlib.h>
#include <unistd.h>

#include <array>
#include <cerrno>

namespace provio::model {
namespace {

// Bytes to percent-encode in a name, and in a path (where '/' stays).
constexpr std::array<bool, 256> make_encoded(bool keep_slash) {
  std::array<bool, 256> t{};
  for (int c = 0; c < 256; ++c) {
    bool unreserved = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
                      c == '-' || c == '.' || c == '_' || c == '~';
    t[c] = !unreserved && !(keep_slash && c == '/');
  }
  return t;
}
constexpr std::array<bool, 256> kEncodeInName = make_encoded(false);
constexpr std::array<bool, 256> kEncodeInPath = make_encoded(true);

// Bytes that may not appear raw inside <…> (Turtle IRIREF).
constexpr std::array<bool, 256> make_iri_forbidden() {
  std::array<bool, 256> t{};
  for (int c = 0; c <= 0x20; ++c) t[c] = true;
  for (char c : {'<', '>', '"', '{', '}', '|', '^', '`', '\\'}) t[static_cast<unsigned char>(c)] = true;
  return t;
}
constexpr std::array<bool, 256> kIriForbidden = make_iri_forbidden();
constexpr char kHex[] = "0123456789ABCDEF";

int hex_value(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

// Lexically normalise an absolute path: collapse "//", drop ".", resolve "..".
std::string normalise(std::string_view path) {
  std::string out;
  std::size_t i = 0;
  while (i < path.size()) {
    while (i < path.size() && path[i] == '/') ++i;
    std::size_t j = path.find('/', i);
    if (j == std::string_view::npos) j = path.size();
    std::string_view part = path.substr(i, j - i);
    i = j;
    if (part.empty() || part == ".") continue;
    if (part == "..") {
      std::size_t cut = out.rfind('/');
      out.resize(cut == std::string::npos ? 0 : cut);
      continue;
    }
    out += '/';
    out += part;
  }
  return out.empty() ? "/" : out;
}

// Appends `text`, percent-encoding the bytes `escape` marks; clean runs are copied in bulk.
void append_escaped(std::string& out, std::string_view text, const std::array<bool, 256>& escape) {
  std::size_t run = 0;
  for (std::size_t i = 0; i < text.size(); ++i) {
    auto c = static_cast<unsigned char>(text[i]);
    if (!escape[c]) continue;
    out.append(text.data() + run, i - run);
    out += '%';
    out += kHex[c >> 4];
    out += kHex[c & 15];
    run = i + 1;
  }
  out.append(text.data() + run, text.size() - run);
}

}  // namespace

void append_percent_encoded(std::string& out, std::string_view text, bool keep_slash) {
  append_escaped(out, text, keep_slash ? kEncodeInPath : kEncodeInName);
}

void append_iri_term(std::string& out, std::string_view iri) {
  out += '<';
  append_escaped(out, iri, kIriForbidden);
  out += '>';
}

std::string percent_decode(std::string_view text) {
  std::string out;
  out.reserve(text.size());
  for (std::size_t i = 0; i < text.size(); ++i) {
    if (text[i] == '%' && i + 2 < text.size()) {
      int hi = hex_value(text[i + 1]);
      int lo = hex_value(text[i + 2]);
      if (hi >= 0 && lo >= 0) {
        out += static_cast<char>(hi * 16 + lo);
        i += 2;
        continue;
      }
    }
    out += text[i];
  }
  return out;
}

std::string file_iri(std::string_view canonical_path) {
  std::string iri = "file://";
  append_percent_encoded(iri, canonical_path, true);
  return iri;
}

void append_object_iri(std::string& out, std::string_view file_iri, std::string_view object_path) {
  out += file_iri;
  out += '#';
  if (object_path.empty() || object_path.front() != '/') out += '/';
  append_percent_encoded(out, object_path, true);
}

std::string object_iri(std::string_view file_iri, std::string_view object_path) {
  std::string iri;
  iri.reserve(file_iri.size() + object_path.size() + 2);  // exact unless bytes are encoded
  append_object_iri(iri, file_iri, object_path);
  return iri;
}

void append_attribute_iri(std::string& out, std::string_view owner_iri, std::string_view name) {
  out += owner_iri;
  if (owner_iri.find('#') == std::string_view::npos) out += "#/";
  out += '@';
  append_percent_encoded(out, name, false);
}

std::string attribute_iri(std::string_view owner_iri, std::string_view name) {
  std::string iri;
  iri.reserve(owner_iri.size() + name.size() + 3);  // exact unless bytes are encoded
  append_attribute_iri(iri, owner_iri, name);
  return iri;
}

std::string canonical_path(std::string_view path) {
  int saved = errno;  // realpath/getcwd failures are expected here and must not leak out
  std::string abs;
  if (!path.empty() && path.front() == '/') {
    abs.assign(path);
  } else {
    char cwd[PATH_MAX];
    if (!getcwd(cwd, sizeof cwd)) {  // deeper than PATH_MAX, or removed: no name, not "/"
      errno = saved;
      return {};
    }
    abs = cwd;
    abs += '/';
    abs.append(path);
  }
  abs = normalise(abs);
  // Resolve symlinks on the longest prefix that exists; keep the rest as written.
  std::string rest;
  std::string head = abs;
  char resolved[PATH_MAX];
  while (true) {
    if (realpath(head.c_str(), resolved)) {
      std::string out = resolved;
      if (!rest.empty()) out = normalise(out + rest);
      errno = saved;
      return out;
    }
    std::size_t cut = head.rfind('/');
    if (cut == std::string::npos || head == "/") break;
    rest.insert(0, head.substr(cut));
    head.resize(cut == 0 ? 1 : cut);
  }
  errno = saved;
  return abs;
}

}  // namespace provio::model
