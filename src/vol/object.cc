// Wrapper lifetime (see object.h).
#include "vol/object.h"

#include <new>

#include "model/log.h"
#include "vol/error_stack.h"

namespace provio::vol {

Obj* new_obj(void* under, hid_t under_id, bool native_under) {
  auto* o = new (std::nothrow) Obj;
  if (!o) {
    model::warn_once("vol-oom", "VOL connector: out of memory wrapping an HDF5 object");
    return nullptr;
  }
  o->under = under;
  o->under_id = under_id;
  o->native_under = native_under;
  if (!native_under) H5Iinc_ref(under_id);
  return o;
}

bool is_native(hid_t under_id) {
  return under_id >= 0 && under_id == H5VL_NATIVE;
}

Obj* new_child(void* under, hid_t under_id, const Obj* parent, H5I_type_t type) {
  Obj* o = new_obj(under, under_id, parent && parent->native_under);
  if (o) {
    o->type = type;
    if (parent) {
      o->file = parent->file;
      o->mpio = parent->mpio;
    }
  }
  return o;
}

void free_obj(Obj* o) {
  if (!o->native_under) {
    ErrorStackKeeper keep;
    H5Idec_ref(o->under_id);
  }
  delete o;
}

}  // namespace provio::vol
