// Naming HDF5 objects as provenance entities (see naming.h).
#include "vol/naming.h"

#include <cstring>
#include <mutex>
#include <string_view>
#include <unordered_map>

#include "model/errno_saver.h"
#include "vol/error_stack.h"
#include "vol/native_lookup.h"
#include "vol/path.h"

namespace provio::vol {

using model::EntityId;
using model::kNoEntity;

namespace {

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

// The last absolute name this thread looked up and its file: a program opening objects works in
// one file at a time, and this answers it without the lock and the hash of the cache below.
// Plain data, so the plugin can be unloaded while threads live on.
struct LastFileName {
  static constexpr std::size_t kMax = 256;
  char name[kMax];
  std::size_t len = 0;
  EntityId file = kNoEntity;
};
thread_local LastFileName tls_last_file;

// The name of an object's file as the connector below gives it (H5Fget_name's: as the file was
// opened, so possibly relative).
class NameBelow {
 public:
  // False when the connector below cannot say.
  bool ask(Obj* o) {
    char* buf = stack_;
    std::size_t len = 0;
    H5VL_file_get_args_t args{};
    args.op_type = H5VL_FILE_GET_NAME;
    args.args.get_name.type = o->type;
    args.args.get_name.buf_size = sizeof stack_;
    args.args.get_name.buf = buf;
    args.args.get_name.file_name_len = &len;
    if (!get(o, args)) return false;
    if (len >= sizeof stack_) {
      heap_.assign(len + 1, '\0');
      args.args.get_name.buf_size = heap_.size();
      args.args.get_name.buf = buf = heap_.data();
      if (!get(o, args)) return false;
    }
    name_ = std::string_view(buf, len);
    return true;
  }
  std::string_view name() const { return name_; }

 private:
  // The native connector answers without entering the API (native_lookup.h); any other, through
  // the API, quietly.
  static bool get(Obj* o, H5VL_file_get_args_t& args) {
    if (o->native_under && native_file_name(o->under, &args)) return true;
    QuietLookup quiet(!o->native_under);
    return H5VLfile_get(o->under, o->under_id, &args, H5P_DATASET_XFER_DEFAULT, nullptr) >= 0;
  }

  char stack_[512];
  std::string heap_;
  std::string_view name_;
};

// The file of an open name, interned through a small cache of absolute names so that the common
// case is one lookup and no path canonicalisation. A relative name means another file after
// chdir, so it is resolved each time.
EntityId file_of_open_name(std::string_view name) {
  if (name.empty() || name.front() != '/') {
    model::ErrnoSaver errno_saver;
    return model::file_entity(name);
  }
  LastFileName& last = tls_last_file;
  if (last.file != kNoEntity && name == std::string_view(last.name, last.len)) return last.file;
  EntityId f = kNoEntity;
  {
    static std::mutex mutex;
    static auto* cache = new std::unordered_map<std::string, EntityId>;  // open name -> file; never freed
    static auto* probe = new std::string;  // the key looked up, reused: no allocation per lookup
    std::lock_guard<std::mutex> lock(mutex);
    probe->assign(name);
    auto found = cache->find(*probe);
    if (found != cache->end()) {
      f = found->second;
    } else {
      model::ErrnoSaver errno_saver;
      f = model::file_entity(name);
      if (cache->size() < 4096) cache->emplace(*probe, f);
    }
  }
  if (name.size() <= LastFileName::kMax) {
    std::memcpy(last.name, name.data(), name.size());
    last.len = name.size();
    last.file = f;
  }
  return f;
}

}  // namespace

EntityId file_named_below(Obj* o) {
  if (o->type == H5I_BADID) return kNoEntity;
  NameBelow below;
  return below.ask(o) ? file_of_open_name(below.name()) : kNoEntity;
}

EntityId file_named_below(Obj* o, Obj* parent) {
  if (o->type == H5I_BADID) return kNoEntity;
  NameBelow mine, parents;
  if (!mine.ask(o)) return kNoEntity;
  // A relative name is the parent's open file when the parent names the same: the parent's entity,
  // named when that file was opened. It is then not resolved again (3.7 k instructions, and after
  // a chdir another file's name). An absolute name is answered by the caches without a second ask.
  bool relative = mine.name().empty() || mine.name().front() != '/';
  if (relative && parent->file != kNoEntity && parent->type != H5I_BADID && parents.ask(parent) &&
      parents.name() == mine.name()) {
    return parent->file;
  }
  return file_of_open_name(mine.name());
}

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

EntityId name_entity(Obj* o) {
  EntityId f = file_of(o);
  if (f == kNoEntity) return kNoEntity;
  if (o->type == H5I_FILE) return o->entity = f;
  if (o->type == H5I_ATTR || o->type == H5I_BADID) return kNoEntity;
  const std::string& p = path_of(o);
  if (p.empty()) return kNoEntity;
  return o->entity = model::object_entity(f, p, class_of(o->type));
}

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

EntityId located(Obj* parent, const H5VL_loc_params_t* loc, model::EntityClass cls) {
  if (!parent || !loc) return kNoEntity;
  if (loc->type == H5VL_OBJECT_BY_SELF) return entity_of(parent);
  if (loc->type != H5VL_OBJECT_BY_NAME || !loc->loc_data.loc_by_name.name) return kNoEntity;
  EntityId f = file_of(parent);
  const std::string& base = path_of(parent);
  if (f == kNoEntity || base.empty()) return kNoEntity;
  return model::object_entity(f, join_path(base, loc->loc_data.loc_by_name.name), cls);
}

}  // namespace provio::vol
