// The wrap class callbacks (see wrap_class.h).
#include "vol/wrap_class.h"

#include <new>

#include "vol/error_stack.h"
#include "vol/object.h"

namespace provio::vol {
namespace {

struct WrapCtx {
  hid_t under_id;
  void* under_ctx = nullptr;
  bool mpio;
};

}  // namespace

void* get_object(const void* obj) {
  const Obj* o = as_obj(obj);
  return H5VLget_object(o->under, o->under_id);
}

herr_t get_wrap_ctx(const void* obj, void** ctx) {
  const Obj* o = as_obj(obj);
  auto* w = new (std::nothrow) WrapCtx{o->under_id, nullptr, o->mpio};
  if (!w) {
    push_error(__func__, H5E_CANTALLOC, "out of memory");
    return -1;
  }
  H5Iinc_ref(w->under_id);
  if (H5VLget_wrap_ctx(o->under, o->under_id, &w->under_ctx) < 0) {
    ErrorStackKeeper keep;
    H5Idec_ref(w->under_id);
    delete w;
    return -1;
  }
  *ctx = w;
  return 0;
}

void* wrap_object(void* obj, H5I_type_t type, void* ctx) {
  auto* w = static_cast<WrapCtx*>(ctx);
  void* under = H5VLwrap_object(obj, type, w->under_id, w->under_ctx);
  if (!under) return nullptr;
  Obj* o = new_obj(under, w->under_id);
  if (o) {
    o->type = type;
    o->mpio = w->mpio;
  }
  return o;
}

void* unwrap_object(void* obj) {
  Obj* o = as_obj(obj);
  void* under = H5VLunwrap_object(o->under, o->under_id);
  if (under) free_obj(o);
  return under;
}

herr_t free_wrap_ctx(void* ctx) {
  auto* w = static_cast<WrapCtx*>(ctx);
  ErrorStackKeeper keep;
  herr_t r = 0;
  if (w->under_ctx && H5VLfree_wrap_ctx(w->under_ctx, w->under_id) < 0) r = -1;
  if (H5Idec_ref(w->under_id) < 0) r = -1;
  delete w;
  return r;
}

}  // namespace provio::vol
