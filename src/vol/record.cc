// From a forwarded call to an event (see record.h).
#include "vol/record.h"

#ifdef H5_HAVE_PARALLEL
#include <mpi.h>
#endif

#include <atomic>
#include <cstring>

#include "model/identity.h"
#include "vol/error_stack.h"
#include "vol/naming.h"
#include "vol/native_lookup.h"

namespace provio::vol {

using model::EntityId;
using model::kNoEntity;

void record_child(Obj* parent, Obj* o, const H5VL_loc_params_t* loc, const char* name, model::Op op,
                  model::ApiId api, const Timing& t) {
  // An object created under a plain name (no '/') in its parent is in its parent's file: no need
  // to ask. Any other name may lead through an external link (or a mount point) into another
  // file: then the file is the one the under connector names, and the path is asked from it
  // lazily. Over the native connector, an object in the same open file (H5F_t) as its parent is
  // in the parent's file, which is told without a name.
  bool in_parent = (op == model::Op::kCreate && name && !std::strchr(name, '/') && loc &&
                    loc->type == H5VL_OBJECT_BY_SELF) ||
                   (o->native_under && parent->native_under &&
                    native_same_file(o->under, o->type, parent->under, parent->type));
  EntityId parent_file = file_of(parent);
  EntityId f = in_parent ? parent_file : file_named_below(o, parent);
  if (f != kNoEntity && f != parent_file) {
    o->file = f;
    o->path.clear();
  } else {
    o->file = parent_file;
    o->path = target_path(parent, loc, name);
  }
  if (!tracks(class_of(o->type))) return;
  emit(op, api, entity_of(o), t);
}

// A serial HDF5's plugin links no MPI (a serial program must not load libmpi): the launcher's
// environment is all there is.
void refine_rank() {
#ifdef H5_HAVE_PARALLEL
  static std::atomic<bool> done{false};
  if (done.load(std::memory_order_relaxed)) return;
  int initialized = 0, finalized = 0;
  MPI_Initialized(&initialized);
  MPI_Finalized(&finalized);
  if (!initialized || finalized) return;
  int rank = 0, size = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  // Read the identity first (free once read): an earlier core's set_mpi_rank() deadlocked when
  // it was the first reader.
  model::identity();
  model::set_mpi_rank(rank, size);
  done.store(true, std::memory_order_relaxed);
#endif
}

std::uint8_t mpio_transfer_flags(hid_t dxpl) {
#ifdef H5_HAVE_PARALLEL
  H5FD_mpio_xfer_t mode = H5FD_MPIO_INDEPENDENT;
  if (!context_transfer_mode(dxpl, &mode) && H5Pget_dxpl_mpio(dxpl, &mode) < 0) return model::kFlagNone;
  return mode == H5FD_MPIO_COLLECTIVE ? model::kFlagCollective : model::kFlagIndependent;
#else
  (void)dxpl;  // no MPI-IO driver in a serial HDF5: never called (no file is opened with it)
  return model::kFlagNone;
#endif
}

// HDF5's predefined native types are immutable, so their sizes are the C types' and need no
// H5Tget_size (an API call and an id lookup on every transfer). Their ids are read each time:
// they change if the library is closed and opened again.
std::size_t type_size(hid_t type, Obj* o) {
  struct Native {
    const hid_t* id;
    std::size_t size;
  };
  static const Native natives[] = {
      {&H5T_NATIVE_INT_g, sizeof(int)},
      {&H5T_NATIVE_DOUBLE_g, sizeof(double)},
      {&H5T_NATIVE_FLOAT_g, sizeof(float)},
      {&H5T_NATIVE_LLONG_g, sizeof(long long)},
      {&H5T_NATIVE_LONG_g, sizeof(long)},
      {&H5T_NATIVE_UINT_g, sizeof(unsigned)},
      {&H5T_NATIVE_ULLONG_g, sizeof(unsigned long long)},
      {&H5T_NATIVE_ULONG_g, sizeof(unsigned long)},
      {&H5T_NATIVE_SHORT_g, sizeof(short)},
      {&H5T_NATIVE_USHORT_g, sizeof(unsigned short)},
      {&H5T_NATIVE_SCHAR_g, sizeof(signed char)},
      {&H5T_NATIVE_UCHAR_g, sizeof(unsigned char)},
  };
  if (type > 0) {
    for (const Native& n : natives) {
      if (*n.id != type) continue;
      o->last_type = type;
      o->last_type_size = n.size;
      return n.size;
    }
  }
  return H5Tget_size(type);
}

std::int64_t points_of(Obj* o) {
  if (o->points >= 0) return o->points;
  if (o->native_under && o->type == H5I_ATTR) {
    o->points = native_attribute_points(o->under);
    if (o->points >= 0) return o->points;
  }
  QuietLookup quiet(!o->native_under);
  hid_t space = H5I_INVALID_HID;
  if (o->type == H5I_DATASET) {
    H5VL_dataset_get_args_t args{};
    args.op_type = H5VL_DATASET_GET_SPACE;
    args.args.get_space.space_id = H5I_INVALID_HID;
    if (H5VLdataset_get(o->under, o->under_id, &args, H5P_DATASET_XFER_DEFAULT, nullptr) >= 0) {
      space = args.args.get_space.space_id;
    }
  } else if (o->type == H5I_ATTR) {
    H5VL_attr_get_args_t args{};
    args.op_type = H5VL_ATTR_GET_SPACE;
    args.args.get_space.space_id = H5I_INVALID_HID;
    if (H5VLattr_get(o->under, o->under_id, &args, H5P_DATASET_XFER_DEFAULT, nullptr) >= 0) {
      space = args.args.get_space.space_id;
    }
  }
  if (space < 0) return -1;
  o->points = extent_points(space);
  H5Sclose(space);
  return o->points;
}

}  // namespace provio::vol
