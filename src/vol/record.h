// Turning a forwarded HDF5 call into one provenance event for the core: its timing, the entity,
// the bytes a transfer moved, the MPI-IO mode, and the rank once MPI is up. Hard rule: nothing
// here runs unless tracing is on and the forward succeeded; HDF5 calls made to learn sizes keep
// the caller's error stack.
#pragma once

#include <hdf5.h>

#include <cstdint>

#include "model/config.h"
#include "model/entities.h"
#include "model/tick_clock.h"
#include "store/recorder.h"
#include "vol/native_lookup.h"
#include "vol/object.h"

namespace provio::vol {

// Start (wall clock) and duration (monotonic) of the underlying call only, and the recording
// state of the thread that made it (emit() records through it).
struct Timing : model::clock::Timing {
  store::ThreadState* state = nullptr;
};

// This thread's clock bases (model/tick_clock.h) and libprovio recording state, in one
// thread-local: a callback looks it up once (this_thread()). Not initial-exec: the plugin is
// loaded by dlopen, where initial-exec TLS may find no static TLS space left and fail the load;
// on x86-64 a lookup goes through a TLS descriptor instead (src/vol/CMakeLists.txt). Plain data:
// the plugin may be unloaded while threads live on.
struct VolThread {
  model::clock::ThreadClock clock;
  store::ThreadState* state;
};
inline thread_local VolThread tls_vol = {{0, 0, 0, 0, 0, 0}, nullptr};

inline VolThread& this_thread() {
  VolThread* t = &tls_vol;
  // Hides the address from the optimiser, which would otherwise call __tls_get_addr again for
  // the returned reference instead of keeping the first call's result.
  asm("" : "+r"(t));
  if (!t->state) t->state = store::thread_state();
  return *t;
}

inline bool tracks(model::EntityClass c) {
  return model::config().tracks(c);
}

// Records `op` on `e` (nothing when `e` could not be named).
inline void emit(model::Op op, model::ApiId api, model::EntityId e, const Timing& t, std::uint64_t bytes = 0,
                 std::uint8_t flags = model::kFlagNone, model::EntityId other = model::kNoEntity) {
  if (e == model::kNoEntity) return;
  store::record_as_owner(t.state,
                         {op, flags, api, e, other, bytes, model::kNoOffset, t.start_ns, t.elapsed_ns});
}

// Names the new child wrapper `o` of `parent` (created or opened as (loc, name)) and records it.
void record_child(Obj* parent, Obj* o, const H5VL_loc_params_t* loc, const char* name, model::Op op,
                  model::ApiId api, const Timing& t);

// MPI rank from MPI itself once it is up (the launcher environment is the fallback).
void refine_rank();

// Collective or independent, for a transfer on a file opened with the MPI-IO driver (the
// transfer property list `dxpl` says which); none on any other file.
std::uint8_t mpio_transfer_flags(hid_t dxpl);
inline std::uint8_t transfer_flags(const Obj* o, hid_t dxpl) {
  if (!o->mpio) return model::kFlagNone;
  return mpio_transfer_flags(dxpl);
}

// Elements in the dataset's (or attribute's) whole extent, cached on the wrapper.
std::int64_t points_of(Obj* o);

// The size of memory type `type` in bytes (0 when HDF5 cannot say); a predefined native type's
// size is remembered on `o` (Obj::last_type), which answers its next transfer of that type.
std::size_t type_size(hid_t type, Obj* o);
inline std::size_t transfer_type_size(Obj* o, hid_t type) {
  return type == o->last_type ? o->last_type_size : type_size(type, o);
}

// Whether a transfer's dataspace argument is a dataspace of its own (not H5S_ALL and the like).
inline bool real_space(hid_t s) {
  return s != H5S_ALL && s != H5S_BLOCK && s != H5S_PLIST && s > 0;
}

// Bytes one dataset transfer moves: selected elements × memory type size. Inline in the
// transfer callbacks: every H5Dwrite and H5Dread asks, and as a function it was a frame of its own.
inline std::uint64_t transfer_bytes(Obj* o, hid_t mem_type, hid_t mem_space, hid_t file_space) {
  std::int64_t n = real_space(mem_space)    ? selected_points(mem_space)
                   : real_space(file_space) ? selected_points(file_space)
                                            : points_of(o);
  std::size_t size = transfer_type_size(o, mem_type);
  if (n <= 0 || size == 0) return 0;
  return static_cast<std::uint64_t>(n) * size;
}

}  // namespace provio::vol
