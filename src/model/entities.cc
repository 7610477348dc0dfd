// Entity interning (see entities.h). Storage is a fixed directory of fixed-size chunks, so an
// entry's address never changes and readers need no lock once they hold an id.
#include "model/entities.h"

#include <fcntl.h>
#include <pthread.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <initializer_list>
#include <memory>
#include <mutex>
#include <new>
#include <string>
#include <string_view>
#include <vector>

#include "model/config.h"
#include "model/errno_saver.h"
#include "model/futex_lock.h"
#include "model/iri.h"
#include "model/log.h"
#include "model/losses.h"
#include "model/version_key.h"

namespace provio::model {
namespace {

constexpr std::size_t kChunkBits = 10;  // 1024 entities (~56 KB) per chunk
constexpr std::size_t kChunkSize = std::size_t{1} << kChunkBits;
constexpr std::size_t kMaxChunks = 16384;  // hard cap: 16 M entities

// Entity ids found by hash: open addressing over 8-byte entries (hash bits << 32 | id, 0 free),
// compared against the entities themselves. No key is stored and nothing is allocated per entry,
// unlike a std::unordered_map<std::string, EntityId> (a node and a key string each). An entry is
// placed by the low bits of its tag (the hash's high 32 bits), so growing moves entries without
// reading an entity or hashing anything again: a program naming ever more objects pays no
// rehash of their names.
class IdTable {
 public:
  // The id whose hash is `h` and for which `same(id)` holds, else kNoEntity.
  template <typename Same>
  EntityId find(std::size_t h, Same&& same) const {
    if (entries_.empty()) return kNoEntity;
    std::uint64_t tag = tag_of(h);
    for (std::size_t i = home(tag); entries_[i] != 0; i = (i + 1) & mask()) {
      if ((entries_[i] & kTagMask) == tag && same(static_cast<EntityId>(entries_[i]))) {
        return static_cast<EntityId>(entries_[i]);
      }
    }
    return kNoEntity;
  }
  // Adds `id` under `h` (not present yet).
  void add(std::size_t h, EntityId id) {
    if (2 * (used_ + 1) > entries_.size()) grow();
    place(tag_of(h) | id);
    ++used_;
  }

 private:
  static constexpr std::uint64_t kTagMask = ~std::uint64_t{0xFFFFFFFF};
  static std::uint64_t tag_of(std::size_t h) { return static_cast<std::uint64_t>(h >> 32) << 32; }
  std::size_t mask() const { return entries_.size() - 1; }
  std::size_t home(std::uint64_t entry) const { return static_cast<std::size_t>(entry >> 32) & mask(); }
  void place(std::uint64_t entry) {
    std::size_t i = home(entry);
    while (entries_[i] != 0) i = (i + 1) & mask();
    entries_[i] = entry;
  }
  void grow() {
    std::vector<std::uint64_t> old(std::max<std::size_t>(1024, 2 * entries_.size()), 0);
    old.swap(entries_);
    for (std::uint64_t e : old) {
      if (e != 0) place(e);
    }
  }

