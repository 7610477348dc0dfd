// The provio passthrough VOL connector's class: one line per slot, filled by field name
// (STYLE.md §1). Every callback forwards to the connector below (native by default) and, after a
// successful forward, hands one event to the core.
//
// Hard rule: the application cannot tell we are here. Every callback returns the under
// connector's result unchanged; whatever we do after a failed forward keeps the caller's HDF5
// error stack as the under connector left it; only the underlying call is timed; nothing is
// ever written into the user's file.
//
// Where the parts live: forward.h (the forwarding shapes: Fwd, Open, Close), hooks.h (what a
// routine slot records), callbacks.h (the hand-written callbacks whose meaning differs),
// naming.h (file, path and entity of an object), record.h (from a call to an event),
// object.h (the wrapper), info_class.h and wrap_class.h (HDF5's info and wrap classes).
#include "vol/connector.h"

#include <cstring>

#include "store/exit_hook.h"
#include "store/recorder.h"
#include "vol/apis.h"
#include "vol/callbacks.h"
#include "vol/forward.h"
#include "vol/hooks.h"
#include "vol/info_class.h"
#include "vol/native_lookup.h"
#include "vol/wrap_class.h"

namespace provio::vol {

using model::Op;

namespace {

const H5VL_class_t& the_class();

herr_t get_conn_cls(void* obj, H5VL_get_conn_lvl_t lvl, const H5VL_class_t** cls) {
  if (lvl == H5VL_GET_CONN_LVL_CURR) {
    *cls = &the_class();
    return 0;
  }
  Obj* o = as_obj(obj);
  return H5VLintrospect_get_conn_cls(o->under, o->under_id, lvl, cls);
}

// The capabilities are the connector's below: we add none and hide none.
herr_t get_cap_flags(const void* p, uint64_t* flags) {
  const auto* info = static_cast<const Info*>(p);
  if (!info) return H5VLintrospect_get_cap_flags(nullptr, native_id(), flags);  // native below
  return H5VLintrospect_get_cap_flags(info->under_info, info->under_id, flags);
}

herr_t initialize(hid_t) {
  model::clock::start_tick_clock();  // once per process, shared with the preload shim
  init_native_lookups();
  if (store::enabled()) store::hook_exit();  // flush at _exit without the preload library
  return 0;
}
herr_t terminate() {
  return 0;
}

H5VL_class_t make_class() {
  H5VL_class_t c;
  std::memset(&c, 0, sizeof c);
  c.version = H5VL_VERSION;
  c.value = kConnectorValue;
  c.name = kConnectorName;
  c.conn_version = kConnectorVersion;
  c.cap_flags = H5VL_CAP_FLAG_NONE;
  c.initialize = initialize;
  c.terminate = terminate;

  c.info_cls.size = sizeof(Info);
  c.info_cls.copy = info_copy;
  c.info_cls.cmp = info_cmp;
  c.info_cls.free = info_free;
  c.info_cls.to_str = info_to_str;
  c.info_cls.from_str = str_to_info;

  c.wrap_cls.get_object = get_object;
  c.wrap_cls.get_wrap_ctx = get_wrap_ctx;
  c.wrap_cls.wrap_object = wrap_object;
  c.wrap_cls.unwrap_object = unwrap_object;
  c.wrap_cls.free_wrap_ctx = free_wrap_ctx;

  c.attr_cls.create = Open<&H5VLattr_create, H5I_ATTR, Attribute<Op::kCreate, &Apis::Acreate, 1>>::call;
  c.attr_cls.open = Open<&H5VLattr_open, H5I_ATTR, Attribute<Op::kOpen, &Apis::Aopen>>::call;
  c.attr_cls.read = Fwd<&H5VLattr_read, &on_attr_io<Op::kRead, &Apis::Aread, void*>>::call;
  c.attr_cls.write = Fwd<&H5VLattr_write, &on_attr_io<Op::kWrite, &Apis::Awrite, const void*>>::call;
  c.attr_cls.get = Fwd<&H5VLattr_get>::call;
  c.attr_cls.specific = Fwd<&H5VLattr_specific, &on_attr_specific>::call;
  c.attr_cls.optional = Fwd<&H5VLattr_optional>::call;
  c.attr_cls.close = Close<&H5VLattr_close, &on_close<Op::kClose, &Apis::Aclose>>::call;

  c.dataset_cls.create = Open<&H5VLdataset_create, H5I_DATASET,
                              Child<Op::kCreate, &Apis::Dcreate, &Apis::Dcreate_anon, 2>>::call;
  c.dataset_cls.open =
      Open<&H5VLdataset_open, H5I_DATASET, Child<Op::kOpen, &Apis::Dopen, &Apis::Dopen>>::call;
  c.dataset_cls.read = dataset_read;
  c.dataset_cls.write = dataset_write;
  c.dataset_cls.get = Fwd<&H5VLdataset_get>::call;
  c.dataset_cls.specific = Fwd<&H5VLdataset_specific, &on_dataset_specific>::call;
  c.dataset_cls.optional = Fwd<&H5VLdataset_optional>::call;
  c.dataset_cls.close = Close<&H5VLdataset_close, &on_close<Op::kClose, &Apis::Dclose>>::call;

  c.datatype_cls.commit =
      Open<&H5VLdatatype_commit, H5I_DATATYPE, Child<Op::kCreate, &Apis::Tcommit, &Apis::Tcommit_anon>>::call;
  c.datatype_cls.open =
      Open<&H5VLdatatype_open, H5I_DATATYPE, Child<Op::kOpen, &Apis::Topen, &Apis::Topen>>::call;
  c.datatype_cls.get = Fwd<&H5VLdatatype_get>::call;
  c.datatype_cls.specific = Fwd<&H5VLdatatype_specific, &on_datatype_specific>::call;
  c.datatype_cls.optional = Fwd<&H5VLdatatype_optional>::call;
  c.datatype_cls.close = Close<&H5VLdatatype_close, &on_close<Op::kClose, &Apis::Tclose>>::call;

  c.file_cls.create = file_create;
  c.file_cls.open = file_open;
  c.file_cls.get = Fwd<&H5VLfile_get>::call;
  c.file_cls.specific = file_specific;
  c.file_cls.optional = Fwd<&H5VLfile_optional>::call;
  c.file_cls.close = Close<&H5VLfile_close, &on_file_close>::call;

  c.group_cls.create =
      Open<&H5VLgroup_create, H5I_GROUP, Child<Op::kCreate, &Apis::Gcreate, &Apis::Gcreate_anon>>::call;
  c.group_cls.open = Open<&H5VLgroup_open, H5I_GROUP, Child<Op::kOpen, &Apis::Gopen, &Apis::Gopen>>::call;
  c.group_cls.get = Fwd<&H5VLgroup_get>::call;
  c.group_cls.specific = group_specific;
  c.group_cls.optional = Fwd<&H5VLgroup_optional>::call;
  c.group_cls.close = Close<&H5VLgroup_close, &on_close<Op::kClose, &Apis::Gclose>>::call;

  c.link_cls.create = link_create;
  c.link_cls.copy = link_copy;
  c.link_cls.move = link_move;
  c.link_cls.get = Fwd<&H5VLlink_get>::call;
  c.link_cls.specific = Fwd<&H5VLlink_specific, &on_link_specific>::call;
  c.link_cls.optional = Fwd<&H5VLlink_optional>::call;

  c.object_cls.open = object_open;
  c.object_cls.copy = object_copy;
  c.object_cls.get = Fwd<&H5VLobject_get>::call;
  c.object_cls.specific = Fwd<&H5VLobject_specific, &on_object_specific>::call;
  c.object_cls.optional = Fwd<&H5VLobject_optional>::call;

  c.introspect_cls.get_conn_cls = get_conn_cls;
  c.introspect_cls.get_cap_flags = get_cap_flags;
  c.introspect_cls.opt_query = Fwd<&H5VLintrospect_opt_query>::call;

  c.request_cls.wait = Fwd<&H5VLrequest_wait>::call;
  c.request_cls.notify = Fwd<&H5VLrequest_notify>::call;
  c.request_cls.cancel = Fwd<&H5VLrequest_cancel>::call;
  c.request_cls.specific = Fwd<&H5VLrequest_specific>::call;
  c.request_cls.optional = Fwd<&H5VLrequest_optional>::call;
  c.request_cls.free = Close<&H5VLrequest_free>::call;

  c.blob_cls.put = Fwd<&H5VLblob_put>::call;
  c.blob_cls.get = Fwd<&H5VLblob_get>::call;
  c.blob_cls.specific = Fwd<&H5VLblob_specific>::call;
  c.blob_cls.optional = Fwd<&H5VLblob_optional>::call;

  c.token_cls.cmp = Fwd<&H5VLtoken_cmp>::call;
  c.token_cls.to_str = Fwd<&H5VLtoken_to_str>::call;
  c.token_cls.from_str = Fwd<&H5VLtoken_from_str>::call;

  c.optional = Fwd<&H5VLoptional>::call;
  return c;
}

const H5VL_class_t& the_class() {
  static const H5VL_class_t c = make_class();
  return c;
}

}  // namespace

const H5VL_class_t* connector_class() {
  return &the_class();
}

}  // namespace provio::vol
