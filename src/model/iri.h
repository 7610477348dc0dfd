// IRIs for files and HDF5 objects. One thing, one IRI, whichever layer saw it:
//   file        file:///abs/canonical/path           (percent-encoded, so any byte is safe)
//   object      file:///abs/file.h5#/group/dataset   (full path inside the file)
//   attribute   file:///abs/file.h5#/group/dataset@name
// Everything outside RFC 3986 "unreserved" (and '/' in paths) is percent-encoded, which makes
// the IRIs valid in Turtle and N-Triples for any byte sequence, non-UTF-8 included, and keeps '@'
// free as the attribute separator.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>

namespace provio::model {

// Appends `text` percent-encoded; '/' is kept when `keep_slash`.
void append_percent_encoded(std::string& out, std::string_view text, bool keep_slash);
// The same written at `out`, which has room for 3 × text.size() bytes; returns the end.
char* write_percent_encoded(char* out, std::string_view text, bool keep_slash);

// Appends `iri` as a Turtle/N-Triples IRI term "<…>", percent-encoding the bytes IRIREF forbids
// (controls, space, <>"{}|^`\). Our own IRIs contain none, so this is a plain copy for them.
void append_iri_term(std::string& out, std::string_view iri);

// Inverse of append_percent_encoded (malformed escapes are kept verbatim).
std::string percent_decode(std::string_view text);

// A child's IRI in parts (an object's, an attribute's, a version's): its parent's IRI, the
// separator, and its name, percent-encoded as `encode` says. The entity registry writes it
// straight into its own storage (write) instead of building it in a string and copying it.
struct ChildIri {
  enum class Encode : unsigned char { kNone, kName, kPath };
  std::string_view parent;
  std::string_view separator;
  std::string_view name;
  Encode encode;

  // An upper bound of the IRI's length.
  std::size_t max_size() const {
    return parent.size() + separator.size() + (encode == Encode::kNone ? 1 : 3) * name.size();
  }
  // Writes the IRI at `out` (room for max_size() bytes); returns its end.
  char* write(char* out) const;
  void append_to(std::string& out) const;
};
// `object_path` is made absolute ("#/…") when it is not.
ChildIri object_iri_parts(std::string_view file_iri, std::string_view object_path);
ChildIri attribute_iri_parts(std::string_view owner_iri, std::string_view name);
// The same for an owner known to be an HDF5 object ("F#/path"), without scanning its IRI for '#'.
ChildIri object_attribute_iri_parts(std::string_view object_iri, std::string_view name);

std::string file_iri(std::string_view canonical_path);
std::string object_iri(std::string_view file_iri, std::string_view object_path);
std::string attribute_iri(std::string_view owner_iri, std::string_view name);

// Canonical absolute form of `path` without resolving symlinks of a file that may not exist yet:
// realpath() of the longest existing prefix, the rest normalised lexically ("." and ".." removed).
// Empty when a relative path cannot be resolved (the working directory is deeper than PATH_MAX or
// was removed): such a name is never recorded as some other file.
std::string canonical_path(std::string_view path);

}  // namespace provio::model
