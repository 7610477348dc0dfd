// The hooks of the routine slots (see hooks.h).
#include "vol/hooks.h"

namespace provio::vol {

using model::EntityClass;
using model::EntityId;
using model::kNoEntity;
using model::Op;

namespace {

// An attribute's owner: the object at (parent, loc); a file's attributes hang off its root group.
EntityId attribute_owner(Obj* p, const H5VL_loc_params_t* loc) {
  if (loc && loc->type == H5VL_OBJECT_BY_SELF) {
    if (p->type == H5I_FILE) {
      EntityId f = file_of(p);
      return f == kNoEntity ? kNoEntity : model::object_entity(f, "/", EntityClass::kGroup);
    }
    return entity_of(p);
  }
  return located(p, loc, EntityClass::kObject);
}

}  // namespace

// A file opened for writing leaves a version at its close: the one its path names once the
// under connector closed it (the same name the preload library gives it at the close of the
// descriptor below, so both layers meet on one version).
void on_file_close(Obj* o, const Timing& t) {
  if (!tracks(EntityClass::kFile)) return;
  emit(Op::kClose, apis().Fclose, o->file, t, 0, model::kFlagNone,
       o->writable ? model::current_version(o->file) : kNoEntity);
}

void name_attribute(Obj* p, Obj* o, const H5VL_loc_params_t* loc, const char* name) {
  if (!name) return;
  EntityId owner = attribute_owner(p, loc);
  if (owner != kNoEntity) o->entity = model::attribute_entity(owner, name);
}

void on_attr_specific(Obj* p, const Timing& t, const H5VL_loc_params_t* loc, H5VL_attr_specific_args_t* args,
                      hid_t, void**) {
  if (!tracks(EntityClass::kAttribute)) return;
  if (args->op_type == H5VL_ATTR_DELETE && args->args.del.name) {
    EntityId owner = attribute_owner(p, loc);
    if (owner != kNoEntity)
      emit(Op::kDelete, apis().Adelete, model::attribute_entity(owner, args->args.del.name), t);
  } else if (args->op_type == H5VL_ATTR_RENAME && args->args.rename.old_name && args->args.rename.new_name) {
    EntityId owner = attribute_owner(p, loc);
    if (owner == kNoEntity) return;
    emit(Op::kRename, apis().Arename, model::attribute_entity(owner, args->args.rename.old_name), t, 0,
         model::kFlagNone, model::attribute_entity(owner, args->args.rename.new_name));
  }
}

void on_dataset_specific(Obj* o, const Timing& t, H5VL_dataset_specific_args_t* args, hid_t, void**) {
  if (args->op_type == H5VL_DATASET_SET_EXTENT) {
    o->points = -1;
    if (tracks(EntityClass::kDataset)) emit(Op::kModify, apis().Dset_extent, entity_of(o), t);
  } else if (args->op_type == H5VL_DATASET_FLUSH) {
    if (tracks(EntityClass::kDataset)) emit(Op::kFlush, apis().Dflush, entity_of(o), t);
  }
}

void on_group_specific(Obj* o, const Timing& t, H5VL_group_specific_args_t* args, hid_t, void**) {
  if (args->op_type == H5VL_GROUP_FLUSH && tracks(EntityClass::kGroup)) {
    emit(Op::kFlush, apis().Gflush, entity_of(o), t);
  }
}

void on_datatype_specific(Obj* o, const Timing& t, H5VL_datatype_specific_args_t* args, hid_t, void**) {
  if (args->op_type == H5VL_DATATYPE_FLUSH && tracks(EntityClass::kDatatype)) {
    emit(Op::kFlush, apis().Tflush, entity_of(o), t);
  }
}

void on_object_specific(Obj* o, const Timing& t, const H5VL_loc_params_t* loc,
                        H5VL_object_specific_args_t* args, hid_t, void**) {
  if (args->op_type != H5VL_OBJECT_FLUSH) return;
  H5I_type_t type = loc && loc->type == H5VL_OBJECT_BY_SELF ? o->type : H5I_BADID;
  EntityClass c = class_of(type);
  if (!tracks(c)) return;
  model::ApiId api = type == H5I_DATASET    ? apis().Dflush
                     : type == H5I_GROUP    ? apis().Gflush
                     : type == H5I_DATATYPE ? apis().Tflush
                                            : apis().Oflush;
  emit(Op::kFlush, api, located(o, loc, c), t);
}

void on_link_specific(Obj* o, const Timing& t, const H5VL_loc_params_t* loc, H5VL_link_specific_args_t* args,
                      hid_t, void**) {
  if (args->op_type == H5VL_LINK_DELETE && tracks(EntityClass::kLink)) {
    emit(Op::kDelete, apis().Ldelete, located(o, loc, EntityClass::kLink), t);
  }
}

}  // namespace provio::vol
