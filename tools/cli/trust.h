// Whose provenance the tools read (docs/security.md, "What the tools read").
//
// Hard rule: a path is untrusted when a component of it belongs to another user (neither root nor
// the user running the tool) and lies below a directory every user can write to. In /tmp or a
// scratch area anyone can plant a ./provio.db or swap a provio/local of their own, and root's
// prov-query would answer from it and prov-run merge it into root's store. The rule mirrors the
// one the capture applies to its output directory (src/store/output_dir.cc); the tools keep
// their own copy because they judge inputs, which they only read, not a directory they create.
#pragma once

#include <sys/stat.h>

#include <string>

namespace provio::cli {

struct Trust {
  bool ok = true;
  // The first directory on the path every user can write to ("" if none): what lies below it
  // must be judged too (entry_trust).
  std::string open_dir;
  std::string why;  // when !ok: "/tmp/x is owned by uid 65534 (nobody), below /tmp, …"
};

// Judges the components of `path` as named up to its first symbolic link (the link's own owner
// included), then every component of its canonical form: where its links lead.
Trust path_trust(const std::string& path);
// Judges `path`, an entry of a directory already judged `parent`; `st` is its lstat.
Trust entry_trust(const std::string& path, const struct stat& st, const Trust& parent);
// path_trust of a directory read as one whole (a store), and of every entry in it.
Trust directory_trust(const std::string& dir);

// What the tools do with an input that is not trusted.
enum class OtherOwners { kRefuse, kWarn };

}  // namespace provio::cli
