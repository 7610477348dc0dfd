// The hooks that turn a routine forward (forward.h) into provenance: one per slot that records,
// named after the slot, called after the under call succeeded and only when tracing is on.
// Hard rule: a hook records what the call did to which entity, and nothing when the entity
// cannot be named or its class is not tracked.
#pragma once

#include <hdf5.h>

#include <cstdint>
#include <tuple>

#include "model/event.h"
#include "vol/apis.h"
#include "vol/naming.h"
#include "vol/native_lookup.h"
#include "vol/object.h"
#include "vol/record.h"

namespace provio::vol {

// Close shape: records the close of the entity named before the under close.
template <model::Op op, model::ApiId Apis::*api>
void on_close(Obj* o, const Timing& t) {
  model::EntityClass c = o->type == H5I_ATTR ? model::EntityClass::kAttribute : class_of(o->type);
  if (tracks(c)) emit(op, apis().*api, o->entity, t);
}

void on_file_close(Obj* o, const Timing& t);

// Names the new attribute wrapper `o`, created or opened as (loc, name) from `p`.
void name_attribute(Obj* p, Obj* o, const H5VL_loc_params_t* loc, const char* name);

// The extent of a new dataset or attribute, from the dataspace among the create arguments.
template <int SpaceArg, typename... A>
void remember_extent(Obj* o, A... a) {
  if constexpr (SpaceArg >= 0) o->points = extent_points(std::get<SpaceArg>(std::forward_as_tuple(a...)));
}

// Open-shape hooks. A new group, dataset or named datatype: named from its parent and the call's
// name, recorded as created or opened. SpaceArg: index of the dataspace among the arguments
// after the name, or -1.
template <model::Op op, model::ApiId Apis::*named, model::ApiId Apis::*anonymous, int SpaceArg = -1>
struct Child {
  template <typename... A>
  static void record(Obj* p, Obj* o, const Timing& t, const H5VL_loc_params_t* loc, const char* name,
                     A... a) {
    remember_extent<SpaceArg>(o, a...);
    record_child(p, o, loc, name, op, name ? apis().*named : apis().*anonymous, t);
  }
};

// A new attribute: hangs off its owner.
template <model::Op op, model::ApiId Apis::*api, int SpaceArg = -1>
struct Attribute {
  template <typename... A>
  static void record(Obj* p, Obj* o, const Timing& t, const H5VL_loc_params_t* loc, const char* name,
                     A... a) {
    remember_extent<SpaceArg>(o, a...);
    if (!tracks(model::EntityClass::kAttribute)) return;
    name_attribute(p, o, loc, name);
    emit(op, apis().*api, o->entity, t);
  }
};

template <model::Op op, model::ApiId Apis::*api, typename Buf>
void on_attr_io(Obj* o, const Timing& t, hid_t mem_type, Buf, hid_t, void**) {
  if (!tracks(model::EntityClass::kAttribute) || o->entity == model::kNoEntity) return;
  std::int64_t n = points_of(o);
  std::size_t size = transfer_type_size(o, mem_type);
  std::uint64_t bytes = n > 0 ? static_cast<std::uint64_t>(n) * size : 0;
  emit(op, apis().*api, o->entity, t, bytes);
}

void on_attr_specific(Obj* p, const Timing& t, const H5VL_loc_params_t* loc, H5VL_attr_specific_args_t* args,
                      hid_t, void**);
void on_dataset_specific(Obj* o, const Timing& t, H5VL_dataset_specific_args_t* args, hid_t, void**);
void on_group_specific(Obj* o, const Timing& t, H5VL_group_specific_args_t* args, hid_t, void**);
void on_datatype_specific(Obj* o, const Timing& t, H5VL_datatype_specific_args_t* args, hid_t, void**);
void on_object_specific(Obj* o, const Timing& t, const H5VL_loc_params_t* loc,
                        H5VL_object_specific_args_t* args, hid_t, void**);
void on_link_specific(Obj* o, const Timing& t, const H5VL_loc_params_t* loc, H5VL_link_specific_args_t* args,
                      hid_t, void**);

}  // namespace provio::vol
