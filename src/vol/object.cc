// Wrapper lifetime (see object.h).
#include "vol/object.h"

#include <atomic>
#include <cstddef>
#include <new>
#include <type_traits>

#include "model/log.h"
#include "vol/error_stack.h"

namespace provio::vol {
namespace {

// Wrappers released and kept for reuse. A program that opens and closes objects makes and frees
// a wrapper per object, and HDF5's own allocations leave the heap such that each `new` and
// `delete` of one cost ~200 and ~110 instructions (callgrind, metadata kernel at level off).
// Bounded. Guarded by a flag that is tried, never waited for: when another thread holds it (or
// a fork child inherited it held) the heap serves instead. Never destroyed (its destructor is
// trivial): HDF5 closes files, and so frees wrappers, in exit handlers that may run after this
// file's statics would be torn down; a plugin unloaded leaves at most kMax wrappers allocated.
class SpareObjs {
 public:
  Obj* take() {
    if (busy_.exchange(true, std::memory_order_acquire)) return nullptr;
    Obj* o = count_ ? spare_[--count_] : nullptr;
    busy_.store(false, std::memory_order_release);
    return o;
  }
  // False when `o` was not kept (full, or busy).
  bool keep(Obj* o) {
    if (busy_.exchange(true, std::memory_order_acquire)) return false;
    bool kept = count_ < kMax;
    if (kept) spare_[count_++] = o;
    busy_.store(false, std::memory_order_release);
    return kept;
  }

 private:
  static constexpr std::size_t kMax = 256;
  std::atomic<bool> busy_{false};
  Obj* spare_[kMax];
  std::size_t count_ = 0;
};
static_assert(std::is_trivially_destructible_v<SpareObjs>, "SpareObjs is never torn down");
SpareObjs g_spare;

}  // namespace

Obj* new_obj(void* under, hid_t under_id, bool native_under) {
  Obj* o = g_spare.take();
  if (o) {
    static_cast<ObjFacts&>(*o) = ObjFacts{};
    o->path.clear();  // a kept wrapper's path keeps its buffer
  } else {
    o = new (std::nothrow) Obj;
  }
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
  if (!g_spare.keep(o)) delete o;
}

}  // namespace provio::vol
