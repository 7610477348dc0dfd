// Entity interning (see entities.h). Storage is a fixed directory of fixed-size chunks, so an
// entry's address never changes and readers need no lock once they hold an id.
#include "model/entities.h"

#include <pthread.h>

#include <array>
#include <atomic>
#include <memory>
#include <mutex>
#include <unordered_map>

#include "model/config.h"
#include "model/iri.h"
#include "model/log.h"
#include "model/version_key.h"
#include "store/incomplete.h"

namespace provio::model {
namespace {

constexpr std::size_t kChunkBits = 12;
constexpr std::size_t kChunkSize = std::size_t{1} << kChunkBits;
constexpr std::size_t kMaxChunks = 4096;  // hard cap: 16 M entities

class Registry {
 public:
  EntityId intern(EntityClass cls, EntityId parent, std::string iri, std::string_view label,
                  std::string_view type) {
    std::lock_guard<std::mutex> lock(mutex_);
    return intern_locked(cls, parent, std::move(iri), label, type);
  }

  // An object or attribute by (parent, separator, name): found without building and hashing its
  // full IRI (the IRI is made once, when the entity is new). `iri_of` makes it.
  template <typename MakeIri>
  EntityId intern_child(EntityClass cls, EntityId parent, char sep, std::string_view name, MakeIri iri_of) {
    std::string key(reinterpret_cast<const char*>(&parent), sizeof parent);
    key += sep;
    key += name;
    std::lock_guard<std::mutex> lock(mutex_);
    auto found = children_.find(key);
    if (found != children_.end()) return found->second;
    bool limited = false;
    EntityId id = intern_locked(cls, parent, iri_of(), name, {}, &limited);
    if (!limited) children_.emplace(std::move(key), id);  // past the limit, a later call may warn
    return id;
  }

  const Entity* get(EntityId id) const {
    if (id == kNoEntity || id > count_.load(std::memory_order_acquire)) return nullptr;
    return &(*chunks_[id >> kChunkBits])[id & (kChunkSize - 1)];
  }

  std::size_t size() const { return count_.load(std::memory_order_acquire); }
  void lock() { mutex_.lock(); }
  void unlock() { mutex_.unlock(); }

 private:
  EntityId intern_locked(EntityClass cls, EntityId parent, std::string iri, std::string_view label,
                         std::string_view type, bool* limited = nullptr) {
    auto found = index_.find(iri);
    if (found != index_.end()) return found->second;
    std::size_t limit = std::min(config().max_entities, kChunkSize * kMaxChunks - 1);
    std::size_t n = count_.load(std::memory_order_relaxed);
    if (n >= limit) {
      if (limited) *limited = true;
      warn_once("entity-limit",
                "entity limit reached (PROVIO_MAX_ENTITIES=%zu): objects are now recorded on their "
                "files and new files are not tracked",
                limit);
      return parent == kNoEntity ? kNoEntity : file_of(parent);
    }
    EntityId id = static_cast<EntityId>(n + 1);  // 0 is kNoEntity
    auto& chunk = chunks_[id >> kChunkBits];
    if (!chunk) chunk = std::make_unique<std::array<Entity, kChunkSize>>();
    std::string term;
    append_iri_term(term, iri);
    (*chunk)[id & (kChunkSize - 1)] =
        Entity{cls, parent, iri, std::move(term), std::string(label), std::string(type)};
    index_.emplace(std::move(iri), id);
    count_.store(n + 1, std::memory_order_release);
    return id;
  }

  std::mutex mutex_;
  std::unordered_map<std::string, EntityId> index_;     // guarded by mutex_
  std::unordered_map<std::string, EntityId> children_;  // (parent, sep, name) → id; guarded by mutex_
  std::array<std::unique_ptr<std::array<Entity, kChunkSize>>, kMaxChunks> chunks_;
  std::atomic<std::size_t> count_{0};
};

Registry& registry() {
  static Registry* r = [] {
    auto* reg = new Registry;  // never destroyed: exit-time flushes still read it
    // A fork child must not inherit the mutex locked by another thread.
    pthread_atfork([] { registry().lock(); }, [] { registry().unlock(); }, [] { registry().unlock(); });
    return reg;
  }();
  return *r;
}
// Built as the library loads, before the program starts threads: a fork while another thread ran
// the initialiser above would leave the child waiting for it forever (hostile.fork_at_start).
[[maybe_unused]] Registry& g_registry_at_load = registry();

}  // namespace

EntityId canonical_file_entity(std::string_view canonical, EntityClass cls) {
  if (canonical.empty() || canonical.front() != '/') return kNoEntity;
  return registry().intern(cls, kNoEntity, file_iri(canonical), canonical, {});
}

EntityId file_entity(std::string_view path, EntityClass cls) {
  std::string canonical = canonical_path(path);
  if (canonical.empty()) store::count_loss(store::Loss::kUnresolvedName);
  return canonical_file_entity(canonical, cls);
}

EntityId object_entity(EntityId file, std::string_view object_path, EntityClass cls) {
  const Entity* f = entity(file);
  if (!f) return kNoEntity;
  return registry().intern_child(cls, file, '#', object_path,
                                 [&] { return object_iri(f->iri, object_path); });
}

EntityId attribute_entity(EntityId owner, std::string_view name) {
  const Entity* o = entity(owner);
  if (!o) return kNoEntity;
  return registry().intern_child(EntityClass::kAttribute, owner, '@', name,
                                 [&] { return attribute_iri(o->iri, name); });
}

EntityId version_entity(EntityId file, std::string_view key) {
  const Entity* f = entity(file);
  if (!f) return kNoEntity;
  EntityId id = registry().intern_child(EntityClass::kVersion, file, ';', key, [&] {
    return f->iri + std::string(kVersionSeparator) + std::string(key);
  });
  return id == file ? kNoEntity : id;  // past the entity limit interning falls back to the file
}

EntityId record_entity(std::string_view iri, std::string_view label, std::string_view type) {
  return registry().intern(EntityClass::kRecord, kNoEntity, std::string(iri), label, type);
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
