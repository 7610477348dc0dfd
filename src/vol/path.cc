// Object path normalisation (see path.h). Pure string work: no HDF5 calls, no allocation beyond
// the result.
#include "vol/path.h"

#include <cstring>

namespace provio::vol {
namespace {

void append_components(std::string& out, std::string_view p) {
  std::size_t i = 0;
  while (i < p.size()) {
    std::size_t j = p.find('/', i);
    if (j == std::string_view::npos) j = p.size();
    std::string_view comp = p.substr(i, j - i);
    if (!comp.empty() && comp != ".") {
      out += '/';
      out.append(comp);
    }
    i = j + 1;
  }
}

// Whether `p` is non-empty components joined by single slashes, none of them ".": what
// append_components would give back unchanged, less its leading '/'.
bool plain_components(std::string_view p) {
  const char* c = p.data();
  const char* end = c + p.size();
  if (c == end) return false;
  // At the start of each component: neither empty ('/' or the end) nor "." alone.
  for (;;) {
    if (*c == '/' || (*c == '.' && (c + 1 == end || c[1] == '/'))) return false;
    while (++c != end && *c != '/') {
    }
    if (c == end) return true;
    if (++c == end) return false;  // a trailing '/': an empty last component
  }
}

}  // namespace

std::string join_path(std::string_view base, std::string_view name) {
  // The common case, a relative name of plain components under a normalised path (one this
  // function made; a token name starts with "//"): nothing to normalise, and the result is made
  // in one piece.
  bool root = base == "/";
  if (!base.empty() && base.front() == '/' && (root || plain_components(base.substr(1))) &&
      plain_components(name)) {
    std::size_t at = root ? 0 : base.size();
    std::string out(at + 1 + name.size(), '/');
    std::memcpy(out.data(), base.data(), at);
    std::memcpy(out.data() + at + 1, name.data(), name.size());
    return out;
  }
  std::string out;
  out.reserve(base.size() + name.size() + 2);
  if (name.empty() || name.front() != '/') append_components(out, base);
  append_components(out, name);
  if (out.empty()) out = "/";
  return out;
}

}  // namespace provio::vol