  std::vector<std::uint64_t> entries_;
  std::size_t used_ = 0;
};

std::size_t hash_text(std::string_view text) {
  return std::hash<std::string_view>{}(text);
}

// A short name (an object path, an attribute name), eight bytes at a time and inline: every VOL
// call that names an object hashes one, and std::hash's out-of-line byte hash costs about three
// times as much on such names.
std::uint64_t hash_name(std::string_view name) {
  const char* p = name.data();
  std::size_t n = name.size();
  std::uint64_t h = n * 0x9E3779B97F4A7C15ull;
  for (; n >= 8; p += 8, n -= 8) {
    std::uint64_t w;
    std::memcpy(&w, p, 8);
    h = (h ^ w) * 0xBF58476D1CE4E5B9ull;
    h ^= h >> 31;
  }
  // The last 0–7 bytes without a loop: two overlapping 4-byte words, or three bytes that cover
  // a 1- to 3-byte rest (the length is already in h).
  std::uint64_t tail = 0;
  if (n >= 4) {
    std::uint32_t a, b;
    std::memcpy(&a, p, 4);
    std::memcpy(&b, p + n - 4, 4);
    tail = std::uint64_t{a} << 32 | b;
  } else if (n > 0) {
    auto byte = [&](std::size_t i) { return std::uint64_t{static_cast<unsigned char>(p[i])}; };
    tail = byte(0) << 16 | byte(n / 2) << 8 | byte(n - 1);
  }
  return (h ^ tail) * 0x94D049BB133111EBull;
}

// A child's key: its parent, which kind of child ('#' object, '@' attribute, ';' version) and
// its name (object path, attribute name, version key). The bits of the hash spread over the
// whole 64 bits: the tables use the low ones to index and the high ones as tags.
std::size_t hash_child(EntityId parent, char sep, std::string_view name) {
  std::uint64_t k = hash_name(name) ^
                    ((std::uint64_t{parent} << 8 | static_cast<unsigned char>(sep)) * 0x9E3779B97F4A7C15ull);
  k ^= k >> 31;
  k *= 0xBF58476D1CE4E5B9ull;
  return static_cast<std::size_t>(k ^ (k >> 29));
}

// The bytes of entities' texts: appended, never moved or freed (entities live as long as the
// process), so an entity's views stay valid without a lock. One allocation per 64 KiB instead of
// one or two per entity.
class TextArena {
 public:
  std::string_view copy(std::string_view a, std::string_view b = {}, std::string_view c = {}) {
    std::size_t n = a.size() + b.size() + c.size();
    if (n == 0) return {};
    char* out = reserve(n);
    char* end = out;
    for (std::string_view part : {a, b, c}) {
      if (part.empty()) continue;  // an empty view's data() may be null, which memcpy must not get
      std::memcpy(end, part.data(), part.size());
      end += part.size();
    }
    return commit(out, end);
  }
  // `text` followed by a NUL that is not in the view, so that its data() is a C string.
  std::string_view copy_with_nul(std::string_view text) {
    char* out = reserve(text.size() + 1);
    if (!text.empty()) std::memcpy(out, text.data(), text.size());
    out[text.size()] = '\0';
    return commit(out, out + text.size() + 1).substr(0, text.size());
  }
  // A value-initialised T, aligned, kept as long as the texts.
  template <typename T>
  T* make() {
    char* at = reserve(sizeof(T) + alignof(T) - 1);
    std::size_t misaligned = reinterpret_cast<std::uintptr_t>(at) % alignof(T);
    char* aligned = misaligned ? at + (alignof(T) - misaligned) : at;
    commit(at, aligned + sizeof(T));
    return new (aligned) T();
  }
  // Room for up to `max` bytes at the returned address, to be written and then kept by commit().
  char* reserve(std::size_t max) {
    if (max > left_) {
      std::size_t size = std::max(max, kBlock);
      blocks_.emplace_back(new char[size]);  // not zeroed: every byte is written before it is read
      next_ = blocks_.back().get();
      left_ = size;
    }
    return next_;
  }
  // Keeps [begin, end), written at the address reserve() gave.
  std::string_view commit(char* begin, char* end) {
    next_ = end;
    left_ -= static_cast<std::size_t>(end - begin);
    return {begin, static_cast<std::size_t>(end - begin)};
  }

 private:
  static constexpr std::size_t kBlock = 64 << 10;
  std::vector<std::unique_ptr<char[]>> blocks_;
  char* next_ = nullptr;
  std::size_t left_ = 0;
};

// Bytes for the names made after interning, by whichever thread formats first. Taken with one
// atomic add, never under a lock: a fatal signal's flush may interrupt a thread in the middle of
// making names and must not wait for it. Blocks are never freed (entities live as long as the
// process); a block's unused tail, and a text made twice by two threads at once (one loses the
// race to publish it), are the price.
class SharedArena {
 public:
  // `n` bytes aligned to `align` (at most alignof(std::max_align_t)).
  char* allocate(std::size_t n, std::size_t align) {
    std::size_t room = n + align - 1;
    for (;;) {
      Block* b = current_.load(std::memory_order_acquire);
      if (b) {
        std::size_t at = b->used.fetch_add(room, std::memory_order_relaxed);
        if (at + room <= b->size) {
          char* p = b->bytes() + at;
          return p + (align - reinterpret_cast<std::uintptr_t>(p) % align) % align;
        }
      }
      std::size_t size = std::max(room, kBlock);
      auto* fresh = new (::operator new(sizeof(Block) + size)) Block{size};
      if (!current_.compare_exchange_strong(b, fresh, std::memory_order_acq_rel)) ::operator delete(fresh);
    }
  }

