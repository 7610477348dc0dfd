// The hand-written callbacks (see callbacks.h).
#include "vol/callbacks.h"

#include <memory>
#include <new>
#include <vector>

#include "model/errno_saver.h"
#include "vol/apis.h"
#include "vol/error_stack.h"
#include "vol/forward.h"
#include "vol/hooks.h"
#include "vol/info_class.h"
#include "vol/naming.h"

namespace provio::vol {

using model::EntityClass;
using model::EntityId;
using model::kNoEntity;
using model::Op;

namespace {

// A copy of the FAPL with our connector replaced by the one below (file create/open/specific).
class UnderFapl {
 public:
  explicit UnderFapl(hid_t fapl) {
    void* info = nullptr;
    if (H5Pget_vol_info(fapl, &info) < 0) {
      push_error(__func__, H5E_CANTGET, "cannot read the connector info of the file access property list");
      return;
    }
    // No info at all (HDF5_VOL_CONNECTOR=provio, H5Pset_vol(fapl, id, NULL)): native below.
    if (!info && str_to_info("", &info) < 0) return;
    info_ = static_cast<Info*>(info);
    fapl_ = H5Pcopy(fapl);
    if (fapl_ < 0 || H5Pset_vol(fapl_, info_->under_id, info_->under_info) < 0) {
      push_error(__func__, H5E_CANTSET, "cannot set the under connector on the file access property list");
      if (fapl_ >= 0) H5Pclose(fapl_);
      fapl_ = H5I_INVALID_HID;
    }
  }
  ~UnderFapl() {
    ErrorStackKeeper keep;
    if (fapl_ >= 0) H5Pclose(fapl_);
    if (info_) info_free(info_);
  }
  UnderFapl(const UnderFapl&) = delete;
  UnderFapl& operator=(const UnderFapl&) = delete;

  bool ok() const { return fapl_ >= 0; }
  hid_t id() const { return fapl_; }
  hid_t under_id() const { return info_->under_id; }

