// Per-file prefixes and compact entity terms (see file_names.h).
#include "store/file_names.h"

#include <string_view>

#include "model/entities.h"
#include "model/iri.h"
#include "store/turtle.h"

namespace provio::store {

const std::string& FileNames::prefix(std::string_view base, bool in_file, std::string& out) {
  // Entities come in runs of one file (a dataset, its attributes): the last base is compared
  // first, without building a key.
  if (last_prefix_ && base == last_base_) return *last_prefix_;
  std::string key(base);
  auto it = prefixes_.find(key);
  if (it == prefixes_.end()) {
    std::string name = (in_file ? "f" : "d") + std::to_string(prefixes_.size() + 1) + ":";
    out += "@prefix ";
    out += name;
    out += ' ';
    model::append_iri_term(out, key);
    out += " .\n";
    bytes_ += key.size() + name.size();
    it = prefixes_.emplace(std::move(key), std::move(name)).first;
  }
  last_base_ = it->first;
  last_prefix_ = &it->second;  // map nodes do not move
  return it->second;
}

const std::string& FileNames::term(model::EntityId id, std::string& out) {
  const model::Entity* e = model::entity(id);
  if (!e) return empty_;
  if (id >= terms_.size()) terms_.resize(std::max<std::size_t>(id + 1, terms_.size() * 2));
  std::string& t = terms_[id];
  if (!t.empty()) return t;
  // The base: an HDF5 object's or attribute's file IRI up to its '#', a file's directory up to
  // its last '/'. Workflow records (any IRI) keep their full term.
  std::string_view iri = e->iri();
  std::size_t cut = std::string_view::npos;
  // A version shares its file's directory prefix.
  bool in_file = e->cls != model::EntityClass::kRecord && e->cls != model::EntityClass::kFile &&
                 e->cls != model::EntityClass::kDirectory && e->cls != model::EntityClass::kVersion;
  if (e->cls != model::EntityClass::kRecord) cut = in_file ? iri.find('#') : iri.rfind('/');
  if (cut != std::string_view::npos && cut + 1 < iri.size()) {
    t = prefix(iri.substr(0, cut + 1), in_file, out);
    if (!append_local_name(t, iri.substr(cut + 1))) t.clear();
  }
  if (t.empty()) t = e->term();
  bytes_ += t.size();
  return t;
}

}  // namespace provio::store
