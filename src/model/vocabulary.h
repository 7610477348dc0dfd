// The PROV-IO+ vocabulary as the writer spells it: the classes of activities and entities, and
// the Turtle prefixes every provio file declares. docs/provio.ttl declares each term; keep the
// two in step (tests/model/vocabulary_test.cc checks that every name used here is declared there).
#pragma once

#include <cstdint>
#include <string_view>

namespace provio::model {

// Namespace IRIs. provio: keeps PROV-IO's IRI so that queries written for PROV-IO+ run unchanged.
inline constexpr std::string_view kProvNs = "http://www.w3.org/ns/prov#";
inline constexpr std::string_view kProvioNs = "http://www.w3.org/ns/provio#";
inline constexpr std::string_view kXsdNs = "http://www.w3.org/2001/XMLSchema#";
inline constexpr std::string_view kRdfNs = "http://www.w3.org/1999/02/22-rdf-syntax-ns#";
inline constexpr std::string_view kRdfsNs = "http://www.w3.org/2000/01/rdf-schema#";

// The header every provio Turtle file starts with.
inline constexpr std::string_view kTurtlePrefixes =
    "@prefix rdf: <http://www.w3.org/1999/02/22-rdf-syntax-ns#> .\n"
    "@prefix rdfs: <http://www.w3.org/2000/01/rdf-schema#> .\n"
    "@prefix xsd: <http://www.w3.org/2001/XMLSchema#> .\n"
    "@prefix prov: <http://www.w3.org/ns/prov#> .\n"
    "@prefix provio: <http://www.w3.org/ns/provio#> .\n";

// What an I/O call did. Each maps to a provio: activity class and to the relation from the
// entity to the activity (provio:wasReadBy, …).
enum class Op : std::uint8_t {
  kCreate,
  kOpen,
  kRead,
  kWrite,
  kFlush,
  kClose,
  kRename,
  kDelete,
  kModify,  // metadata change: set_extent, truncate, attribute rename, …
  kCopy,    // object / link copy: the other entity is derived from this one
  kAccess,  // metadata lookup without opening: stat, exists, mmap of a file, …
  kCount_
};

// What kind of thing an entity is.
enum class EntityClass : std::uint8_t {
  kFile,
  kDirectory,
  kGroup,
  kDataset,
  kAttribute,
  kDatatype,
  kLink,
  kObject,   // an HDF5 object whose kind the caller does not know
  kRecord,   // a workflow-level record (configuration, metric, model, …): class given by its IRI
  kVersion,  // one version of a file (prov:specializationOf the file): docs/format.md, "Versions"
  kCount_
};

// Event flags: how a transfer happened. Part of the summary key, so collective and independent
// writes of one dataset stay separate activities.
enum EventFlag : std::uint8_t {
  kFlagNone = 0,
  kFlagCollective = 1u << 0,
  kFlagIndependent = 1u << 1,
  kFlagNested = 1u << 2,  // a POSIX call made by HDF5 inside a VOL callback
  // The thread's activity table was full: this activity aggregates calls on any object of its
  // entity's file (provio:coarse true in the graph), so memory stays bounded.
  kFlagCoarse = 1u << 3,
};

struct OpTerms {
  std::string_view activity_class;  // provio:Read
  std::string_view relation;        // provio:wasReadBy (entity → activity)
  bool generates;                   // prov:wasGeneratedBy instead of prov:used
};

constexpr OpTerms terms(Op op) {
  switch (op) {
    case Op::kCreate: return {"provio:Create", "provio:wasCreatedBy", true};
    case Op::kOpen: return {"provio:Open", "provio:wasOpenedBy", false};
    case Op::kRead: return {"provio:Read", "provio:wasReadBy", false};
    case Op::kWrite: return {"provio:Write", "provio:wasWrittenBy", true};
    case Op::kFlush: return {"provio:Flush", "provio:wasFlushedBy", false};
    case Op::kClose: return {"provio:Close", "provio:wasClosedBy", false};
    case Op::kRename: return {"provio:Rename", "provio:wasRenamedBy", false};
    case Op::kDelete: return {"provio:Delete", "provio:wasDeletedBy", false};
    case Op::kModify: return {"provio:Modify", "provio:wasModifiedBy", true};
    case Op::kCopy: return {"provio:Copy", "provio:wasCopiedBy", false};
    case Op::kAccess: return {"provio:Access", "provio:wasAccessedBy", false};
    case Op::kCount_: break;
  }
  return {"provio:Modify", "provio:wasModifiedBy", true};
}

constexpr std::string_view class_term(EntityClass c) {
  switch (c) {
    case EntityClass::kFile: return "provio:File";
    case EntityClass::kDirectory: return "provio:Directory";
    case EntityClass::kGroup: return "provio:Group";
    case EntityClass::kDataset: return "provio:Dataset";
    case EntityClass::kAttribute: return "provio:Attribute";
    case EntityClass::kDatatype: return "provio:Datatype";
    case EntityClass::kLink: return "provio:Link";
    case EntityClass::kObject: return "provio:Object";
    case EntityClass::kVersion: return "provio:Version";
    case EntityClass::kRecord:
    case EntityClass::kCount_: break;
  }
  return "prov:Entity";
}

// With a version as the other entity: a close, or the flush of a writer's descriptors at exit,
// generated the version (a write epoch ends there); any other call used it.
constexpr bool generates_version(Op op) {
  return op == Op::kClose || op == Op::kFlush;
}

// Short lower-case names, used in configuration keys and activity IRIs.
constexpr std::string_view op_name(Op op) {
  return terms(op).activity_class.substr(7);
}

}  // namespace provio::model
