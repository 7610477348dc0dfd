// The name of a file version: what a stat says about its content at one moment. The recording
// side (src/posix/versions.cc) and the tools (prov-query remake, which asks whether an input is
// still the version that was read) make it from a stat with this one function, so both agree.
//
// Hard rule: header-only and dependency-free; the key is a pure function of (mtime, size, inode).
#pragma once

#include <sys/stat.h>

#include <cstdio>
#include <cstdlib>
#include <string>
#include <string_view>

namespace provio::model {

// A version's IRI is its file's IRI + ";v=" + key. A file IRI never holds a bare ';' (paths are
// percent-encoded), so the separator is unambiguous.
inline constexpr std::string_view kVersionSeparator = ";v=";

// "<mtime seconds>.<nanoseconds, 9 digits>-<size>-<inode>".
inline std::string version_key(const struct stat& st) {
  char buf[80];
  int n = std::snprintf(buf, sizeof buf, "%lld.%09ld-%llu-%llu", static_cast<long long>(st.st_mtim.tv_sec),
                        static_cast<long>(st.st_mtim.tv_nsec), static_cast<unsigned long long>(st.st_size),
                        static_cast<unsigned long long>(st.st_ino));
  return n > 0 ? std::string(buf, static_cast<std::size_t>(n)) : std::string();
}

// What a key says about its version: modification time and inode (the size is not needed).
struct VersionStamp {
  long long sec = 0;
  long nsec = 0;
  unsigned long long inode = 0;
  bool operator<=(const VersionStamp& o) const { return sec < o.sec || (sec == o.sec && nsec <= o.nsec); }
};

// The inverse of version_key() on the text after kVersionSeparator; false if it is not one.
inline bool parse_version_key(std::string_view key, VersionStamp& out) {
  std::string text(key);  // strto* need a terminator
  char* end = nullptr;
  const char* p = text.c_str();
  out.sec = std::strtoll(p, &end, 10);
  if (end == p || *end != '.') return false;
  p = end + 1;
  out.nsec = std::strtol(p, &end, 10);
  if (end != p + 9 || *end != '-') return false;
  p = end + 1;
  std::strtoull(p, &end, 10);  // size
  if (end == p || *end != '-') return false;
  p = end + 1;
  out.inode = std::strtoull(p, &end, 10);
  return end != p && *end == '\0';
}

}  // namespace provio::model