 private:
  struct alignas(std::max_align_t) Block {
    std::size_t size;
    std::atomic<std::size_t> used{0};
    char* bytes() { return reinterpret_cast<char*>(this + 1); }  // `size` of them follow the header
  };
  static constexpr std::size_t kBlock = 64 << 10;
  std::atomic<Block*> current_{nullptr};
};

// An entity as the registry keeps it: what it was interned as, beside what readers see.
struct Entry : Entity {
  char sep = 0;              // the kind of child it was interned as (intern_child), 0 for the others
  bool clean = false;        // its term is its IRI in <>: no byte of the IRI needed escaping
  bool iri_indexed = false;  // in by_iri_

  void set_names(const EntityNames* names) const { names_.store(names, std::memory_order_release); }
  // Publishes `names` unless another thread did first: then the ones it made (the same text).
  const EntityNames* publish_names(const EntityNames* names) const {
    const EntityNames* first = nullptr;
    if (names_.compare_exchange_strong(first, names, std::memory_order_acq_rel, std::memory_order_acquire)) {
      return names;
    }
    return first;
  }
};

// Whether `e` is an object inside a file, interned by object_entity: its IRI is "F#/path".
bool is_hdf5_object(const Entity& e) {
  switch (e.cls) {
    case EntityClass::kGroup:
    case EntityClass::kDataset:
    case EntityClass::kDatatype:
    case EntityClass::kLink:
    case EntityClass::kObject: return e.parent != kNoEntity;
    default: return false;
  }
}

// A child's IRI in parts, from its parent, the kind of child ('#' object, '@' attribute, ';'
// version) and its name. An object's attribute is told by the owner's class, without scanning
// the owner's IRI for a '#'.
ChildIri child_iri(const Entity& parent, std::string_view parent_iri, char sep, std::string_view name) {
  switch (sep) {
    case '#': return object_iri_parts(parent_iri, name);
    case '@':
      return is_hdf5_object(parent) ? object_attribute_iri_parts(parent_iri, name)
                                    : attribute_iri_parts(parent_iri, name);
    default: return ChildIri{parent_iri, kVersionSeparator, name, ChildIri::Encode::kNone};
  }
}

// Interning takes lock_; making the names of an entity interned without them takes no lock
// (make_names), so a thread formatting never holds up an application thread's interning, nor waits
// for one.
class Registry {
 public:
  EntityId intern(EntityClass cls, EntityId parent, std::string_view iri, std::string_view label,
                  std::string_view type) {
    std::lock_guard<FutexLock> lock(lock_);
    return intern_locked(cls, parent, iri, label, type);
  }

  // An object or attribute by (parent, separator, name): found without building and hashing its
  // full IRI. `parent` is a published entity.
  EntityId intern_child(EntityClass cls, EntityId parent, char sep, std::string_view name) {
    std::size_t h = hash_child(parent, sep, name);
    std::lock_guard<FutexLock> lock(lock_);
    EntityId found = children_.find(h, [&](EntityId id) {
      const Entry& e = entry(id);
      return e.parent == parent && e.sep == sep && e.label == name;
    });
    if (found != kNoEntity) return found;
    return add_child(h, cls, parent, sep, name);
  }

  const Entity* get(EntityId id) const {
    if (id == kNoEntity || id > count_.load(std::memory_order_acquire)) return nullptr;
    return &entry(id);
  }

