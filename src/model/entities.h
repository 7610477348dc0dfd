// The process-wide table of entities: files, directories, HDF5 objects, workflow records.
// Interning happens when a layer first meets a thing (file open, object open), under a mutex;
// the hot path then carries only the small EntityId. Entries never change or move once
// published, so a writer flushing on any thread reads them without locking.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>

#include "model/event.h"
#include "model/vocabulary.h"

namespace provio::model {

// Its IRI, term and type are views into the registry's storage, which never moves or frees them.
struct Entity {
  EntityClass cls;
  EntityId parent;        // file of an object, owner of an attribute, kNoEntity otherwise
  std::string_view iri;   // absolute IRI, already encoded
  std::string_view term;  // the IRI as a Turtle term "<…>", ready to copy into a statement
  std::string label;      // human name: path, object path or attribute name (raw bytes)
  std::string_view type;  // extra rdf:type (prefixed name or <iri>) for kRecord entities, else empty
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

// Entry for an id returned above; nullptr for kNoEntity or an unknown id.
const Entity* entity(EntityId id);
// The file an entity lives in (itself for files), kNoEntity when it has none.
EntityId file_of(EntityId id);

// Bound on the number of entities (PROVIO_MAX_ENTITIES). Past it, objects and attributes collapse
// onto their file (coarser provenance, a warning once) and new files are not tracked.
std::size_t entity_count();

}  // namespace provio::model
