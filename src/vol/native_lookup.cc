// HDF5's internal accessors for the connector's own lookups (see native_lookup.h).
#include "vol/native_lookup.h"

#include <atomic>
#include <cstdint>

// HDF5 1.14's declarations (H5Iprivate.h, H5Sprivate.h, H5Aprivate.h, H5Apkg.h, H5Tprivate.h,
// H5VLnative_private.h, H5CXprivate.h), with the library's structs as void. Weak: an HDF5 that
// does not export them leaves them null.
extern "C" {
void* H5I_object_verify(hid_t id, H5I_type_t type) __attribute__((weak));
hsize_t H5S_get_select_npoints(const void* space) __attribute__((weak));
hssize_t H5S_get_simple_extent_npoints(const void* space) __attribute__((weak));
herr_t H5A__get_info(const void* attr, H5A_info_t* ainfo) __attribute__((weak));
void* H5A_type(const void* attr) __attribute__((weak));
size_t H5T_get_size(const void* dt) __attribute__((weak));
herr_t H5VL__native_file_get(void* obj, H5VL_file_get_args_t* args, hid_t dxpl_id, void** req)
    __attribute__((weak));
herr_t H5VL_native_get_file_struct(void* obj, H5I_type_t type, void** file) __attribute__((weak));
hbool_t H5CX_pushed(void) __attribute__((weak));
hid_t H5CX_get_dxpl(void) __attribute__((weak));
#ifdef H5_HAVE_PARALLEL
herr_t H5CX_get_io_xfer_mode(H5FD_mpio_xfer_t* io_xfer_mode) __attribute__((weak));
#endif
}

namespace provio::vol {
namespace {

// HDF5 1.14's record of an ID and of an ID type (H5Ipkg.h: H5I_id_info_t, H5I_type_info_t), up
// to the fields read here.
struct IdRecord {
  hid_t id;
  unsigned count;
  unsigned app_count;
  const void* object;
  bool is_future;
};
struct IdTypeRecord {
  const void* cls;
  unsigned init_count;
  std::uint64_t id_count;
  std::uint64_t nextid;
  const IdRecord* last_id_info;  // the ID the library looked up last, or null
};

}  // namespace
}  // namespace provio::vol

extern "C" provio::vol::IdTypeRecord* H5I_type_info_array_g[] __attribute__((weak));

