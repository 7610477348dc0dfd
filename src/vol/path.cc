// Object path normalisation (see path.h). Pure string work: no HDF5 calls, no allocation beyond
// the result.
#include "vol/path.h"

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
  if (p.empty()) return false;
  std::size_t start = 0;
  for (std::size_t i = 0; i <= p.size(); ++i) {
    if (i < p.size() && p[i] != '/') continue;
    std::size_t len = i - start;
    if (len == 0 || (len == 1 && p[start] == '.')) return false;
    start = i + 1;
  }
  return true;
}

}  // namespace

std::string join_path(std::string_view base, std::string_view name) {
  std::string out;
  out.reserve(base.size() + name.size() + 2);
  // The common case, a relative name of plain components under a normalised path (one this
  // function made; a token name starts with "//"): nothing to normalise.
  bool root = base == "/";
  if (!base.empty() && base.front() == '/' && (root || plain_components(base.substr(1))) &&
      plain_components(name)) {
    if (!root) out.append(base);
    out += '/';
    out.append(name);
    return out;
  }
  if (name.empty() || name.front() != '/') append_components(out, base);
  append_components(out, name);
  if (out.empty()) out = "/";
  return out;
}

}  // namespace provio::vol
