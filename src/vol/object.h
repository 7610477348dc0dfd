// The connector's wrapper around every object the connector below hands up (files, groups,
// datasets, attributes, named datatypes, async requests), what provio knows about it, and its
// lifetime. Hard rule: a wrapper owns one reference on its under connector id (none when that
// is the library's own native id) and nothing else of HDF5's; it is freed only after the under
// object was successfully released (or unwrapped).
#pragma once

#include <hdf5.h>

#include <cstddef>
#include <cstdint>
#include <string>
#include <tuple>
#include <type_traits>

#include "model/event.h"
#include "vol/native_id.h"

namespace provio::vol {

// What a wrapper knows besides its path: plain data, so that a kept wrapper is reset by one
// assignment of a few stores (new_obj), where assigning a whole new Obj also moved a string.
struct ObjFacts {
  void* under = nullptr;                      // the under connector's object
  hid_t under_id = H5I_INVALID_HID;           // the under connector (referenced unless native)
  H5I_type_t type = H5I_BADID;                // what the object is, when known
  model::EntityId file = model::kNoEntity;    // its file, once known
  model::EntityId entity = model::kNoEntity;  // the object itself (a file: the file)
  bool mpio = false;                          // its file was opened with the MPI-IO driver
  std::int64_t points = -1;                   // dataset / attribute extent in elements, -1 unknown
  // The connector below is HDF5's native one, whose id the library holds until it closes: the
  // wrapper then holds no reference of its own (two id lookups per object saved).
  bool native_under = false;
  // The predefined native memory type this dataset or attribute was last transferred with, and
  // its size (type_size): exact while the wrapper lives, as predefined types are immutable and an
  // id is not reused while the library stays open, which it does while the object is open.
  hid_t last_type = H5I_INVALID_HID;
  std::size_t last_type_size = 0;
};

static_assert(std::is_trivially_copyable_v<ObjFacts>, "ObjFacts is reset by assignment");

struct Obj : ObjFacts {
  std::string path;  // full path inside the file; empty when not (yet) known
};

inline Obj* as_obj(void* p) {
  return static_cast<Obj*>(p);
}
inline const Obj* as_obj(const void* p) {
  return static_cast<const Obj*>(p);
}

// A new wrapper holding a reference on `under_id` (none when `native_under`); nullptr (and a
// warning once) when out of memory.
Obj* new_obj(void* under, hid_t under_id, bool native_under = false);

// A wrapper for a child of `parent` (same file, same driver, same connector below).
Obj* new_child(void* under, hid_t under_id, const Obj* parent, H5I_type_t type);

// Releases the wrapper (kept for reuse by new_obj, or deleted) and its reference, keeping the
// caller's error stack.
void free_obj(Obj* o);

// The one place async requests are wrapped: the under connector's request becomes ours.
inline void wrap_request(void** req, hid_t under_id) {
  if (req && *req) *req = new_obj(*req, under_id);
}

// The request argument of a callback: its last argument when that is a void**, else none.
template <typename... A>
void** request_arg(A... a) {
  if constexpr (sizeof...(A) == 0) {
    return nullptr;
  } else {
    using Last = std::tuple_element_t<sizeof...(A) - 1, std::tuple<A...>>;
    if constexpr (std::is_same_v<Last, void**>) {
      return std::get<sizeof...(A) - 1>(std::forward_as_tuple(a...));
    } else {
      return nullptr;
    }
  }
}

}  // namespace provio::vol