  // The IRI and term of a published entity interned without them (Entity::names() found none),
  // made now from its parent's. The term is written straight into the arena, `<`, the IRI's
  // parts, `>`; the IRI is its inside.
  const EntityNames& make_names(const Entry& e) {
    const Entry& parent = entry(e.parent);
    const ChildIri iri = child_iri(parent, parent.iri(), e.sep, e.label);
    char* at = later_texts_.allocate(sizeof(EntityNames) + iri.max_size() + 2, alignof(EntityNames));
    auto* names = new (at) EntityNames();
    char* begin = at + sizeof(EntityNames);
    *begin = '<';
    char* end = iri.write(begin + 1);
    *end++ = '>';
    names->term = std::string_view(begin, static_cast<std::size_t>(end - begin));
    names->iri = names->term.substr(1, names->term.size() - 2);
    return *e.publish_names(names);
  }

  std::size_t size() const { return count_.load(std::memory_order_acquire); }

  // A fork child must not inherit the lock held by another thread: it is taken before fork.
  void before_fork() { lock_.lock(); }
  void after_fork_in_parent() { lock_.unlock(); }
  void after_fork_in_child() { lock_.reset_in_child(); }

 private:
  const Entry& entry(EntityId id) const { return chunks_[id >> kChunkBits][id & (kChunkSize - 1)]; }
  // Whether `term` is `iri` in <>, nothing escaped.
  static bool clean_term(std::string_view iri, std::string_view term) {
    return term.size() == iri.size() + 2;
  }

  // intern_child() for a child not met before (hash `h`), lock_ held. Out of line, so that a
  // child found again runs a short function.
  //
  // A child whose IRI is no other entity's (unique_iri) under a parent whose IRI needed no
  // escaping: nothing looks it up by its IRI, so neither the IRI nor the term is made now.
  // make_names() makes them from (parent, sep, label) when they are first asked for (by the thread
  // formatting), or catch_up_iris() before a record's IRI is looked up. Its IRI, a clean
  // parent's and a percent-encoded name, needs no escaping either. Any other child's IRI is made
  // and interned as any IRI is.
  [[gnu::noinline]] EntityId add_child(std::size_t h, EntityClass cls, EntityId parent, char sep,
                                       std::string_view name) {
    bool limited = false;
    if (unique_iri(sep, name) && !has_records_ && entry(parent).clean) {
      Entry* e = new_entry(cls, parent, &limited);
      if (!e) return file_of(parent);
      e->clean = true;
      EntityId id = publish(*e, name, {}, sep, false);
      children_.add(h, id);
      return id;
    }
    const Entry& p = entry(parent);
    iri_.clear();
    child_iri(p, p.iri(), sep, name).append_to(iri_);
    EntityId id = intern_locked(cls, parent, iri_, name, {}, &limited, sep);
    // Past the limit, a later call may warn. An IRI met before under another key (a record's)
    // stays reachable through that IRI only.
    if (!limited && entry(id).sep == sep && entry(id).parent == parent && entry(id).label == name) {
      children_.add(h, id);
    }
    return id;
  }

  EntityId intern_locked(EntityClass cls, EntityId parent, std::string_view iri, std::string_view label,
                         std::string_view type, bool* limited = nullptr, char sep = 0) {
    if (cls == EntityClass::kRecord) {
      has_records_ = true;
      catch_up_iris();
    }
    std::size_t h = hash_text(iri);
    EntityId found = by_iri_.find(h, [&](EntityId id) { return entry(id).iri() == iri; });
    if (found != kNoEntity) return found;
    Entry* e = new_entry(cls, parent, limited);
    if (!e) return parent == kNoEntity ? kNoEntity : file_of(parent);
    auto* names = texts_.make<EntityNames>();
    if ((sep == '#' || sep == '@') && entry(parent).clean) {
      // An object's or attribute's IRI is its parent's and a percent-encoded name: nothing to
      // escape in it.
      names->term = texts_.copy("<", iri, ">");
    } else {
      term_.clear();
      append_iri_term(term_, iri);
      names->term = texts_.copy(term_);
    }
    // The IRI is the term's inside when nothing in it was escaped.
    e->clean = clean_term(iri, names->term);
    names->iri = e->clean ? names->term.substr(1, iri.size()) : texts_.copy(iri);
    e->set_names(names);
    EntityId id = publish(*e, label, type, sep, true);
    by_iri_.add(h, id);
    return id;
  }

