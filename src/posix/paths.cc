// Names → entities for the preload shim (see paths.h).
#include "posix/paths.h"

#include <fcntl.h>
#include <limits.h>
#include <sys/stat.h>
#include <unistd.h>

#include <atomic>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <mutex>
#include <vector>

#include "model/config.h"
#include "model/entities.h"
#include "model/identity.h"
#include "model/iri.h"
#include "posix/fd_table.h"
#include "posix/noise.h"
#include "store/incomplete.h"

namespace provio::posix {
namespace {

using model::EntityClass;
using model::EntityId;

// System locations whose files are software, not data (Darshan excludes a similar list). The
// dynamic loader's own opens of shared libraries never reach the shim (ld.so calls the kernel
// directly); this list keeps out what programs read through libc: locale and timezone files,
// /etc/passwd, Python's standard library, terminals, /proc.
constexpr const char* kDefaultExclusions =
    "/proc:/sys:/dev:/run:/etc:/usr:/lib:/lib32:/lib64:/libx32:/bin:/sbin";

// /dev/shm holds data users stage there by name; only MPI's segments in it are noise (noise.h).
// Kept out of the default /dev exclusion; a replaced list or an added prefix decides for itself.
constexpr const char* kDefaultKept = "/dev/shm";

struct Exclusions {
  std::vector<std::string> prefixes;  // canonical and as written, both
  std::vector<std::string> added;     // PROVIO_POSIX_EXCLUDE=+…: win over `kept`
  std::vector<std::string> kept;      // recorded although under a default prefix
  bool noise = true;                  // noise.h's rules apply
};

std::atomic<Exclusions*> g_exclusions{nullptr};
std::mutex g_exclusions_mutex;

void add_prefix(std::vector<std::string>& list, std::string p) {
  while (p.size() > 1 && p.back() == '/') p.pop_back();
  if (p.empty() || p.front() != '/') return;
  for (const std::string& q : list) {
    if (q == p) return;
  }
  list.push_back(std::move(p));
}

// Each prefix of a colon-separated list, as written and canonical (/lib is /usr/lib on
// merged-/usr systems).
void add_prefixes(std::vector<std::string>& list, const std::string& spec) {
  std::size_t start = 0;
  while (start <= spec.size()) {
    std::size_t colon = spec.find(':', start);
    if (colon == std::string::npos) colon = spec.size();
    std::string p = spec.substr(start, colon - start);
    if (!p.empty()) {
      add_prefix(list, p);
      add_prefix(list, model::canonical_path(p));
    }
    start = colon + 1;
  }
}

Exclusions* build_exclusions() {
  auto* ex = new Exclusions;
  const char* env = std::getenv("PROVIO_POSIX_EXCLUDE");
  if (env && env[0] != '+') {
    add_prefixes(ex->prefixes, env);
  } else {
    add_prefixes(ex->prefixes, kDefaultExclusions);
    add_prefixes(ex->kept, kDefaultKept);
    if (env) add_prefixes(ex->added, env + 1);
  }
  ex->noise = noise_rules_on();
  if (ex->noise) {
    for (const std::string& p : noise_prefixes()) add_prefixes(ex->prefixes, p);
  }
  // provio's own output directory: the core writes it through raw syscalls, but other programs of
  // the workflow (prov-merge, a cp -r of the tree) read it.
  const std::string dir = model::output_dir();
  if (!dir.empty()) add_prefix(ex->prefixes, model::canonical_path(dir));
  return ex;
}

const Exclusions& exclusions() {
  Exclusions* ex = g_exclusions.load(std::memory_order_acquire);
  if (ex) return *ex;
  std::lock_guard<std::mutex> lock(g_exclusions_mutex);
  ex = g_exclusions.load(std::memory_order_relaxed);
  if (!ex) {
    ex = build_exclusions();
    g_exclusions.store(ex, std::memory_order_release);
  }
  return *ex;
}

bool under(std::string_view path, std::string_view prefix) {
  if (prefix == "/") return true;
  return path.size() >= prefix.size() && path.compare(0, prefix.size(), prefix) == 0 &&
         (path.size() == prefix.size() || path[prefix.size()] == '/');
}

// A cheap test on the path as written, before any syscall: absolute, no "..", under a prefix.
bool lexically_excluded(const char* path) {
  if (path[0] != '/' || std::strstr(path, "/..")) return false;
  return excluded(path);
}

std::string readlink_fd(int fd) {
  char link[40];
  std::snprintf(link, sizeof link, "/proc/self/fd/%d", fd);
  char buf[PATH_MAX];
  ssize_t n = readlink(link, buf, sizeof buf);
  if (n <= 0 || static_cast<std::size_t>(n) >= sizeof buf) return {};
  return std::string(buf, static_cast<std::size_t>(n));
}

bool ends_with(std::string_view s, std::string_view tail) {
  return s.size() >= tail.size() && s.compare(s.size() - tail.size(), tail.size(), tail) == 0;
}

// The entity for a canonical path, or kIgnored.
std::uint32_t intern(const std::string& canon, EntityClass cls) {
  if (canon.empty()) {  // a name that cannot be resolved is never recorded as another file
    store::count_loss(store::Loss::kUnresolvedName);
    return kIgnored;
  }
  if (canon.front() != '/' || ends_with(canon, " (deleted)")) return kIgnored;
  if (excluded(canon) || !model::config().tracks(cls)) return kIgnored;
  EntityId id = model::canonical_file_entity(canon, cls);
  return id == model::kNoEntity ? kIgnored : id;
}

std::string dir_path(int dirfd) {
  if (std::uint32_t e = slot_entity(fd_table().get(dirfd))) {
    if (const model::Entity* ent = model::entity(e)) return std::string(ent->label);
  }
  return readlink_fd(dirfd);
}

// ---- per-thread name cache ----

constexpr std::size_t kCacheSize = 256;  // entries per thread, direct-mapped

struct CacheEntry {
  std::uint32_t generation = 0;  // 0: empty
  std::uint32_t value = kIgnored;
  std::size_t hash = 0;
  std::uint8_t kind = 0;
  std::string path;
};

struct NameCache {
  CacheEntry entries[kCacheSize];
};

// initial-exec, like tls_inside: looked up at every open and stat, and the shim is loaded at start.
thread_local NameCache* tls_cache __attribute__((tls_model("initial-exec"))) = nullptr;
thread_local bool tls_cache_gone __attribute__((tls_model("initial-exec"))) = false;

struct CacheOwner {
  ~CacheOwner() {
    detail::tls_last_name.path = nullptr;  // it points into the cache
    delete tls_cache;
    tls_cache = nullptr;
    tls_cache_gone = true;
  }
};
thread_local CacheOwner tls_cache_owner;

NameCache* cache() {
  if (tls_cache || tls_cache_gone) return tls_cache;
  tls_cache = new NameCache;
  (void)&tls_cache_owner;  // registers the thread-exit destructor
  static_cast<void>(tls_cache_owner);
  return tls_cache;
}

// The cache's hash of a name: eight bytes per step, inline (std::hash's out-of-line murmur costs
// three times as much, and every open and stat pays it). Every byte counts, so names that differ
// anywhere (step_0001/out, step_0002/out) fall in different entries.
std::size_t name_hash(std::string_view p) {
  constexpr std::uint64_t kMul = 0x9E3779B97F4A7C15ull;
  std::uint64_t h = p.size() * kMul;
  const char* s = p.data();
  std::size_t n = p.size();
  for (; n >= 8; s += 8, n -= 8) {
    std::uint64_t w;
    std::memcpy(&w, s, 8);
    h = (h ^ w) * kMul;
    h ^= h >> 32;
  }
  // The last eight bytes (overlapping the loop's, which is harmless) rather than a copy of a
  // variable length: a fixed load is a third of the instructions.
  std::uint64_t tail = 0;
  if (p.size() >= 8)
    std::memcpy(&tail, p.data() + p.size() - 8, 8);
  else
    std::memcpy(&tail, s, n);
  h = (h ^ tail) * kMul;
  return static_cast<std::size_t>(h ^ (h >> 29));
}

// `e` becomes the thread's last lookup (paths.h, detail::last_hit).
void remember_last(const CacheEntry& e) {
  detail::tls_last_name = {e.path.c_str(), e.path.size(), e.value, e.generation, e.kind};
}

// Looks `path` up by its hash; on a miss returns the entry to fill (or nullptr without a cache).
bool cache_find(std::string_view path, std::uint8_t kind, std::uint32_t gen, std::uint32_t* value,
                CacheEntry** slot) {
  *slot = nullptr;
  NameCache* c = cache();
  if (!c) return false;
  std::size_t h = name_hash(path) ^ kind;
  CacheEntry& e = c->entries[h & (kCacheSize - 1)];
  if (e.generation == gen && e.hash == h && e.kind == kind && e.path == path) {
    *value = e.value;
    remember_last(e);
    return true;
  }
  if (detail::tls_last_name.path == e.path.c_str()) detail::tls_last_name.path = nullptr;
  e.generation = 0;  // being refilled
  e.hash = h;
  e.kind = kind;
  *slot = &e;
  return false;
}

void cache_fill(CacheEntry* slot, std::string_view path, std::uint32_t value, std::uint32_t gen) {
  if (!slot) return;
  slot->path.assign(path.data(), path.size());
  slot->value = value;
  slot->generation = gen;
  remember_last(*slot);
}

}  // namespace

void load_exclusions() {
  Exclusions* fresh = build_exclusions();
  std::lock_guard<std::mutex> lock(g_exclusions_mutex);
  g_exclusions.store(fresh, std::memory_order_release);  // the old one is leaked: readers may hold it
}

bool excluded(std::string_view path) {
  const Exclusions& ex = exclusions();
  auto under_any = [path](const std::vector<std::string>& list) {
    for (const std::string& p : list) {
      if (under(path, p)) return true;
    }
    return false;
  };
  if (ex.noise && runtime_noise(path)) return true;
  if (under_any(ex.added)) return true;
  return under_any(ex.prefixes) && !under_any(ex.kept);
}

std::string canonical(int dirfd, const char* path, bool follow) {
  std::string full;
  if (path[0] == '/' || dirfd == AT_FDCWD) {
    full = path;
  } else {
    std::string dir = dir_path(dirfd);
    if (dir.empty() || dir.front() != '/') return {};
    full = dir + "/" + path;
  }
  if (follow) return model::canonical_path(full);
  // The last component is the thing itself (a symlink stays a symlink): resolve only its parent.
  std::size_t slash = full.rfind('/');
  std::string last = slash == std::string::npos ? full : full.substr(slash + 1);
  if (last.empty() || last == "." || last == "..") return model::canonical_path(full);
  std::string parent = slash == std::string::npos ? "." : slash == 0 ? "/" : full.substr(0, slash);
  std::string out = model::canonical_path(parent);
  if (out.empty()) return out;
  if (out != "/") out += '/';
  out += last;
  return out;
}

namespace detail {

std::atomic<std::uint32_t> g_names_generation{1};

// path_entity() for a name that is not the thread's last lookup.
EntityId path_entity_lookup(int dirfd, const char* path, bool follow, EntityClass cls) {
  if (!path || !*path) return model::kNoEntity;
  // Cache first: excluded names are cached too (as kIgnored).
  bool cacheable = detail::cacheable(dirfd, path);
  std::uint32_t value = kIgnored;
  CacheEntry* slot = nullptr;
  std::uint32_t gen = g_names_generation.load(std::memory_order_relaxed);
  std::uint8_t kind = kind_of(follow, cls);
  std::string_view name(path);
  if (!(cacheable && cache_find(name, kind, gen, &value, &slot))) {
    value = lexically_excluded(path) ? kIgnored : intern(canonical(dirfd, path, follow), cls);
    if (cacheable) cache_fill(slot, name, value, gen);
  }
  return value == kIgnored ? model::kNoEntity : value;
}

// bind_opened() for a name that is not the thread's last lookup.
EntityId bind_opened_lookup(int fd, int dirfd, const char* path, bool directory, std::uint32_t slot_flags) {
  EntityClass cls = directory ? EntityClass::kDirectory : EntityClass::kFile;
  std::uint32_t value = kIgnored;
  bool cacheable = detail::cacheable(dirfd, path);
  std::uint32_t gen = g_names_generation.load(std::memory_order_relaxed);
  // Same key as path_entity's follow lookups: open follows symlinks too.
  std::uint8_t kind = kind_of(true, cls);
  if (path && *path) {
    CacheEntry* slot = nullptr;
    std::string_view name(path);
    if (!(cacheable && cache_find(name, kind, gen, &value, &slot))) {
      if (lexically_excluded(path)) {
        value = kIgnored;
      } else {
        // The kernel's name for what was opened: one syscall, symlinks already resolved. A
        // directory opened without O_DIRECTORY is still a directory.
        std::string canon = readlink_fd(fd);
        if (canon.empty() || canon.front() != '/') canon = canonical(dirfd, path, true);
        struct stat st;
        if (!directory && fstat(fd, &st) == 0 && S_ISDIR(st.st_mode)) cls = EntityClass::kDirectory;
        value = intern(canon, cls);
      }
      if (cacheable) cache_fill(slot, name, value, gen);
    }
  }
  fd_table().set(fd, value == kIgnored ? kIgnored : value | kUsed | slot_flags);
  return value == kIgnored ? model::kNoEntity : value;
}

}  // namespace detail

namespace {

// The slot of `fd`, resolving a descriptor never seen before (inherited, or opened by a call the
// shim does not wrap) through /proc/self/fd once. Only regular files and directories are tracked.
std::uint32_t resolved_slot(int fd) {
  std::uint32_t v = fd_table().get(fd);
  if (v != kUnknown) return v;
  struct stat st;
  v = kIgnored;
  if (fstat(fd, &st) == 0 && (S_ISREG(st.st_mode) || S_ISDIR(st.st_mode))) {
    v = intern(readlink_fd(fd), S_ISDIR(st.st_mode) ? EntityClass::kDirectory : EntityClass::kFile);
  }
  fd_table().set(fd, v);
  return v;
}

}  // namespace

EntityId resolve_fd_entity(int fd) {
  std::uint32_t v = resolved_slot(fd);
  if (v == kIgnored) return model::kNoEntity;
  if (!slot_used(v)) fd_table().set(fd, v | kUsed);
  return slot_entity(v);
}

EntityId fd_entity_if_used(int fd) {
  std::uint32_t v = resolved_slot(fd);
  return slot_used(v) ? slot_entity(v) : model::kNoEntity;
}

void names_changed() {
  detail::g_names_generation.fetch_add(1, std::memory_order_relaxed);
}

std::string search_path(const char* file) {
  if (!file || !*file) return {};
  if (std::strchr(file, '/')) return file;
  const char* env = std::getenv("PATH");
  std::string path = env ? env : "/bin:/usr/bin";
  std::size_t start = 0;
  while (start <= path.size()) {
    std::size_t colon = path.find(':', start);
    if (colon == std::string::npos) colon = path.size();
    std::string dir = path.substr(start, colon - start);
    std::string candidate = (dir.empty() ? "." : dir) + "/" + file;
    struct stat st;
    if (access(candidate.c_str(), X_OK) == 0 && stat(candidate.c_str(), &st) == 0 && S_ISREG(st.st_mode)) {
      return candidate;
    }
    start = colon + 1;
  }
  return {};
}

}  // namespace provio::posix
