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
  bool native_under;
};

// HDF5 asks for a wrap context around every API call on a wrapped object and frees it after.
// Over the native connector (no wrap context of its own, an id the library holds) the context
// carries nothing but the driver, so it is one of two constants: no allocation, no id reference,
// no HDF5 call per application call.
const WrapCtx kNativeCtx{H5I_INVALID_HID, nullptr, false, true};
const WrapCtx kNativeMpioCtx{H5I_INVALID_HID, nullptr, true, true};

bool is_constant(const WrapCtx* w) {
  return w == &kNativeCtx || w == &kNativeMpioCtx;
}

// The paths over another connector, out of line: HDF5 asks for and frees a context around every
// API call, and with these inline the native path saved and restored registers it never uses.
[[gnu::noinline]] herr_t get_under_wrap_ctx(const Obj* o, void** ctx) {
  auto* w = new (std::nothrow) WrapCtx{o->under_id, nullptr, o->mpio, false};
  if (!w) {
    push_error("get_wrap_ctx", H5E_CANTALLOC, "out of memory");
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

[[gnu::noinline]] herr_t free_under_wrap_ctx(WrapCtx* w) {
  ErrorStackKeeper keep;
  herr_t r = 0;
  if (w->under_ctx && H5VLfree_wrap_ctx(w->under_ctx, w->under_id) < 0) r = -1;
  if (H5Idec_ref(w->under_id) < 0) r = -1;
  delete w;
  return r;
}

}  // namespace

void* get_object(const void* obj) {
  const Obj* o = as_obj(obj);
  return H5VLget_object(o->under, o->under_id);
}

herr_t get_wrap_ctx(const void* obj, void** ctx) {
  const Obj* o = as_obj(obj);
  if (o->native_under) {
    *ctx = const_cast<WrapCtx*>(o->mpio ? &kNativeMpioCtx : &kNativeCtx);
    return 0;
  }
  return get_under_wrap_ctx(o, ctx);
}

void* wrap_object(void* obj, H5I_type_t type, void* ctx) {
  auto* w = static_cast<WrapCtx*>(ctx);
  const hid_t under_id = w->native_under ? native_id() : w->under_id;
  void* under = H5VLwrap_object(obj, type, under_id, w->under_ctx);
  if (!under) return nullptr;
  Obj* o = new_obj(under, under_id, w->native_under);
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
  return is_constant(w) ? 0 : free_under_wrap_ctx(w);
}

}  // namespace provio::vol