namespace provio::vol {
namespace {

// Set at connector initialisation, before any callback; atomic for the threads that read it.
std::atomic<bool> g_usable{false};

bool usable() {
  return g_usable.load(std::memory_order_relaxed);
}

// How space_object() finds a dataspace: through H5I_object_verify alone, or first in the
// library's own memory of the last dataspace ID it looked up (H5I__find_id keeps one per ID
// type, and clears it when that ID goes). A transfer's callback asks for the memory space the
// native connector has just looked up last, so the answer is there: two loads and a compare,
// where H5I_object_verify is ~46 instructions (issue 11, tenth VOL pass). The records' layout is
// 1.14's; it is checked once, against H5I_object_verify's own answer, before it is trusted.
enum SpaceLookup : std::uint8_t { kVerify, kUnchecked, kLastId };
std::atomic<std::uint8_t> g_space_lookup{kVerify};

const IdRecord* last_space_id() {
  const IdTypeRecord* type = H5I_type_info_array_g[H5I_DATASPACE];
  return type ? type->last_id_info : nullptr;
}

// After H5I_object_verify found `space` as `object`, the library's last dataspace ID is `space`:
// the layout is 1.14's if the record read there says so.
[[gnu::noinline]] void check_last_id(hid_t space, const void* object) {
  const IdRecord* last = last_space_id();
  bool same = last && last->id == space && last->object == object && !last->is_future;
  g_space_lookup.store(same ? kLastId : kVerify, std::memory_order_relaxed);
}

// The dataspace of `space` through H5I_object_verify (checking the layout the first time).
[[gnu::noinline]] const void* verify_space(hid_t space) {
  const void* object = H5I_object_verify(space, H5I_DATASPACE);
  if (object && g_space_lookup.load(std::memory_order_relaxed) == kUnchecked) check_last_id(space, object);
  return object;
}

// The dataspace of `space` if it is the library's last one (kLastId only), else null. Inline:
// a caller's common case then needs no frame, and implies usable().
[[gnu::always_inline]] inline const void* last_space(hid_t space) {
  if (g_space_lookup.load(std::memory_order_relaxed) != kLastId) return nullptr;
  const IdRecord* last = last_space_id();
  return last && last->id == space && !last->is_future ? last->object : nullptr;
}

const void* space_object(hid_t space) {
  const void* object = last_space(space);
  return object ? object : verify_space(space);
}

// The types whose file the native connector finds: any other fails inside, after pushing an
// error the caller would see (the public call, under its keeper, answers for those).
bool in_a_file(H5I_type_t type) {
  switch (type) {
    case H5I_FILE:
    case H5I_GROUP:
    case H5I_DATATYPE:
    case H5I_DATASET:
    case H5I_ATTR: return true;
    default: return false;
  }
}

// The native file (H5F_t) `obj` is in, nullptr when it cannot be told without an error.
void* native_file(void* obj, H5I_type_t type) {
  void* file = nullptr;
  if (!in_a_file(type) || H5VL_native_get_file_struct(obj, type, &file) < 0) return nullptr;
  return file;
}

// The MPI-IO accessor exists only in a parallel HDF5.
bool mpio_lookups_present() {
#ifdef H5_HAVE_PARALLEL
  return H5CX_get_io_xfer_mode != nullptr;
#else
  return true;
#endif
}

}  // namespace

void init_native_lookups() {
  unsigned major = 0, minor = 0, release = 0;
  g_usable.store(H5get_libversion(&major, &minor, &release) >= 0 && major == 1 && minor == 14 &&
                     H5I_object_verify && H5S_get_select_npoints && H5S_get_simple_extent_npoints &&
                     H5A__get_info && H5A_type && H5T_get_size && H5VL__native_file_get && H5CX_pushed &&
                     H5CX_get_dxpl && mpio_lookups_present(),
                 std::memory_order_relaxed);
  g_space_lookup.store(usable() && H5I_type_info_array_g ? kUnchecked : kVerify, std::memory_order_relaxed);
}

std::int64_t selected_points(hid_t space) {
  const void* s = last_space(space);
  if (!s) {
    if (!usable()) {
      hssize_t n = H5Sget_select_npoints(space);
      return n < 0 ? -1 : static_cast<std::int64_t>(n);
    }
    s = verify_space(space);
  }
  return s ? static_cast<std::int64_t>(H5S_get_select_npoints(s)) : -1;
}

std::int64_t extent_points(hid_t space) {
  hssize_t n = -1;
  if (usable()) {
    const void* s = space_object(space);
    if (s) n = H5S_get_simple_extent_npoints(s);
  } else {
    n = H5Sget_simple_extent_npoints(space);
  }
  return n < 0 ? -1 : static_cast<std::int64_t>(n);
}

// An attribute's data size is its extent's points times its file type's size (H5A__create, and
// H5O_attr_decode for one read from a file): the points without copying the dataspace.
std::int64_t native_attribute_points(void* attr) {
  if (!usable()) return -1;
  H5A_info_t info{};
  const void* type = H5A_type(attr);
  if (H5A__get_info(attr, &info) < 0 || !type) return -1;
  std::size_t size = H5T_get_size(type);
  return size == 0 ? -1 : static_cast<std::int64_t>(info.data_size / size);
}

bool native_file_name(void* obj, H5VL_file_get_args_t* args) {
  return usable() && in_a_file(args->args.get_name.type) &&
         H5VL__native_file_get(obj, args, H5P_DATASET_XFER_DEFAULT, nullptr) >= 0;
}

bool native_same_file(void* a, H5I_type_t a_type, void* b, H5I_type_t b_type) {
  if (!usable() || !H5VL_native_get_file_struct) return false;
  void* file = native_file(a, a_type);
  return file && file == native_file(b, b_type);
}

// Why: H5Pget_dxpl_mpio enters the API (a context pushed, the ID looked up, the property found
// by its name's hash in the list and its class) for ~1,300 instructions, as much as a small
// MPI-IO transfer's whole recording and 2-5 % of its time (h5bench passes its own transfer list
// to every H5Dwrite). The context of the application's H5Dwrite or H5Dread carries the list
// (H5CX_set_dxpl) and, once the native connector's MPI-IO path has read the mode, the mode: a
// load. A context is there whenever the callback runs under an API call; H5VLdataset_write
// called by an application outside any API call pushes none, hence the check.
#ifdef H5_HAVE_PARALLEL
bool context_transfer_mode(hid_t dxpl, H5FD_mpio_xfer_t* mode) {
  return usable() && H5CX_pushed() && H5CX_get_dxpl() == dxpl && H5CX_get_io_xfer_mode(mode) >= 0;
}
#endif

}  // namespace provio::vol