 private:
  Info* info_ = nullptr;
  hid_t fapl_ = H5I_INVALID_HID;
};

void name_file(Obj* o, const char* name, bool mpio) {
  o->type = H5I_FILE;
  o->mpio = mpio;
  o->path = "/";
  if (!name) return;
  model::ErrnoSaver errno_saver;
  o->file = o->entity = model::file_entity(name);
}

bool uses_mpio(hid_t fapl) {
#ifdef H5_HAVE_PARALLEL
  return H5Pget_driver(fapl) == H5FD_MPIO;
#else
  (void)fapl;
  return false;
#endif
}

// File create and open: the FAPL swap, the wrap, the record. `under_call` gets the swapped FAPL.
template <typename UnderCall>
void* open_file(const char* name, hid_t fapl, void** req, Op op, model::ApiId api, UnderCall&& under_call) {
  Scope s;
  UnderFapl u(fapl);
  if (!u.ok()) return nullptr;
  const bool mpio = s.on && uses_mpio(fapl);
  Timing t;
  void* under = timed(s, s.on, t, [&] { return under_call(u.id()); });
  const bool native = under && is_native(u.under_id());
  Obj* o = under ? new_obj(under, native ? native_id() : u.under_id(), native) : nullptr;
  wrap_request(req, u.under_id());
  if (o && s.on) {
    refine_rank();
    name_file(o, name, mpio);
    if (tracks(EntityClass::kFile)) emit(op, api, o->file, t);
  }
  return o;
}

}  // namespace

void* file_create(const char* name, unsigned flags, hid_t fcpl, hid_t fapl, hid_t dxpl, void** req) {
  return open_file(name, fapl, req, Op::kCreate, apis().Fcreate, [&](hid_t under_fapl) {
    return H5VLfile_create(name, flags, fcpl, under_fapl, dxpl, req);
  });
}

void* file_open(const char* name, unsigned flags, hid_t fapl, hid_t dxpl, void** req) {
  return open_file(name, fapl, req, Op::kOpen, apis().Fopen,
                   [&](hid_t under_fapl) { return H5VLfile_open(name, flags, under_fapl, dxpl, req); });
}

herr_t file_specific(void* obj, H5VL_file_specific_args_t* args, hid_t dxpl, void** req) {
  Scope s;
  Obj* o = as_obj(obj);
  H5VL_file_specific_args_t mine = *args;
  std::unique_ptr<UnderFapl> u;
  hid_t under_id = o ? o->under_id : H5I_INVALID_HID;
  const char* filename = nullptr;
  if (args->op_type == H5VL_FILE_IS_ACCESSIBLE || args->op_type == H5VL_FILE_DELETE) {
    const bool accessible = args->op_type == H5VL_FILE_IS_ACCESSIBLE;
    hid_t fapl = accessible ? args->args.is_accessible.fapl_id : args->args.del.fapl_id;
    filename = accessible ? args->args.is_accessible.filename : args->args.del.filename;
    u.reset(new (std::nothrow) UnderFapl(fapl));
    if (!u || !u->ok()) return -1;
    (accessible ? mine.args.is_accessible.fapl_id : mine.args.del.fapl_id) = u->id();
    under_id = u->under_id();
  } else if (args->op_type == H5VL_FILE_IS_EQUAL && args->args.is_equal.obj2) {
    mine.args.is_equal.obj2 = as_obj(args->args.is_equal.obj2)->under;
  }
  if (under_id < 0) {
    push_error(__func__, H5E_BADVALUE, "file specific operation without a file");
    return -1;
  }
  Timing t;
  herr_t r = timed(s, s.on, t, [&] {
    return H5VLfile_specific(o && !u ? o->under : nullptr, under_id, &mine, dxpl, req);
  });
  wrap_request(req, under_id);
  if (r < 0) return r;
  if (args->op_type == H5VL_FILE_REOPEN && *args->args.reopen.file) {
    Obj* n = new_child(*args->args.reopen.file, under_id, o, H5I_FILE);
    *args->args.reopen.file = n;
    if (n) {
      n->path = "/";
      n->entity = n->file;
      if (s.on && tracks(EntityClass::kFile)) emit(Op::kOpen, apis().Freopen, n->file, t);
    }
    return r;
  }
  if (!s.on || !tracks(EntityClass::kFile)) return r;
  model::ErrnoSaver errno_saver;
  switch (args->op_type) {
    case H5VL_FILE_FLUSH: emit(Op::kFlush, apis().Fflush, file_of(o), t); break;
    case H5VL_FILE_IS_ACCESSIBLE:
      if (filename) emit(Op::kAccess, apis().Fis_accessible, model::file_entity(filename), t);
      break;
    case H5VL_FILE_DELETE:
      if (filename) emit(Op::kDelete, apis().Fdelete, model::file_entity(filename), t);
      break;
    default: break;
  }
  return r;
}

namespace {

// Storage for the under objects of a multi-dataset transfer: on the stack for up to kInline.
class UnderObjects {
 public:
  UnderObjects(std::size_t count, void* dset[]) {
    if (count > kInline) {
      heap_.reset(new (std::nothrow) void*[count]);
      if (!heap_) return;
      data_ = heap_.get();
    }
    for (std::size_t i = 0; i < count; ++i) data_[i] = as_obj(dset[i])->under;
    ok_ = true;
  }
  bool ok() const { return ok_; }
  void** data() { return data_; }

