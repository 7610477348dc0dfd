// The provio passthrough VOL connector: every callback forwards to the connector below
// (native by default) and, after a successful forward, hands one event to the core.
//
// Hard rule: the application cannot tell we are here. Every callback returns the under
// connector's result unchanged; whatever we do after a failed forward runs under an ErrorStack
// keeper so the caller's HDF5 error stack is the under connector's; only the underlying call is
// timed; nothing is ever written into the user's file.
//
// Layout (STYLE.md §1): four forwarding shapes written once as templates over the under
// function (Fwd: forward [+ hook]; Open: forward + wrap the new object + hook; Close: forward +
// release the wrapper on success + hook; the request wrapper in wrap_request()), the hooks that
// turn a forward into provenance, the hand-written callbacks whose meaning differs (file
// create/open/specific with the FAPL swap, multi-dataset read/write, link create/copy/move,
// object copy, group mount), and make_class() which fills the class struct by field name.
#include "vol/connector.h"

#include <H5PLextern.h>
#include <H5VLpassthru.h>
#include <hdf5.h>
#include <mpi.h>

#include <algorithm>
#include <atomic>
#include <cstring>
#include <memory>
#include <mutex>
#include <new>
#include <string>
#include <string_view>
#include <tuple>
#include <type_traits>
#include <unordered_map>
#include <vector>

#include "model/api_names.h"
#include "model/clock.h"
#include "model/config.h"
#include "model/entities.h"
#include "model/errno_saver.h"
#include "model/identity.h"
#include "model/log.h"
#include "store/recorder.h"
#include "vol/info.h"
#include "vol/object.h"
#include "vol/path.h"

namespace provio::vol {

using model::EntityClass;
using model::EntityId;
using model::kNoEntity;
using model::Op;

struct Info {
  hid_t under_id = H5I_INVALID_HID;
  void* under_info = nullptr;
  InfoText text;  // options (and, for to_str, nothing else is trusted from here)
};

namespace {

const H5VL_class_t& the_class();

// ---------------------------------------------------------------------------------------------
// Small RAII helpers.

// Keeps the caller's HDF5 error stack across our own HDF5 calls (cleanup after a failure, lazy
// name lookups): [P] 24–26, 410–418. The stack is copied only when it holds something: almost
// always it is empty, and copying it on every wrapper free and close cost ~4 % of a metadata-heavy
// run even at level off. An empty stack is given back empty.
class ErrorStackKeeper {
 public:
  ErrorStackKeeper() : stack_(H5Eget_num(H5E_DEFAULT) > 0 ? H5Eget_current_stack() : H5I_INVALID_HID) {}
  ~ErrorStackKeeper() {
    if (stack_ >= 0)
      H5Eset_current_stack(stack_);  // also releases the copy
    else if (H5Eget_num(H5E_DEFAULT) > 0)
      H5Eclear2(H5E_DEFAULT);
  }
  ErrorStackKeeper(const ErrorStackKeeper&) = delete;
  ErrorStackKeeper& operator=(const ErrorStackKeeper&) = delete;

 private:
  hid_t stack_;
};

// For our own lookups (names, sizes): keeps the caller's error stack and silences HDF5's
// automatic error printing, so a lookup that fails (an anonymous object has no name) prints
// nothing on the application's stderr.
class QuietLookup {
 public:
  QuietLookup() {
    if (H5Eget_auto2(H5E_DEFAULT, &func_, &data_) >= 0) {
      silenced_ = H5Eset_auto2(H5E_DEFAULT, nullptr, nullptr) >= 0;
    }
  }
  ~QuietLookup() {
    if (silenced_) H5Eset_auto2(H5E_DEFAULT, func_, data_);
  }
  QuietLookup(const QuietLookup&) = delete;
  QuietLookup& operator=(const QuietLookup&) = delete;

