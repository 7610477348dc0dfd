// The name of a file version: what a stat says about its content at one moment. The recording
// side (src/posix/versions.cc) and the tools (prov-query remake, which asks whether an input is
// still the version that was read) make it from a stat with this one function, so both agree.
//
// Hard rule: header-only and dependency-free; the key is a pure function of (mtime, size, inode).
#pragma once

#include <sys/stat.h>

#include <cstdio>
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

}  // namespace provio::model