 private:
  static constexpr std::size_t kInline = 8;
  void* inline_[kInline];
  std::unique_ptr<void*[]> heap_;
  void** data_ = inline_;
  bool ok_ = false;
};

// The events of a multi-dataset transfer, one per dataset; the call's time is shared among the
// datasets in proportion to their bytes (equally when none moved).
void record_shares(Op op, model::ApiId api, std::uint8_t flags, std::size_t count, void* dset[],
                   hid_t mem_type[], hid_t mem_space[], hid_t file_space[], const Timing& t) {
  std::vector<std::uint64_t> bytes(count);
  std::uint64_t total = 0;
  for (std::size_t i = 0; i < count; ++i) {
    bytes[i] = transfer_bytes(as_obj(dset[i]), mem_type[i], mem_space[i], file_space[i]);
    total += bytes[i];
  }
  for (std::size_t i = 0; i < count; ++i) {
    Timing share = t;
    share.elapsed_ns =
        total ? static_cast<std::uint64_t>(static_cast<long double>(t.elapsed_ns) * bytes[i] / total)
              : t.elapsed_ns / count;
    emit(op, api, entity_of(as_obj(dset[i])), share, bytes[i], flags);
  }
}

// One event per dataset of a (multi-)dataset transfer. `count` is a constant 1 in every H5Dwrite
// and H5Dread (dataset_transfer), whose event then costs no frame of its own, and the API is
// known from `op` at compile time.
template <Op op>
[[gnu::always_inline]] inline void record_transfers(std::size_t count, void* dset[], hid_t mem_type[],
                                                    hid_t mem_space[], hid_t file_space[], hid_t dxpl,
                                                    const Timing& t) {
  if (!tracks(EntityClass::kDataset)) return;
  Obj* o = as_obj(dset[0]);
  const std::uint8_t flags = transfer_flags(o, dxpl);
  if (count > 1) {
    return record_shares(op, op == Op::kRead ? apis().Dread_multi : apis().Dwrite_multi, flags, count, dset,
                         mem_type, mem_space, file_space, t);
  }
  emit(op, op == Op::kRead ? apis().Dread : apis().Dwrite, entity_of(o), t,
       transfer_bytes(o, mem_type[0], mem_space[0], file_space[0]), flags);
}

// Forwards a transfer of `count` datasets whose under objects are `under`, and records it.
template <Op op, typename Buf,
          herr_t (*F)(std::size_t, void*[], hid_t, hid_t[], hid_t[], hid_t[], hid_t, Buf[], void**)>
[[gnu::always_inline]] inline herr_t transfer(std::size_t count, void* under[], void* dset[],
                                              hid_t mem_type[], hid_t mem_space[], hid_t file_space[],
                                              hid_t dxpl, Buf buf[], void** req) {
  Scope s;
  const Obj* first = as_obj(dset[0]);
  const hid_t id = first->under_id;  // one call's datasets share their connector
  Timing t;
  herr_t r = timed(s, s.on, t, [&] {
    if (auto native = native_member<F>(first->native_under))
      return native(count, under, mem_type, mem_space, file_space, dxpl, buf, req);
    return F(count, under, id, mem_type, mem_space, file_space, dxpl, buf, req);
  });
  wrap_request(req, id);
  if (r >= 0 && s.on) record_transfers<op>(count, dset, mem_type, mem_space, file_space, dxpl, t);
  return r;
}

// H5Dread_multi and H5Dwrite_multi (and a count of 0): the under objects copied, out of line so
// that their storage and the shared-time events weigh nothing on a single dataset's frame.
template <Op op, typename Buf,
          herr_t (*F)(std::size_t, void*[], hid_t, hid_t[], hid_t[], hid_t[], hid_t, Buf[], void**)>
[[gnu::noinline]] herr_t multi_transfer(std::size_t count, void* dset[], hid_t mem_type[], hid_t mem_space[],
                                        hid_t file_space[], hid_t dxpl, Buf buf[], void** req) {
  UnderObjects under(count, dset);
  if (count == 0 || !under.ok()) {
    push_error(__func__, H5E_CANTALLOC, "cannot forward the dataset transfer");
    return -1;
  }
  return transfer<op, Buf, F>(count, under.data(), dset, mem_type, mem_space, file_space, dxpl, buf, req);
}

// Multi-dataset read and write: one body over the under function and the buffer type. Every
// H5Dwrite and H5Dread is one dataset: its under object is handed down as it is (no copy, no
// storage to set up or release, also at level off).
template <Op op, typename Buf,
          herr_t (*F)(std::size_t, void*[], hid_t, hid_t[], hid_t[], hid_t[], hid_t, Buf[], void**)>
herr_t dataset_transfer(std::size_t count, void* dset[], hid_t mem_type[], hid_t mem_space[],
                        hid_t file_space[], hid_t dxpl, Buf buf[], void** req) {
  if (count != 1)
    return multi_transfer<op, Buf, F>(count, dset, mem_type, mem_space, file_space, dxpl, buf, req);
  void* under = as_obj(dset[0])->under;
  return transfer<op, Buf, F>(1, &under, dset, mem_type, mem_space, file_space, dxpl, buf, req);
}

// The entity a new or moved link names: at `loc` (by name) from `o`.
EntityId link_entity(Obj* o, const H5VL_loc_params_t* loc, EntityClass cls) {
  return o ? located(o, loc, cls) : kNoEntity;
}

}  // namespace

herr_t dataset_read(std::size_t count, void* dset[], hid_t mem_type[], hid_t mem_space[], hid_t file_space[],
                    hid_t dxpl, void* buf[], void** req) {
  return dataset_transfer<Op::kRead, void*, &H5VLdataset_read>(count, dset, mem_type, mem_space, file_space,
                                                               dxpl, buf, req);
}

herr_t dataset_write(std::size_t count, void* dset[], hid_t mem_type[], hid_t mem_space[], hid_t file_space[],
                     hid_t dxpl, const void* buf[], void** req) {
  return dataset_transfer<Op::kWrite, const void*, &H5VLdataset_write>(count, dset, mem_type, mem_space,
                                                                       file_space, dxpl, buf, req);
}

herr_t link_create(H5VL_link_create_args_t* args, void* obj, const H5VL_loc_params_t* loc, hid_t lcpl,
                   hid_t lapl, hid_t dxpl, void** req) {
  Scope s;
  Obj* o = as_obj(obj);
  hid_t under_id = o ? o->under_id : H5I_INVALID_HID;
  H5VL_link_create_args_t mine = *args;
  Obj* target = nullptr;
  if (args->op_type == H5VL_LINK_CREATE_HARD && args->args.hard.curr_obj) {
    target = as_obj(args->args.hard.curr_obj);
    if (under_id < 0) under_id = target->under_id;
    mine.args.hard.curr_obj = target->under;
  }
  if (under_id < 0) {
    push_error(__func__, H5E_BADVALUE, "link create without a location");
    return -1;
  }
  Timing t;
  herr_t r = timed(s, s.on, t, [&] {
    return H5VLlink_create(&mine, o ? o->under : nullptr, loc, under_id, lcpl, lapl, dxpl, req);
  });
  wrap_request(req, under_id);
  if (r < 0 || !s.on || !tracks(EntityClass::kLink)) return r;
  model::ApiId api = apis().Lcreate_hard;
  EntityClass cls = EntityClass::kLink;
  if (args->op_type == H5VL_LINK_CREATE_SOFT) {
    api = apis().Lcreate_soft;
  } else if (args->op_type == H5VL_LINK_CREATE_UD) {
    api = args->args.ud.type == H5L_TYPE_EXTERNAL ? apis().Lcreate_external : apis().Lcreate_ud;
  } else if (target && args->args.hard.curr_loc_params.type == H5VL_OBJECT_BY_SELF) {
    cls = class_of(target->type);  // a hard link names the object itself
  }
  emit(Op::kCreate, api, link_entity(o ? o : target, loc, cls), t);
  return r;
}

namespace {

// Link copy and move share everything but the under function and the record.
template <herr_t (*F)(void*, const H5VL_loc_params_t*, void*, const H5VL_loc_params_t*, hid_t, hid_t, hid_t,
                      hid_t, void**),
          Op op, model::ApiId Apis::*api>
herr_t link_copy_move(void* src, const H5VL_loc_params_t* loc1, void* dst, const H5VL_loc_params_t* loc2,
                      hid_t lcpl, hid_t lapl, hid_t dxpl, void** req) {
  Scope s;
  Obj* os = as_obj(src);
  Obj* od = as_obj(dst);
  const hid_t under_id = os ? os->under_id : od ? od->under_id : H5I_INVALID_HID;
  if (under_id < 0) {
    push_error(__func__, H5E_BADVALUE, "link copy/move without a location");
    return -1;
  }
  Timing t;
  herr_t r = timed(s, s.on, t, [&] {
    return F(os ? os->under : nullptr, loc1, od ? od->under : nullptr, loc2, under_id, lcpl, lapl, dxpl, req);
  });
  wrap_request(req, under_id);
  if (r < 0 || !s.on || !tracks(EntityClass::kLink)) return r;
  // A null side means "the same location as the other side" (H5Lmove with H5L_SAME_LOC).
  EntityId from = link_entity(os ? os : od, loc1, EntityClass::kLink);
  EntityId to = link_entity(od ? od : os, loc2, EntityClass::kLink);
  emit(op, apis().*api, from, t, 0, model::kFlagNone, to);
  return r;
}

}  // namespace

herr_t link_copy(void* src, const H5VL_loc_params_t* loc1, void* dst, const H5VL_loc_params_t* loc2,
                 hid_t lcpl, hid_t lapl, hid_t dxpl, void** req) {
  return link_copy_move<&H5VLlink_copy, Op::kCopy, &Apis::Lcopy>(src, loc1, dst, loc2, lcpl, lapl, dxpl, req);
}

herr_t link_move(void* src, const H5VL_loc_params_t* loc1, void* dst, const H5VL_loc_params_t* loc2,
                 hid_t lcpl, hid_t lapl, hid_t dxpl, void** req) {
  return link_copy_move<&H5VLlink_move, Op::kRename, &Apis::Lmove>(src, loc1, dst, loc2, lcpl, lapl, dxpl,
                                                                   req);
}

herr_t object_copy(void* src, const H5VL_loc_params_t* loc1, const char* src_name, void* dst,
                   const H5VL_loc_params_t* loc2, const char* dst_name, hid_t ocpypl, hid_t lcpl, hid_t dxpl,
                   void** req) {
  Scope s;
  Obj* os = as_obj(src);
  Obj* od = as_obj(dst);
  const hid_t id = os->under_id;
  Timing t;
  herr_t r = timed(s, s.on, t, [&] {
    return H5VLobject_copy(os->under, loc1, src_name, od->under, loc2, dst_name, id, ocpypl, lcpl, dxpl, req);
  });
  wrap_request(req, id);
  if (r < 0 || !s.on || !tracks(EntityClass::kObject)) return r;
  std::string from = target_path(os, loc1, src_name);
  std::string to = target_path(od, loc2, dst_name);
  EntityId fs = file_of(os), fd = file_of(od);
  if (from.empty() || to.empty() || fs == kNoEntity || fd == kNoEntity) return r;
  emit(Op::kCopy, apis().Ocopy, model::object_entity(fs, from, EntityClass::kObject), t, 0, model::kFlagNone,
       model::object_entity(fd, to, EntityClass::kObject));
  return r;
}

void* object_open(void* obj, const H5VL_loc_params_t* loc, H5I_type_t* opened_type, hid_t dxpl, void** req) {
  Scope s;
  Obj* p = as_obj(obj);
  const hid_t id = p->under_id;
  Timing t;
  void* under = timed(s, s.on, t, [&] { return H5VLobject_open(p->under, loc, id, opened_type, dxpl, req); });
  Obj* o = under ? new_child(under, id, p, opened_type ? *opened_type : H5I_BADID) : nullptr;
  wrap_request(req, id);
  if (o && s.on) {
    if (loc && loc->type == H5VL_OBJECT_BY_NAME) o->path = target_path(p, loc, ".");
    if (tracks(class_of(o->type))) emit(Op::kOpen, apis().Oopen, entity_of(o), t);
  }
  return o;
}

herr_t group_specific(void* obj, H5VL_group_specific_args_t* args, hid_t dxpl, void** req) {
  if (args->op_type != H5VL_GROUP_MOUNT) {
    return Fwd<&H5VLgroup_specific, &on_group_specific>::call(obj, args, dxpl, req);
  }
  Scope s;
  Obj* o = as_obj(obj);
  const hid_t id = o->under_id;
  H5VL_group_specific_args_t mine = *args;
  mine.args.mount.child_file = as_obj(args->args.mount.child_file)->under;
  herr_t r = H5VLgroup_specific(o->under, id, &mine, dxpl, req);
  wrap_request(req, id);
  return r;
}

}  // namespace provio::vol
