// Which provenance entity an HDF5 object is: its file, its full path inside the file, and the
// interned entity, asked from the connector below only when the wrapper does not know them yet.
// Hard rule: our lookups never show on the application's error stack or stderr (QuietLookup),
// and one object gets one entity whichever call saw it.
#pragma once

#include <hdf5.h>

#include <string>

#include "model/entities.h"
#include "vol/object.h"

namespace provio::vol {

inline model::EntityClass class_of(H5I_type_t t) {
  switch (t) {
    case H5I_FILE: return model::EntityClass::kFile;
    case H5I_GROUP: return model::EntityClass::kGroup;
    case H5I_DATASET: return model::EntityClass::kDataset;
    case H5I_DATATYPE: return model::EntityClass::kDatatype;
    case H5I_ATTR: return model::EntityClass::kAttribute;
    default: return model::EntityClass::kObject;
  }
}

// The file the under connector says `o` lives in (H5Fget_name's name, as the file was opened);
// kNoEntity when the under connector cannot say.
model::EntityId file_named_below(Obj* o);
// The same for a new child of `parent`: the parent's file when the connector below names the same
// open file for both.
model::EntityId file_named_below(Obj* o, Obj* parent);

// The file of `o`, asking the under connector when the wrapper was made by HDF5 itself
// (wrap_object) and so came without one.
inline model::EntityId file_of(Obj* o) {
  if (o->file == model::kNoEntity) o->file = file_named_below(o);
  return o->file;
}

// The full path of `o` inside its file, asking the under connector when not known yet; the
// token name ("//anonymous/<hex>") for anonymous objects; empty when it cannot be known.
const std::string& path_of(Obj* o);

// The entity of a file, group, dataset or named datatype wrapper (attributes get theirs at
// create/open), interned on first need (name_entity: the rest of its first call); kNoEntity when
// it cannot be named. Inline: every recorded call on a named object asks.
model::EntityId name_entity(Obj* o);
inline model::EntityId entity_of(Obj* o) {
  return o->entity != model::kNoEntity ? o->entity : name_entity(o);
}

// The full path named by (parent, loc, name), empty when it cannot be known without asking
// (by index or token), or when there is no name (anonymous objects).
std::string target_path(Obj* parent, const H5VL_loc_params_t* loc, const char* name);

// The object located by `loc` from `parent` (link and object callbacks that name their target
// through loc_params only).
model::EntityId located(Obj* parent, const H5VL_loc_params_t* loc, model::EntityClass cls);

}  // namespace provio::vol
