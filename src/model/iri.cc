// Percent-encoding and canonical paths for entity IRIs (see iri.h).
#include "model/iri.h"

#include <limits.h>
#include <stdlib.h>
#include <unistd.h>

#include <array>
#include <cerrno>
#include <cstring>
#include <initializer_list>

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

// Writes `text` at `out`, percent-encoding the bytes `escape` marks; clean runs are copied in
// bulk. `out` has room for 3 × text.size() bytes. Returns the end of what was written.
char* write_escaped(char* out, std::string_view text, const std::array<bool, 256>& escape) {
  std::size_t run = 0;
  for (std::size_t i = 0; i < text.size(); ++i) {
    auto c = static_cast<unsigned char>(text[i]);
    if (!escape[c]) continue;
    if (i > run) out = static_cast<char*>(std::memcpy(out, text.data() + run, i - run)) + (i - run);
    *out++ = '%';
    *out++ = kHex[c >> 4];
    *out++ = kHex[c & 15];
    run = i + 1;
  }
  if (text.size() > run) {
    out = static_cast<char*>(std::memcpy(out, text.data() + run, text.size() - run)) + (text.size() - run);
  }
  return out;
}

// Appends `text` escaped as write_escaped does.
void append_escaped(std::string& out, std::string_view text, const std::array<bool, 256>& escape) {
  std::size_t at = out.size();
  out.resize(at + 3 * text.size());
  out.resize(write_escaped(out.data() + at, text, escape) - out.data());
}

}  // namespace

void append_percent_encoded(std::string& out, std::string_view text, bool keep_slash) {
  append_escaped(out, text, keep_slash ? kEncodeInPath : kEncodeInName);
}

char* write_percent_encoded(char* out, std::string_view text, bool keep_slash) {
  return write_escaped(out, text, keep_slash ? kEncodeInPath : kEncodeInName);
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

char* ChildIri::write(char* out) const {
  if (!parent.empty())
    out = static_cast<char*>(std::memcpy(out, parent.data(), parent.size())) + parent.size();
  for (char c : separator) *out++ = c;  // one to three bytes: a library call would cost more
  if (encode != Encode::kNone) return write_percent_encoded(out, name, encode == Encode::kPath);
  if (!name.empty()) out = static_cast<char*>(std::memcpy(out, name.data(), name.size())) + name.size();
  return out;
}

void ChildIri::append_to(std::string& out) const {
  std::size_t at = out.size();
  out.resize(at + max_size());
  out.resize(write(out.data() + at) - out.data());
}

ChildIri object_iri_parts(std::string_view file_iri, std::string_view object_path) {
  bool absolute = !object_path.empty() && object_path.front() == '/';
  return {file_iri, absolute ? "#" : "#/", object_path, ChildIri::Encode::kPath};
}

ChildIri attribute_iri_parts(std::string_view owner_iri, std::string_view name) {
  bool in_object = owner_iri.find('#') != std::string_view::npos;
  return in_object ? object_attribute_iri_parts(owner_iri, name)
                   : ChildIri{owner_iri, "#/@", name, ChildIri::Encode::kName};
}

ChildIri object_attribute_iri_parts(std::string_view object_iri, std::string_view name) {
  return {object_iri, "@", name, ChildIri::Encode::kName};
}

std::string object_iri(std::string_view file_iri, std::string_view object_path) {
  std::string iri;
  object_iri_parts(file_iri, object_path).append_to(iri);
  return iri;
}

std::string attribute_iri(std::string_view owner_iri, std::string_view name) {
  std::string iri;
  attribute_iri_parts(owner_iri, name).append_to(iri);
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
