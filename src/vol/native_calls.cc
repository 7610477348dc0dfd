// The native connector's class, for native_calls.h.
#include "vol/native_calls.h"

#include "vol/native_id.h"

namespace provio::vol {
namespace {

// Asked of the library on first use: while the connector initialises (when the library itself
// may still be initialising, HDF5_VOL_CONNECTOR being read at its start) the native connector's
// id is not yet valid.
const H5VL_class_t* look_up_native_class() {
  int any = 0;  // the native connector's introspection ignores the object, the API routine wants one
  const H5VL_class_t* c = nullptr;
  hid_t native = native_id();
  if (native < 0 || H5VLintrospect_get_conn_cls(&any, native, H5VL_GET_CONN_LVL_CURR, &c) < 0 || !c ||
      c->value != H5_VOL_NATIVE)
    return nullptr;
  return c;
}

}  // namespace

std::atomic<const H5VL_class_t*> g_native_class{nullptr};

// Looked up once (a failure too: then every call ends here, as when the lookup was a
// function-local static).
const H5VL_class_t* native_class_slow() {
  static const H5VL_class_t* const native = look_up_native_class();
  if (native) g_native_class.store(native, std::memory_order_relaxed);
  return native;
}

}  // namespace provio::vol