 private:
  ErrorStackKeeper keep_;
  H5E_auto2_t func_ = nullptr;
  void* data_ = nullptr;
  bool silenced_ = false;
};

// Pushes a message onto HDF5's error stack under the library's own error class.
void push_error(const char* func, hid_t minor, const char* msg) {
  H5Epush2(H5E_DEFAULT, __FILE__, func, __LINE__, H5E_ERR_CLS, H5E_VOL, minor, "provio: %s", msg);
}

// Every callback body runs inside one: HDF5's POSIX calls meanwhile are nested (preload shim),
// and `on` is the run-time tracing switch, read once per callback.
struct Scope {
  store::Hdf5Scope nested;
  bool on = store::enabled();
};

// Start and duration of the underlying call only.
struct Timing {
  std::uint64_t start = 0;
  std::uint64_t elapsed = 0;
};

template <typename F>
auto timed(bool on, Timing& t, F&& f) {
  if (!on) return f();
  model::clock::Stopwatch sw;
  auto r = f();
  t.elapsed = sw.elapsed_ns();
  t.start = sw.start_wall_ns();
  return r;
}

// ---------------------------------------------------------------------------------------------
// Wrapper objects.

Obj* as_obj(void* p) {
  return static_cast<Obj*>(p);
}
const Obj* as_obj(const void* p) {
  return static_cast<const Obj*>(p);
}

Obj* new_obj(void* under, hid_t under_id) {
  auto* o = new (std::nothrow) Obj;
  if (!o) {
    model::warn_once("vol-oom", "VOL connector: out of memory wrapping an HDF5 object");
    return nullptr;
  }
  o->under = under;
  o->under_id = under_id;
  H5Iinc_ref(under_id);
  return o;
}

// A child of `parent` (same file, same driver).
Obj* new_child(void* under, hid_t under_id, const Obj* parent, H5I_type_t type) {
  Obj* o = new_obj(under, under_id);
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
  ErrorStackKeeper keep;
  H5Idec_ref(o->under_id);
  delete o;
}

// The one place async requests are wrapped: the under connector's request becomes ours.
void wrap_request(void** req, hid_t under_id) {
  if (req && *req) *req = new_obj(*req, under_id);
}

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

// ---------------------------------------------------------------------------------------------
// Provenance: names, paths, entities, events.

struct Apis {
  model::ApiId Fcreate, Fopen, Fclose, Fflush, Fdelete, Fis_accessible, Freopen;
  model::ApiId Gcreate, Gopen, Gclose, Gflush;
  model::ApiId Dcreate, Dcreate_anon, Dopen, Dclose, Dread, Dwrite, Dread_multi, Dwrite_multi, Dset_extent,
      Dflush;
  model::ApiId Acreate, Aopen, Aread, Awrite, Aclose, Adelete, Arename;
  model::ApiId Tcommit, Tcommit_anon, Topen, Tclose, Tflush;
  model::ApiId Lcreate_hard, Lcreate_soft, Lcreate_external, Lcreate_ud, Lcopy, Lmove, Ldelete;
  model::ApiId Oopen, Ocopy, Oflush, Gcreate_anon;
};

const Apis& apis() {
  static const Apis a = [] {
    using model::api_id;
    Apis x{};
    x.Fcreate = api_id("H5Fcreate");
    x.Fopen = api_id("H5Fopen");
    x.Fclose = api_id("H5Fclose");
    x.Fflush = api_id("H5Fflush");
    x.Fdelete = api_id("H5Fdelete");
    x.Fis_accessible = api_id("H5Fis_accessible");
    x.Freopen = api_id("H5Freopen");
    x.Gcreate = api_id("H5Gcreate");
    x.Gcreate_anon = api_id("H5Gcreate_anon");
    x.Gopen = api_id("H5Gopen");
    x.Gclose = api_id("H5Gclose");
    x.Gflush = api_id("H5Gflush");
    x.Dcreate = api_id("H5Dcreate");
    x.Dcreate_anon = api_id("H5Dcreate_anon");
    x.Dopen = api_id("H5Dopen");
    x.Dclose = api_id("H5Dclose");
    x.Dread = api_id("H5Dread");
    x.Dwrite = api_id("H5Dwrite");
    x.Dread_multi = api_id("H5Dread_multi");
    x.Dwrite_multi = api_id("H5Dwrite_multi");
    x.Dset_extent = api_id("H5Dset_extent");
    x.Dflush = api_id("H5Dflush");
    x.Acreate = api_id("H5Acreate");
    x.Aopen = api_id("H5Aopen");
    x.Aread = api_id("H5Aread");
    x.Awrite = api_id("H5Awrite");
    x.Aclose = api_id("H5Aclose");
    x.Adelete = api_id("H5Adelete");
    x.Arename = api_id("H5Arename");
    x.Tcommit = api_id("H5Tcommit");
    x.Tcommit_anon = api_id("H5Tcommit_anon");
    x.Topen = api_id("H5Topen");
    x.Tclose = api_id("H5Tclose");
    x.Tflush = api_id("H5Tflush");
    x.Lcreate_hard = api_id("H5Lcreate_hard");
    x.Lcreate_soft = api_id("H5Lcreate_soft");
    x.Lcreate_external = api_id("H5Lcreate_external");
    x.Lcreate_ud = api_id("H5Lcreate_ud");
    x.Lcopy = api_id("H5Lcopy");
    x.Lmove = api_id("H5Lmove");
    x.Ldelete = api_id("H5Ldelete");
    x.Oopen = api_id("H5Oopen");
    x.Ocopy = api_id("H5Ocopy");
    x.Oflush = api_id("H5Oflush");
    return x;
  }();
  return a;
}

EntityClass class_of(H5I_type_t t) {
  switch (t) {
    case H5I_FILE: return EntityClass::kFile;
    case H5I_GROUP: return EntityClass::kGroup;
    case H5I_DATASET: return EntityClass::kDataset;
    case H5I_DATATYPE: return EntityClass::kDatatype;
    case H5I_ATTR: return EntityClass::kAttribute;
    default: return EntityClass::kObject;
  }
}

// The file the under connector says `o` lives in (H5Fget_name's name, as the file was opened),
// interned through a small cache of absolute names so that the common case is one lookup and no
// path canonicalisation. A relative name means another file after chdir, so it is resolved each
// time. kNoEntity when the under connector cannot say.
EntityId file_named_below(Obj* o) {
  if (o->type == H5I_BADID) return kNoEntity;
  QuietLookup quiet;
  char stack_buf[512];
  std::string heap_buf;
  char* buf = stack_buf;
  std::size_t len = 0;
  H5VL_file_get_args_t args{};
  args.op_type = H5VL_FILE_GET_NAME;
  args.args.get_name.type = o->type;
  args.args.get_name.buf_size = sizeof stack_buf;
  args.args.get_name.buf = buf;
  args.args.get_name.file_name_len = &len;
  if (H5VLfile_get(o->under, o->under_id, &args, H5P_DATASET_XFER_DEFAULT, nullptr) < 0) return kNoEntity;
  if (len >= sizeof stack_buf) {
    heap_buf.assign(len + 1, '\0');
    args.args.get_name.buf_size = heap_buf.size();
    args.args.get_name.buf = buf = heap_buf.data();
    if (H5VLfile_get(o->under, o->under_id, &args, H5P_DATASET_XFER_DEFAULT, nullptr) < 0) return kNoEntity;
  }
  std::string_view name(buf, len);
  if (name.empty() || name.front() != '/') {
    model::ErrnoSaver errno_saver;
    return model::file_entity(name);
  }
  static std::mutex mutex;
  static auto* cache = new std::unordered_map<std::string, EntityId>;  // open name -> file; never freed
  std::lock_guard<std::mutex> lock(mutex);
  auto found = cache->find(std::string(name));
  if (found != cache->end()) return found->second;
  model::ErrnoSaver errno_saver;
  EntityId f = model::file_entity(name);
  if (cache->size() < 4096) cache->emplace(std::string(name), f);
  return f;
}

// The file of `o`, asking the under connector when the wrapper was made by HDF5 itself
// (wrap_object) and so came without one.
EntityId file_of(Obj* o) {
  if (o->file == kNoEntity) o->file = file_named_below(o);
  return o->file;
}

// A stable name for an object that has no path (anonymous datasets, groups, datatypes): its
// token, which for the native connector is its address in the file. It starts with "//", which
// no normalised path does (join_path collapses empty components), so it can never collide with
// a named object.
std::string token_name(Obj* o) {
  H5VL_object_get_args_t args{};
  H5O_info2_t info{};
  args.op_type = H5VL_OBJECT_GET_INFO;
  args.args.get_info.fields = H5O_INFO_BASIC;
  args.args.get_info.oinfo = &info;
  H5VL_loc_params_t loc{};
  loc.type = H5VL_OBJECT_BY_SELF;
  loc.obj_type = o->type;
  if (H5VLobject_get(o->under, &loc, o->under_id, &args, H5P_DATASET_XFER_DEFAULT, nullptr) < 0) return {};
  static const char hex[] = "0123456789abcdef";
  std::string s = "//anonymous/";
  const auto* b = reinterpret_cast<const unsigned char*>(&info.token);
  std::size_t n = sizeof(info.token);
  while (n > 1 && b[n - 1] == 0) --n;
  for (std::size_t i = 0; i < n; ++i) {
    s += hex[b[i] >> 4];
    s += hex[b[i] & 15];
  }
  return s;
}

// The full path of `o` inside its file, asking the under connector when not known yet; the
// token name for anonymous objects.
const std::string& path_of(Obj* o) {
  if (!o->path.empty() || o->type == H5I_BADID) return o->path;
  if (o->type == H5I_FILE) {
    o->path = "/";
    return o->path;
  }
  QuietLookup quiet;
  H5VL_object_get_args_t args{};
  std::size_t len = 0;
  args.op_type = H5VL_OBJECT_GET_NAME;
  args.args.get_name.buf_size = 0;
  args.args.get_name.buf = nullptr;
  args.args.get_name.name_len = &len;
  H5VL_loc_params_t loc{};
  loc.type = H5VL_OBJECT_BY_SELF;
  loc.obj_type = o->type;
  if (H5VLobject_get(o->under, &loc, o->under_id, &args, H5P_DATASET_XFER_DEFAULT, nullptr) >= 0 && len > 0) {
    std::string name(len + 1, '\0');
    args.args.get_name.buf_size = name.size();
    args.args.get_name.buf = name.data();
    if (H5VLobject_get(o->under, &loc, o->under_id, &args, H5P_DATASET_XFER_DEFAULT, nullptr) >= 0) {
      name.resize(len);
      o->path = join_path("/", name);
    }
  }
  if (o->path.empty()) o->path = token_name(o);
  return o->path;
}

// The entity of a file, group, dataset or named datatype wrapper (attributes get theirs at
// create/open), interned on first need.
EntityId entity_of(Obj* o) {
  if (o->entity != kNoEntity) return o->entity;
  EntityId f = file_of(o);
  if (f == kNoEntity) return kNoEntity;
  if (o->type == H5I_FILE) return o->entity = f;
  if (o->type == H5I_ATTR || o->type == H5I_BADID) return kNoEntity;
  const std::string& p = path_of(o);
  if (p.empty()) return kNoEntity;
  return o->entity = model::object_entity(f, p, class_of(o->type));
}

// The full path named by (parent, loc, name), empty when it cannot be known without asking
// (by index or token), or when there is no name (anonymous objects).
std::string target_path(Obj* parent, const H5VL_loc_params_t* loc, const char* name) {
  if (!name || !loc) return {};
  const std::string& base = path_of(parent);
  if (base.empty() && name[0] != '/') return {};
  if (loc->type == H5VL_OBJECT_BY_SELF) return join_path(base, name);
  if (loc->type == H5VL_OBJECT_BY_NAME && loc->loc_data.loc_by_name.name) {
    return join_path(join_path(base, loc->loc_data.loc_by_name.name), name);
  }
  return {};
}

// The object located by `loc` from `parent` (link and object callbacks that name their target
// through loc_params only).
EntityId located(Obj* parent, const H5VL_loc_params_t* loc, EntityClass cls) {
  if (!parent || !loc) return kNoEntity;
  if (loc->type == H5VL_OBJECT_BY_SELF) return entity_of(parent);
  if (loc->type != H5VL_OBJECT_BY_NAME || !loc->loc_data.loc_by_name.name) return kNoEntity;
  EntityId f = file_of(parent);
  const std::string& base = path_of(parent);
  if (f == kNoEntity || base.empty()) return kNoEntity;
  return model::object_entity(f, join_path(base, loc->loc_data.loc_by_name.name), cls);
}

bool tracks(EntityClass c) {
  return model::config().tracks(c);
}

void emit(Op op, model::ApiId api, EntityId e, const Timing& t, std::uint64_t bytes = 0,
          std::uint8_t flags = model::kFlagNone, EntityId other = kNoEntity) {
  if (e == kNoEntity) return;
  store::record({op, flags, api, e, other, bytes, model::kNoOffset, t.start, t.elapsed});
}

// Names a child wrapper and records its creation or opening.
void record_child(Obj* parent, Obj* o, const H5VL_loc_params_t* loc, const char* name, Op op,
                  model::ApiId api, const Timing& t) {
  // An object created under a plain name (no '/') in its parent is in its parent's file: no need
  // to ask. Any other name may lead through an external link (or a mount point) into another
  // file: then the file is the one the under connector names, and the path is asked from it
  // lazily.
  bool in_parent =
      op == Op::kCreate && name && !std::strchr(name, '/') && loc && loc->type == H5VL_OBJECT_BY_SELF;
  EntityId parent_file = file_of(parent);
  EntityId f = in_parent ? parent_file : file_named_below(o);
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

// MPI rank from MPI itself once it is up (the launcher environment is the fallback).
void refine_rank() {
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
}

std::uint8_t transfer_flags(const Obj* o, hid_t dxpl) {
  if (!o->mpio) return model::kFlagNone;
  H5FD_mpio_xfer_t mode = H5FD_MPIO_INDEPENDENT;
  if (H5Pget_dxpl_mpio(dxpl, &mode) < 0) return model::kFlagNone;
  return mode == H5FD_MPIO_COLLECTIVE ? model::kFlagCollective : model::kFlagIndependent;
}

bool real_space(hid_t s) {
  return s != H5S_ALL && s != H5S_BLOCK && s != H5S_PLIST && s > 0;
}

std::int64_t extent_points(hid_t space) {
  hssize_t n = H5Sget_simple_extent_npoints(space);
  return n < 0 ? -1 : static_cast<std::int64_t>(n);
}

// Elements in the dataset's (or attribute's) whole extent, cached on the wrapper.
std::int64_t points_of(Obj* o) {
  if (o->points >= 0) return o->points;
  QuietLookup quiet;
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

// Bytes one dataset transfer moves: selected elements × memory type size.
std::uint64_t transfer_bytes(Obj* o, hid_t mem_type, hid_t mem_space, hid_t file_space) {
  hssize_t n = -1;
  if (real_space(mem_space)) {
    n = H5Sget_select_npoints(mem_space);
  } else if (real_space(file_space)) {
    n = H5Sget_select_npoints(file_space);
  } else {
    n = points_of(o);
  }
  std::size_t size = H5Tget_size(mem_type);
  if (n <= 0 || size == 0) return 0;
  return static_cast<std::uint64_t>(n) * size;
}

// ---------------------------------------------------------------------------------------------
// The forwarding shapes. Two argument layouts cover the under functions: the connector id right
// after the object, or after loc_params.

template <auto Hook>
constexpr bool kHooked = !std::is_same_v<decltype(Hook), std::nullptr_t>;

// The body every forward shares: `call(under object, under id)` runs the under function (timed
// only when a hook will record it), `hook(o, timing)` runs after a success when tracing.
template <typename R, bool Hooked, typename Call, typename Hook>
R forward(void* obj, void** req, Call&& call, Hook&& hook) {
  Scope s;
  Obj* o = as_obj(obj);
  const hid_t id = o->under_id;  // a refresh may replace `o` under us
  Timing t;
  R r = timed(Hooked && s.on, t, [&] { return call(o->under, id); });
  wrap_request(req, id);
  if (Hooked && s.on && r >= 0) hook(o, t);
  return r;
}

// Shape 1: forward, then (when tracing) a hook after success. Two argument layouts: the
// connector id right after the object, or after loc_params.
template <auto F, auto Hook = nullptr>
struct Fwd;

template <typename R, typename... A, R (*F)(void*, hid_t, A...), auto Hook>
struct Fwd<F, Hook> {
  static R call(void* obj, A... a) {
    return forward<R, kHooked<Hook>>(
        obj, request_arg(a...), [&](void* under, hid_t id) { return F(under, id, a...); },
        [&](Obj* o, const Timing& t) {
          if constexpr (kHooked<Hook>) Hook(o, t, a...);
        });
  }
};

template <typename R, typename... A, R (*F)(void*, const H5VL_loc_params_t*, hid_t, A...), auto Hook>
struct Fwd<F, Hook> {
  static R call(void* obj, const H5VL_loc_params_t* loc, A... a) {
    return forward<R, kHooked<Hook>>(
        obj, request_arg(a...), [&](void* under, hid_t id) { return F(under, loc, id, a...); },
        [&](Obj* o, const Timing& t) {
          if constexpr (kHooked<Hook>) Hook(o, t, loc, a...);
        });
  }
};

// Token string conversions carry the object's type before the connector id.
template <typename R, typename... A, R (*F)(void*, H5I_type_t, hid_t, A...)>
struct Fwd<F, nullptr> {
  static R call(void* obj, H5I_type_t type, A... a) {
    Scope s;
    Obj* o = as_obj(obj);
    return F(o->under, type, o->under_id, a...);
  }
};

// Shape 2: forward a create/open, wrap the new object, then the hook type names and records it.
// Every such under function takes the new object's name right after the connector id.
template <auto F, H5I_type_t Type, typename Hook>
struct Open;

template <typename... A, void* (*F)(void*, const H5VL_loc_params_t*, hid_t, const char*, A...),
          H5I_type_t Type, typename Hook>
struct Open<F, Type, Hook> {
  static void* call(void* obj, const H5VL_loc_params_t* loc, const char* name, A... a) {
    Scope s;
    Obj* p = as_obj(obj);
    const hid_t id = p->under_id;
    Timing t;
    void* under = timed(s.on, t, [&] { return F(p->under, loc, id, name, a...); });
    Obj* o = under ? new_child(under, id, p, Type) : nullptr;
    wrap_request(request_arg(a...), id);
    if (o && s.on) Hook::record(p, o, t, loc, name, a...);
    return o;
  }
};

// Shape 3: forward a close (or a request free); on success record, then release the wrapper.
template <auto F, auto Hook = nullptr>
struct Close;

template <typename... A, herr_t (*F)(void*, hid_t, A...), auto Hook>
struct Close<F, Hook> {
  static herr_t call(void* obj, A... a) {
    Scope s;
    Obj* o = as_obj(obj);
    const hid_t id = o->under_id;
    constexpr bool hooked = kHooked<Hook>;
    // Name the object while the under connector can still tell us its name.
    if (hooked && s.on) entity_of(o);
    Timing t;
    herr_t r = timed(s.on && hooked, t, [&] { return F(o->under, id, a...); });
    wrap_request(request_arg(a...), id);
    if (r >= 0) {
      if constexpr (hooked) {
        if (s.on) Hook(o, t);
      }
      free_obj(o);
    }
    return r;
  }
};

// ---------------------------------------------------------------------------------------------
// Hooks: one per slot that records.

template <Op op, model::ApiId Apis::*api>
void on_close(Obj* o, const Timing& t) {
  EntityClass c = o->type == H5I_ATTR ? EntityClass::kAttribute : class_of(o->type);
  if (tracks(c)) emit(op, apis().*api, o->entity, t);
}

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

void name_attribute(Obj* p, Obj* o, const H5VL_loc_params_t* loc, const char* name) {
  if (!name) return;
  EntityId owner = attribute_owner(p, loc);
  if (owner != kNoEntity) o->entity = model::attribute_entity(owner, name);
}

// The extent of a new dataset or attribute, from the dataspace among the create arguments.
template <int SpaceArg, typename... A>
void remember_extent(Obj* o, A... a) {
  if constexpr (SpaceArg >= 0) o->points = extent_points(std::get<SpaceArg>(std::forward_as_tuple(a...)));
}

// Open-shape hooks. A new group, dataset or named datatype: named from its parent and the call's
// name, recorded as created or opened. SpaceArg: index of the dataspace among the arguments
// after the name, or -1.
template <Op op, model::ApiId Apis::*named, model::ApiId Apis::*anonymous, int SpaceArg = -1>
struct Child {
  template <typename... A>
  static void record(Obj* p, Obj* o, const Timing& t, const H5VL_loc_params_t* loc, const char* name,
                     A... a) {
    remember_extent<SpaceArg>(o, a...);
    record_child(p, o, loc, name, op, name ? apis().*named : apis().*anonymous, t);
  }
};

// A new attribute: hangs off its owner.
template <Op op, model::ApiId Apis::*api, int SpaceArg = -1>
struct Attribute {
  template <typename... A>
  static void record(Obj* p, Obj* o, const Timing& t, const H5VL_loc_params_t* loc, const char* name,
                     A... a) {
    remember_extent<SpaceArg>(o, a...);
    if (!tracks(EntityClass::kAttribute)) return;
    name_attribute(p, o, loc, name);
    emit(op, apis().*api, o->entity, t);
  }
};

template <Op op, model::ApiId Apis::*api, typename Buf>
void on_attr_io(Obj* o, const Timing& t, hid_t mem_type, Buf, hid_t, void**) {
  if (!tracks(EntityClass::kAttribute) || o->entity == kNoEntity) return;
  std::int64_t n = points_of(o);
  std::size_t size = H5Tget_size(mem_type);
  std::uint64_t bytes = n > 0 ? static_cast<std::uint64_t>(n) * size : 0;
  emit(op, apis().*api, o->entity, t, bytes);
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

void on_file_close(Obj* o, const Timing& t) {
  if (tracks(EntityClass::kFile)) emit(Op::kClose, apis().Fclose, o->file, t);
}

// ---------------------------------------------------------------------------------------------
// Hand-written callbacks.

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
    if (!info && the_class().info_cls.from_str("", &info) < 0) return;
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
    if (info_) the_class().info_cls.free(info_);
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
  return H5Pget_driver(fapl) == H5FD_MPIO;
}

// File create and open: the FAPL swap, the wrap, the record. `under_call` gets the swapped FAPL.
template <typename UnderCall>
void* open_file(const char* name, hid_t fapl, void** req, Op op, model::ApiId api, UnderCall&& under_call) {
  Scope s;
  UnderFapl u(fapl);
  if (!u.ok()) return nullptr;
  const bool mpio = s.on && uses_mpio(fapl);
  Timing t;
  void* under = timed(s.on, t, [&] { return under_call(u.id()); });
  Obj* o = under ? new_obj(under, u.under_id()) : nullptr;
  wrap_request(req, u.under_id());
  if (o && s.on) {
    refine_rank();
    name_file(o, name, mpio);
    if (tracks(EntityClass::kFile)) emit(op, api, o->file, t);
  }
  return o;
}

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
  herr_t r = timed(
      s.on, t, [&] { return H5VLfile_specific(o && !u ? o->under : nullptr, under_id, &mine, dxpl, req); });
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

// Storage for the under objects of a multi-dataset transfer: on the stack for the common case.
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

// One event per dataset of a (multi-)dataset transfer; the call's time is shared among the
// datasets in proportion to their bytes (equally when none moved).
void record_transfers(Op op, bool multi, std::size_t count, void* dset[], hid_t mem_type[], hid_t mem_space[],
                      hid_t file_space[], hid_t dxpl, const Timing& t) {
  if (!tracks(EntityClass::kDataset)) return;
  const model::ApiId api = op == Op::kRead ? (multi ? apis().Dread_multi : apis().Dread)
                                           : (multi ? apis().Dwrite_multi : apis().Dwrite);
  const std::uint8_t flags = transfer_flags(as_obj(dset[0]), dxpl);
  if (count == 1) {
    Obj* o = as_obj(dset[0]);
    emit(op, api, entity_of(o), t, transfer_bytes(o, mem_type[0], mem_space[0], file_space[0]), flags);
    return;
  }
  std::vector<std::uint64_t> bytes(count);
  std::uint64_t total = 0;
  for (std::size_t i = 0; i < count; ++i) {
    bytes[i] = transfer_bytes(as_obj(dset[i]), mem_type[i], mem_space[i], file_space[i]);
    total += bytes[i];
  }
  for (std::size_t i = 0; i < count; ++i) {
    Timing share = t;
    share.elapsed = total ? static_cast<std::uint64_t>(static_cast<long double>(t.elapsed) * bytes[i] / total)
                          : t.elapsed / count;
    emit(op, api, entity_of(as_obj(dset[i])), share, bytes[i], flags);
  }
}

// Multi-dataset read and write: one body over the under function and the buffer type.
template <Op op, typename Buf,
          herr_t (*F)(std::size_t, void*[], hid_t, hid_t[], hid_t[], hid_t[], hid_t, Buf[], void**)>
herr_t dataset_transfer(std::size_t count, void* dset[], hid_t mem_type[], hid_t mem_space[],
                        hid_t file_space[], hid_t dxpl, Buf buf[], void** req) {
  Scope s;
  UnderObjects under(count, dset);
  if (count == 0 || !under.ok()) {
    push_error(__func__, H5E_CANTALLOC, "cannot forward the dataset transfer");
    return -1;
  }
  const hid_t id = as_obj(dset[0])->under_id;
  Timing t;
  herr_t r = timed(
      s.on, t, [&] { return F(count, under.data(), id, mem_type, mem_space, file_space, dxpl, buf, req); });
  wrap_request(req, id);
  if (r >= 0 && s.on) record_transfers(op, count > 1, count, dset, mem_type, mem_space, file_space, dxpl, t);
  return r;
}

// The entity a new or moved link names: at `loc` (by name) from `o`.
EntityId link_entity(Obj* o, const H5VL_loc_params_t* loc, EntityClass cls) {
  return o ? located(o, loc, cls) : kNoEntity;
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
  herr_t r = timed(s.on, t, [&] {
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
  herr_t r = timed(s.on, t, [&] {
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

herr_t object_copy(void* src, const H5VL_loc_params_t* loc1, const char* src_name, void* dst,
                   const H5VL_loc_params_t* loc2, const char* dst_name, hid_t ocpypl, hid_t lcpl, hid_t dxpl,
                   void** req) {
  Scope s;
  Obj* os = as_obj(src);
  Obj* od = as_obj(dst);
  const hid_t id = os->under_id;
  Timing t;
  herr_t r = timed(s.on, t, [&] {
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
  void* under = timed(s.on, t, [&] { return H5VLobject_open(p->under, loc, id, opened_type, dxpl, req); });
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

// ---------------------------------------------------------------------------------------------
// Info callbacks (the FAPL's copy of our configuration).

void* info_copy(const void* p) {
  const auto* from = static_cast<const Info*>(p);
  auto* to = new (std::nothrow) Info;
  if (!to) {
    push_error(__func__, H5E_CANTALLOC, "out of memory copying connector info");
    return nullptr;
  }
  to->under_id = from->under_id;
  H5Iinc_ref(to->under_id);
  to->text = from->text;
  if (from->under_info && H5VLcopy_connector_info(to->under_id, &to->under_info, from->under_info) < 0) {
    ErrorStackKeeper keep;
    H5Idec_ref(to->under_id);
    delete to;
    return nullptr;
  }
  return to;
}

herr_t info_cmp(int* cmp, const void* a, const void* b) {
  const auto* x = static_cast<const Info*>(a);
  const auto* y = static_cast<const Info*>(b);
  *cmp = 0;
  if (H5VLcmp_connector_cls(cmp, x->under_id, y->under_id) < 0) return -1;
  if (*cmp != 0) return 0;
  if (H5VLcmp_connector_info(cmp, x->under_id, x->under_info, y->under_info) < 0) return -1;
  if (*cmp != 0) return 0;
  if (x->text.options != y->text.options) *cmp = x->text.options < y->text.options ? -1 : 1;
  return 0;
}

herr_t info_free(void* p) {
  auto* info = static_cast<Info*>(p);
  if (!info) return 0;
  ErrorStackKeeper keep;
  herr_t r = 0;
  if (info->under_info && H5VLfree_connector_info(info->under_id, info->under_info) < 0) r = -1;
  if (info->under_id >= 0 && H5Idec_ref(info->under_id) < 0) r = -1;
  delete info;
  return r;
}

herr_t info_to_str(const void* p, char** str) {
  const auto* info = static_cast<const Info*>(p);
  InfoText text = info->text;
  H5VL_class_value_t value = -1;
  if (H5VLget_value(info->under_id, &value) < 0) return -1;
  text.under_vol = std::to_string(value);
  char* under_str = nullptr;
  if (H5VLconnector_info_to_str(info->under_info, info->under_id, &under_str) < 0) return -1;
  text.under_info = under_str ? under_str : "";
  if (under_str) H5free_memory(under_str);
  std::string s = format_info(text);
  *str = static_cast<char*>(H5allocate_memory(s.size() + 1, false));
  if (!*str) {
    push_error(__func__, H5E_CANTALLOC, "out of memory formatting connector info");
    return -1;
  }
  std::memcpy(*str, s.c_str(), s.size() + 1);
  return 0;
}

herr_t str_to_info(const char* str, void** out) {
  *out = nullptr;
  ParseResult parsed = parse_info(str ? std::string_view(str) : std::string_view());
  if (!parsed.ok) {
    std::string msg = "bad connector info string: " + parsed.error;
    push_error(__func__, H5E_CANTDECODE, msg.c_str());
    return -1;
  }
  unsigned value = 0;
  hid_t under_id;
  // HDF5's own passthrough lives inside libhdf5, not in a plugin: register it so that the
  // lookup below finds it (HDF5 does the same for HDF5_VOL_CONNECTOR=pass_through).
  if ((under_is_value(parsed.info.under_vol, &value) && value == H5VL_PASSTHRU_VALUE) ||
      parsed.info.under_vol == H5VL_PASSTHRU_NAME) {
    H5VL_pass_through_register();
  }
  if (under_is_value(parsed.info.under_vol, &value)) {
    if (value == static_cast<unsigned>(kConnectorValue)) {
      push_error(__func__, H5E_BADVALUE, "under_vol cannot be provio itself");
      return -1;
    }
    under_id =
        H5VLregister_connector_by_value(static_cast<H5VL_class_value_t>(value), H5P_VOL_INITIALIZE_DEFAULT);
  } else {
    if (parsed.info.under_vol == kConnectorName) {
      push_error(__func__, H5E_BADVALUE, "under_vol cannot be provio itself");
      return -1;
    }
    under_id = H5VLregister_connector_by_name(parsed.info.under_vol.c_str(), H5P_VOL_INITIALIZE_DEFAULT);
  }
  if (under_id < 0) {
    std::string msg = "cannot load the under connector '" + parsed.info.under_vol + "'";
    push_error(__func__, H5E_CANTREGISTER, msg.c_str());
    return -1;
  }
  void* under_info = nullptr;
  if (!parsed.info.under_info.empty() &&
      H5VLconnector_str_to_info(parsed.info.under_info.c_str(), under_id, &under_info) < 0) {
    ErrorStackKeeper keep;
    H5VLclose(under_id);
    return -1;
  }
  // provio options (level=trace;dir=…) configure the core, over the PROVIO_* environment.
  if (!parsed.info.options.empty()) store::apply_overrides(parsed.info.options);
  auto* info = new (std::nothrow) Info;
  if (!info) {
    ErrorStackKeeper keep;
    if (under_info) H5VLfree_connector_info(under_id, under_info);
    H5VLclose(under_id);
    return -1;
  }
  info->under_id = under_id;
  info->under_info = under_info;
  info->text = std::move(parsed.info);
  *out = info;
  return 0;
}

// ---------------------------------------------------------------------------------------------
// Wrap callbacks: HDF5 wraps objects it opens internally (iteration, references, H5Ocopy).

struct WrapCtx {
  hid_t under_id;
  void* under_ctx = nullptr;
  bool mpio;
};

void* get_object(const void* obj) {
  const Obj* o = as_obj(obj);
  return H5VLget_object(o->under, o->under_id);
}

herr_t get_wrap_ctx(const void* obj, void** ctx) {
  const Obj* o = as_obj(obj);
  auto* w = new (std::nothrow) WrapCtx{o->under_id, nullptr, o->mpio};
  if (!w) {
    push_error(__func__, H5E_CANTALLOC, "out of memory");
    return -1;
  }
  H5Iinc_ref(w->under_id);
  if (H5VLget_wrap_ctx(o->under, o->under_id, &w->under_ctx) < 0) {
    ErrorStackKeeper keep;
    H5Idec_ref(w->under_id);
    delete w;
    return -1;
  }
  *ctx = w;
  return 0;
}

void* wrap_object(void* obj, H5I_type_t type, void* ctx) {
  auto* w = static_cast<WrapCtx*>(ctx);
  void* under = H5VLwrap_object(obj, type, w->under_id, w->under_ctx);
  if (!under) return nullptr;
  Obj* o = new_obj(under, w->under_id);
  if (o) {
    // The file is asked from below when needed, not taken from the context: HDF5 also wraps
    // objects it reached through external links, which live in another file.
    o->type = type;
    o->mpio = w->mpio;
  }
  return o;
}

void* unwrap_object(void* obj) {
  Obj* o = as_obj(obj);
  void* under = H5VLunwrap_object(o->under, o->under_id);
  if (under) free_obj(o);
  return under;
}

herr_t free_wrap_ctx(void* ctx) {
  auto* w = static_cast<WrapCtx*>(ctx);
  ErrorStackKeeper keep;
  herr_t r = 0;
  if (w->under_ctx && H5VLfree_wrap_ctx(w->under_ctx, w->under_id) < 0) r = -1;
  if (H5Idec_ref(w->under_id) < 0) r = -1;
  delete w;
  return r;
}

// ---------------------------------------------------------------------------------------------
// Introspection.

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
  if (!info) return H5VLintrospect_get_cap_flags(nullptr, H5VL_NATIVE, flags);  // native below
  return H5VLintrospect_get_cap_flags(info->under_info, info->under_id, flags);
}

herr_t initialize(hid_t) {
  return 0;
}
herr_t terminate() {
  return 0;
}

// ---------------------------------------------------------------------------------------------
// The class struct, filled by field name: one line per slot.

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
  c.dataset_cls.read = dataset_transfer<Op::kRead, void*, &H5VLdataset_read>;
  c.dataset_cls.write = dataset_transfer<Op::kWrite, const void*, &H5VLdataset_write>;
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
  c.link_cls.copy = link_copy_move<&H5VLlink_copy, Op::kCopy, &Apis::Lcopy>;
  c.link_cls.move = link_copy_move<&H5VLlink_move, Op::kRename, &Apis::Lmove>;
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