  // The next entry, its class and parent set; nullptr (and a warning once) past the entity limit.
  // Chunks are raw storage, each entry constructed when it is handed out: a new chunk costs no
  // pass over its ~56 KB.
  Entry* new_entry(EntityClass cls, EntityId parent, bool* limited) {
    std::size_t limit = chunks_ ? std::min(config().max_entities, kChunkSize * kMaxChunks - 1) : 0;
    std::size_t n = count_.load(std::memory_order_relaxed);
    if (n >= limit) {
      if (limited) *limited = true;
      warn_once("entity-limit",
                "entity limit reached (PROVIO_MAX_ENTITIES=%zu): objects are now recorded on their "
                "files and new files are not tracked",
                limit);
      return nullptr;
    }
    std::size_t id = n + 1;  // 0 is kNoEntity
    Entry*& chunk = chunks_[id >> kChunkBits];
    if (!chunk) chunk = static_cast<Entry*>(::operator new(sizeof(Entry) * kChunkSize));  // never freed
    Entry* e = new (&chunk[id & (kChunkSize - 1)]) Entry;
    e->cls = cls;
    e->parent = parent;
    return e;
  }

  // Completes the entry new_entry() handed out and makes it visible to readers. The label is
  // copied into the arena: no allocation of its own, however long.
  EntityId publish(Entry& e, std::string_view label, std::string_view type, char sep, bool iri_indexed) {
    e.label = texts_.copy_with_nul(label);
    e.type = texts_.copy(type);
    e.sep = sep;
    e.iri_indexed = iri_indexed;
    std::size_t n = count_.load(std::memory_order_relaxed) + 1;
    count_.store(n, std::memory_order_release);
    return static_cast<EntityId>(n);
  }

  // Whether a child's IRI is its key's alone: an object under an absolute path ('#', "F#/path")
  // or an attribute of an object ('@', "F#/path@name"), their names percent-encoded. No file IRI
  // holds a '#', and a version's is "F;v=key", so no other kind of entity can have it. Only a
  // caller-made record IRI could: a record indexes every IRI first (catch_up_iris), and once
  // there is one, every IRI is looked up. The two other spellings of such IRIs, a relative object
  // path and a file's own attribute, are brought to these forms first (object_entity,
  // attribute_entity).
  static bool unique_iri(char sep, std::string_view name) {
    return sep == '@' || (sep == '#' && !name.empty() && name.front() == '/');
  }

  // Indexes by IRI the entities interned without (unique_iri), making their names, before a
  // record's IRI, which may be any, is looked up: record and child then stay one entity, as when
  // every IRI was indexed.
  void catch_up_iris() {
    std::size_t n = count_.load(std::memory_order_relaxed);
    for (std::size_t id = iris_checked_ + 1; id <= n; ++id) {
      Entry& e = chunks_[id >> kChunkBits][id & (kChunkSize - 1)];
      if (e.iri_indexed) continue;
      e.iri_indexed = true;
      by_iri_.add(hash_text(e.iri()), static_cast<EntityId>(id));
    }
    iris_checked_ = n;
  }

