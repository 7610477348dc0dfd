// The process-wide table of entities: files, directories, HDF5 objects, workflow records.
// Interning happens when a layer first meets a thing (file open, object open), under a lock;
// the hot path then carries only the small EntityId. Entries never move once published, and
// what a published entry gains later (an object's IRI and term) is published atomically, so a
// writer flushing on any thread reads them without the interning lock.
#pragma once

#include <atomic>
#include <cstddef>
#include <string_view>

#include "model/event.h"
#include "model/vocabulary.h"

namespace provio::model {

// An entity's IRI and its Turtle term, both in the registry's storage (never moved or freed).
struct EntityNames {
  std::string_view iri;   // absolute IRI, already encoded
  std::string_view term;  // the IRI as a Turtle term "<…>", ready to copy into a statement
};

// Its label and type are views into the registry's storage, which never moves or frees them.
// An HDF5 object's or attribute's IRI and term are made the first time they are asked for (at
// flush time, by the thread formatting), not when it is interned on the application's path; a
// file's or record's when it is interned. Either way they are made once and kept.
struct Entity {
  EntityClass cls;
  EntityId parent;         // file of an object, owner of an attribute, kNoEntity otherwise
  std::string_view label;  // human name: path, object path or attribute name (raw bytes); a NUL follows it
  std::string_view type;   // extra rdf:type (prefixed name or <iri>) for kRecord entities, else empty

  std::string_view iri() const { return names().iri; }
  std::string_view term() const { return names().term; }
  // Safe on any thread, lock-free: the names are published with a release store (or, made later,
  // a compare-and-swap: two threads making them at once agree on the first) and read with an
  // acquire load.
  const EntityNames& names() const {
    const EntityNames* n = names_.load(std::memory_order_acquire);
    return n ? *n : make_names(*this);
  }

 protected:
  static const EntityNames& make_names(const Entity& e);
  mutable std::atomic<const EntityNames*> names_{nullptr};
};

// A file or directory by path, canonicalised (see iri.h). Makes syscalls (getcwd, realpath).
// kNoEntity (and a loss counted) when a relative path cannot be resolved.
EntityId file_entity(std::string_view path, EntityClass cls = EntityClass::kFile);
// A file by a path that is already absolute and canonical: no syscalls. kNoEntity for "".
EntityId canonical_file_entity(std::string_view canonical_path, EntityClass cls = EntityClass::kFile);
// An HDF5 object of `file` by its full path inside the file ("/group/dataset").
EntityId object_entity(EntityId file, std::string_view object_path, EntityClass cls);
// An attribute attached to `owner` (a file's root group, a group, dataset or datatype).
EntityId attribute_entity(EntityId owner, std::string_view name);
// Any other entity with a caller-made IRI: workflow records, models, … `type` is an extra
// rdf:type term written beside prov:Entity.
EntityId record_entity(std::string_view iri, std::string_view label, std::string_view type);

// A version of `file`: its content as a stat at a writer's close or a reader's first read saw it. Made
// from that stat alone (model/version_key.h), so every process names the same content alike with
// no coordination. kNoEntity when `file` is unknown or the entity limit is reached.
EntityId version_entity(EntityId file, std::string_view key);
// The version `file`'s path names now, from a stat of it: what the VOL connector names at a
// reader's open and a writer's close, alike with the preload library's names for the same content.
// kNoEntity when the path is no regular file. Keeps errno; the stat is a raw system call, so the
// preload library does not record it as the program's.
EntityId current_version(EntityId file);

// Entry for an id returned above; nullptr for kNoEntity or an unknown id.
const Entity* entity(EntityId id);
// The file an entity lives in (itself for files), kNoEntity when it has none.
EntityId file_of(EntityId id);

// Bound on the number of entities (PROVIO_MAX_ENTITIES). Past it, objects and attributes collapse
// onto their file (coarser provenance, a warning once) and new files are not tracked.
std::size_t entity_count();

}  // namespace provio::model
