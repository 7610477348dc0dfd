// Per-file prefixes and compact entity terms (see file_names.h).
#include "store/file_names.h"

#include <string_view>

#include "model/entities.h"
#include "model/iri.h"
#include "store/turtle.h"

namespace provio::store {

const std::string& FileNames::term(model::EntityId id, std::string& out) {
  const model::Entity* e = model::entity(id);
  if (!e) return empty_;
  if (id >= terms_.size()) terms_.resize(std::max<std::size_t>(id + 1, terms_.size() * 2));
  std::string& t = terms_[id];
  if (!t.empty()) return t;
  // The base: an HDF5 object's or attribute's file IRI up to its '#', a file's directory up to
  // its last '/'. Workflow records (any IRI) keep their full term.
  std::string_view iri = e->iri;
  std::size_t cut = std::string_view::npos;
  // A version shares its file's directory prefix.
  bool in_file = e->cls != model::EntityClass::kRecord && e->cls != model::EntityClass::kFile &&
                 e->cls != model::EntityClass::kDirectory && e->cls != model::EntityClass::kVersion;
  if (e->cls != model::EntityClass::kRecord) cut = in_file ? iri.find('#') : iri.rfind('/');
  if (cut != std::string_view::npos && cut + 1 < iri.size()) {
    std::string base(iri.substr(0, cut + 1));
    auto it = prefixes_.find(base);
    if (it == prefixes_.end()) {
      std::string name = (in_file ? "f" : "d") + std::to_string(prefixes_.size() + 1) + ":";
      out += "@prefix ";
      out += name;
      out += ' ';
      model::append_iri_term(out, base);
      out += " .\n";
      bytes_ += base.size() + name.size();
      it = prefixes_.emplace(std::move(base), std::move(name)).first;
    }
    t = it->second;
    if (!append_local_name(t, iri.substr(cut + 1))) t.clear();
  }
  if (t.empty()) t = e->term;
  bytes_ += t.size();
  return t;
}

}  // namespace provio::store
