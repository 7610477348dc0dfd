// The short names of provio terms in raw files (docs/format.md): each raw file declares ":" as
// provio's prefix, and its entity and activity blocks spell provio's terms ":name". This table is
// their one spelling: the raw writer (store/raw_writer.cc) takes them from here, and
// tests/docs/vocabulary_test.py reads them here to check that docs/provio.ttl declares each one.
// The header blocks and workflow records spell the long form (provio:name, as vocabulary.h's
// classes do), which the test finds where it is written.
//
// Hard rule: a term here is exactly ":" and a provio: local name, nothing derived (prov-merge
// adds inverse relations and implied classes, docs/format.md).
#pragma once

#include <string_view>

#include "model/access_size.h"
#include "model/vocabulary.h"

namespace provio::model::raw {

// The prefix line every raw file declares after kTurtlePrefixes.
inline constexpr std::string_view kShortPrefix = "@prefix : <http://www.w3.org/ns/provio#> .\n";

// Entities.
inline constexpr std::string_view kPath = ":path";              // a file's or directory's path
inline constexpr std::string_view kObjectPath = ":objectPath";  // an HDF5 object's path in its file
inline constexpr std::string_view kInFile = ":inFile";
inline constexpr std::string_view kName = ":name";  // an attribute's name
inline constexpr std::string_view kAttributeOf = ":attributeOf";
inline constexpr std::string_view kVersion = ":Version";
inline constexpr std::string_view kAttribute = ":Attribute";
// An entity's number in its thread's summary file, `t:<thread>\/e<id>`: the activities whose IRI
// ends in -e<id> act on it (prov-merge adds their prov:used / prov:generated and drops it).
inline constexpr std::string_view kNumber = ":n";

// Activities.
inline constexpr std::string_view kApi = ":api";
inline constexpr std::string_view kTransfer = ":transfer";
inline constexpr std::string_view kNested = ":nested";
inline constexpr std::string_view kCoarse = ":coarse";
inline constexpr std::string_view kPartial = ":partial";  // a summary activity's part of one flush

// Measures of an activity or part.
inline constexpr std::string_view kOffset = ":offset";
inline constexpr std::string_view kCount = ":count";
inline constexpr std::string_view kBytes = ":bytes";
inline constexpr std::string_view kElapsed = ":elapsed";
inline constexpr std::string_view kStart = ":start";
inline constexpr std::string_view kSpan = ":span";

// Access sizes of a summary activity's reads (writes), per bucket of model/access_size.h, in its
// order; only non-zero buckets are written.
inline constexpr std::string_view kSizeRead[kSizeBuckets] = {
    ":size_read_0_100",   ":size_read_100_1k",  ":size_read_1k_10k", ":size_read_10k_100k",
    ":size_read_100k_1m", ":size_read_1m_4m",   ":size_read_4m_10m", ":size_read_10m_100m",
    ":size_read_100m_1g", ":size_read_1g_plus",
};
inline constexpr std::string_view kSizeWrite[kSizeBuckets] = {
    ":size_write_0_100",   ":size_write_100_1k",  ":size_write_1k_10k", ":size_write_10k_100k",
    ":size_write_100k_1m", ":size_write_1m_4m",   ":size_write_4m_10m", ":size_write_10m_100m",
    ":size_write_100m_1g", ":size_write_1g_plus",
};

// Each bucket's terms end with "_" and its name in access_size.h: one order, checked here.
constexpr bool names_bucket(std::string_view term, std::string_view bucket) {
  return term.size() > bucket.size() && term.substr(term.size() - bucket.size()) == bucket &&
         term[term.size() - bucket.size() - 1] == '_';
}
constexpr bool size_terms_match_buckets() {
  for (std::size_t b = 0; b < kSizeBuckets; ++b)
    if (!names_bucket(kSizeRead[b], kSizeBucketNames[b]) || !names_bucket(kSizeWrite[b], kSizeBucketNames[b]))
      return false;
  return true;
}
static_assert(size_terms_match_buckets(), "kSizeRead / kSizeWrite follow access_size.h's buckets");

// vocabulary.h's "provio:Read" as a raw file spells it, ":Read".
constexpr std::string_view short_term(std::string_view provio_term) {
  return provio_term.substr(provio_term.find(':'));
}

}  // namespace provio::model::raw
