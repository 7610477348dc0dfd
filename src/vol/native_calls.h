// Forwarded calls to HDF5's native connector made through its class (H5VL_class_t, public in
// H5VLconnector.h) instead of through the H5VL<op>() routine that wraps it.
// Why: H5VL<op>() is an API routine. Called from inside a callback (the application's HDF5 call
// has already entered the library, pushed its context and taken the lock), it enters again,
// verifies the connector id and, on a failure, adds one more record to the error stack: about 100
// instructions per forwarded call, a third of what level off costs over native. Calling the
// native class's member is what HDF5 itself does below H5VL<op>() (H5VL__<op>() in
// H5VLcallback.c), and what a native-only program runs.
// Hard rule: only for an object whose under connector is the native one (Obj::native_under), and
// only for the routines mapped below; anything else calls H5VL<op>() as before.
#pragma once

#include <hdf5.h>

#include <atomic>

namespace provio::vol {

// The native connector's class once found (native_class_slow() sets it), else null.
extern std::atomic<const H5VL_class_t*> g_native_class;
const H5VL_class_t* native_class_slow();

// The native connector's class (looked up on first use); null when it could not be. Inline, one
// relaxed load: every forwarded call to a native object asks, and a function-local static in a
// function of its own was a call and a guard check each time (7-11 instructions). Relaxed is
// enough: the class is the library's static constant data, not published by us.
inline const H5VL_class_t* native_class() {
  const H5VL_class_t* c = g_native_class.load(std::memory_order_relaxed);
  return c ? c : native_class_slow();
}

// The member of H5VL_class_t behind the API routine F (for the routines a callback forwards).
template <auto F>
struct NativeMember {
  static constexpr bool kMapped = false;
};

#define PROVIO_NATIVE_MEMBER(routine, member)                   \
  template <>                                                   \
  struct NativeMember<&routine> {                               \
    static constexpr bool kMapped = true;                       \
    static auto get(const H5VL_class_t& c) { return c.member; } \
  };
PROVIO_NATIVE_MEMBER(H5VLattr_create, attr_cls.create)
PROVIO_NATIVE_MEMBER(H5VLattr_open, attr_cls.open)
PROVIO_NATIVE_MEMBER(H5VLattr_read, attr_cls.read)
PROVIO_NATIVE_MEMBER(H5VLattr_write, attr_cls.write)
PROVIO_NATIVE_MEMBER(H5VLattr_get, attr_cls.get)
PROVIO_NATIVE_MEMBER(H5VLattr_specific, attr_cls.specific)
PROVIO_NATIVE_MEMBER(H5VLattr_optional, attr_cls.optional)
PROVIO_NATIVE_MEMBER(H5VLattr_close, attr_cls.close)
PROVIO_NATIVE_MEMBER(H5VLdataset_create, dataset_cls.create)
PROVIO_NATIVE_MEMBER(H5VLdataset_open, dataset_cls.open)
PROVIO_NATIVE_MEMBER(H5VLdataset_read, dataset_cls.read)
PROVIO_NATIVE_MEMBER(H5VLdataset_write, dataset_cls.write)
PROVIO_NATIVE_MEMBER(H5VLdataset_get, dataset_cls.get)
PROVIO_NATIVE_MEMBER(H5VLdataset_specific, dataset_cls.specific)
PROVIO_NATIVE_MEMBER(H5VLdataset_optional, dataset_cls.optional)
PROVIO_NATIVE_MEMBER(H5VLdataset_close, dataset_cls.close)
PROVIO_NATIVE_MEMBER(H5VLdatatype_commit, datatype_cls.commit)
PROVIO_NATIVE_MEMBER(H5VLdatatype_open, datatype_cls.open)
PROVIO_NATIVE_MEMBER(H5VLdatatype_get, datatype_cls.get)
PROVIO_NATIVE_MEMBER(H5VLdatatype_specific, datatype_cls.specific)
PROVIO_NATIVE_MEMBER(H5VLdatatype_optional, datatype_cls.optional)
PROVIO_NATIVE_MEMBER(H5VLdatatype_close, datatype_cls.close)
PROVIO_NATIVE_MEMBER(H5VLfile_get, file_cls.get)
PROVIO_NATIVE_MEMBER(H5VLfile_optional, file_cls.optional)
PROVIO_NATIVE_MEMBER(H5VLfile_close, file_cls.close)
PROVIO_NATIVE_MEMBER(H5VLgroup_create, group_cls.create)
PROVIO_NATIVE_MEMBER(H5VLgroup_open, group_cls.open)
PROVIO_NATIVE_MEMBER(H5VLgroup_get, group_cls.get)
PROVIO_NATIVE_MEMBER(H5VLgroup_specific, group_cls.specific)
PROVIO_NATIVE_MEMBER(H5VLgroup_optional, group_cls.optional)
PROVIO_NATIVE_MEMBER(H5VLgroup_close, group_cls.close)
PROVIO_NATIVE_MEMBER(H5VLlink_copy, link_cls.copy)
PROVIO_NATIVE_MEMBER(H5VLlink_move, link_cls.move)
PROVIO_NATIVE_MEMBER(H5VLlink_get, link_cls.get)
PROVIO_NATIVE_MEMBER(H5VLlink_specific, link_cls.specific)
PROVIO_NATIVE_MEMBER(H5VLlink_optional, link_cls.optional)
PROVIO_NATIVE_MEMBER(H5VLobject_get, object_cls.get)
PROVIO_NATIVE_MEMBER(H5VLobject_specific, object_cls.specific)
PROVIO_NATIVE_MEMBER(H5VLobject_optional, object_cls.optional)
#undef PROVIO_NATIVE_MEMBER

// The native member behind F for `o`'s under connector, or null: then call F itself.
template <auto F>
auto native_member(bool native_under) -> decltype(NativeMember<F>::get(*native_class())) {
  const H5VL_class_t* c = native_under ? native_class() : nullptr;
  return c ? NativeMember<F>::get(*c) : nullptr;
}

}  // namespace provio::vol
