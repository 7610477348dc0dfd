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

}  // namespace

std::string join_path(std::string_view base, std::string_view name) {
  std::string out;
  out.reserve(base.size() + name.size() + 2);
  // The common case, a plain name under a path this function made (no "//", no "/./", no
  // trailing '/'; not a token name, which starts with "//"): nothing to normalise.
  bool normal_base =
      !base.empty() && base.front() == '/' && (base.size() == 1 || (base[1] != '/' && base.back() != '/'));
  if (normal_base && !name.empty() && name != "." && name.find('/') == std::string_view::npos &&
      base.find("/./") == std::string_view::npos && base.find("//") == std::string_view::npos &&
      !(base.size() >= 2 && base.substr(base.size() - 2) == "/.")) {
    out.append(base.size() == 1 ? std::string_view{} : base);
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