  FutexLock lock_;
  TextArena texts_;          // labels, types and the names made at interning; guarded by lock_
  SharedArena later_texts_;  // the names made later (make_names), by any thread
  std::string iri_;          // a child's IRI being made, reused; guarded by lock_
  std::string term_;         // an escaped term being made, reused; guarded by lock_
  IdTable by_iri_;           // every entity by its IRI; guarded by lock_
  IdTable children_;         // objects, attributes, versions by (parent, sep, name); guarded by lock_
  // Entries; a chunk is allocated when first needed. The directory (128 KiB) comes from calloc,
  // whose fresh pages the kernel hands out zeroed: as a member array it was cleared byte by byte
  // when the library loaded, at level off too. Null (no memory at load) tracks no entity.
  Entry** chunks_ = static_cast<Entry**>(std::calloc(kMaxChunks, sizeof(Entry*)));
  std::atomic<std::size_t> count_{0};
  std::size_t iris_checked_ = 0;  // entities up to this id are all in by_iri_; guarded by lock_
  bool has_records_ = false;      // a record entity was interned; guarded by lock_
};

// The registry once made; read inline by the interning calls, which otherwise paid a call and
// the function-local static's guard check each.
std::atomic<Registry*> g_registry{nullptr};

Registry& make_registry() {
  static Registry* r = [] {
    auto* reg = new Registry;  // never destroyed: exit-time flushes still read it
    pthread_atfork([] { make_registry().before_fork(); }, [] { make_registry().after_fork_in_parent(); },
                   [] { make_registry().after_fork_in_child(); });
    g_registry.store(reg, std::memory_order_release);
    return reg;
  }();
  return *r;
}
// Built as the library loads, before the program starts threads: a fork while another thread ran
// the initialiser above would leave the child waiting for it forever (hostile.fork_at_start).
[[maybe_unused]] Registry& g_registry_at_load = make_registry();

// Made at load (above); a call from another library's initialiser before that makes it then.
inline Registry& registry() {
  Registry* r = g_registry.load(std::memory_order_acquire);
  return r ? *r : make_registry();
}

}  // namespace

EntityId canonical_file_entity(std::string_view canonical, EntityClass cls) {
  if (canonical.empty() || canonical.front() != '/') return kNoEntity;
  return registry().intern(cls, kNoEntity, file_iri(canonical), canonical, {});
}

EntityId file_entity(std::string_view path, EntityClass cls) {
  std::string canonical = canonical_path(path);
  if (canonical.empty()) count_loss(Loss::kUnresolvedName);
  return canonical_file_entity(canonical, cls);
}

// object_entity and attribute_entity read their parent through the registry they intern in (one
// lookup of it, and no call to entity(), which GCC stopped inlining here).
EntityId object_entity(EntityId file, std::string_view object_path, EntityClass cls) {
  Registry& reg = registry();
  if (!reg.get(file)) return kNoEntity;
  if (object_path.empty() || object_path.front() != '/') {
    // The same IRI as the absolute path (object_iri): the same entity.
    return object_entity(file, "/" + std::string(object_path), cls);
  }
  return reg.intern_child(cls, file, '#', object_path);
}

EntityId attribute_entity(EntityId owner, std::string_view name) {
  Registry& reg = registry();
  const Entity* o = reg.get(owner);
  if (!o) return kNoEntity;
  if (o->cls == EntityClass::kFile && o->parent == kNoEntity) {
    // A file's attributes are its root group's (one IRI, attribute_iri): one entity.
    return attribute_entity(object_entity(owner, "/", EntityClass::kGroup), name);
  }
  return reg.intern_child(EntityClass::kAttribute, owner, '@', name);
}

EntityId version_entity(EntityId file, std::string_view key) {
  Registry& reg = registry();
  if (!reg.get(file)) return kNoEntity;
  EntityId id = reg.intern_child(EntityClass::kVersion, file, ';', key);
  return id == file ? kNoEntity : id;  // past the entity limit interning falls back to the file
}

EntityId current_version(EntityId file) {
  const Entity* f = entity(file);
  if (!f || f->cls != EntityClass::kFile) return kNoEntity;
  ErrnoSaver saved;
  struct stat st;
  if (syscall(SYS_newfstatat, AT_FDCWD, f->label.data(), &st, 0) != 0 || !S_ISREG(st.st_mode))
    return kNoEntity;
  return version_entity(file, version_key(st));
}

EntityId record_entity(std::string_view iri, std::string_view label, std::string_view type) {
  return registry().intern(EntityClass::kRecord, kNoEntity, iri, label, type);
}

const EntityNames& Entity::make_names(const Entity& e) {
  return registry().make_names(static_cast<const Entry&>(e));  // every Entity is an Entry's
}

const Entity* entity(EntityId id) {
  return registry().get(id);
}

EntityId file_of(EntityId id) {
  for (const Entity* e = entity(id); e; e = entity(e->parent)) {
    if (e->parent == kNoEntity) {
      return (e->cls == EntityClass::kFile || e->cls == EntityClass::kDirectory) ? id : kNoEntity;
    }
    id = e->parent;
  }
  return kNoEntity;
}

std::size_t entity_count() {
  return registry().size();
}

}  // namespace provio::model
