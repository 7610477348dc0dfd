// Runtime noise (see noise.h). Besides the names below: "/" and the temporary directory itself. provio's own
// libraries (libprovio*.so, the VOL plugin included) fall under the shared-library rule. The patterns are the
// names the runtimes make: Open MPI 4's session directory /tmp/ompi.<host>.<uid>, Open MPI 5 / PRRTE's
// prte.<host>.<uid> and mpirun's prterun.<host>.<pid>.<uid>, PMIx's pmix-<…> and pmix_dstor_<…>; ROMIO's
// <file>.locktest.<n> (its test for working fcntl locks on NFS); shared libraries (<name>.so,
// <name>.so.<version>), which the dynamic loader opens without the shim but programs also stat and scan
// (HDF5's plugin search, Python's import machinery); Open MPI's and UCX's shared-memory segments in /dev/shm.
#include "posix/noise.h"

#include <cctype>
#include <cstdlib>
#include <cstring>

namespace provio::posix {
namespace {

bool starts_with(std::string_view s, std::string_view head) {
  return s.size() >= head.size() && s.compare(0, head.size(), head) == 0;
}

bool all_digits(std::string_view s) {
  if (s.empty()) return false;
  for (char c : s)
    if (!std::isdigit(static_cast<unsigned char>(c))) return false;
  return true;
}

// "<name>.so" or "<name>.so.<digits>[.<digits>…]".
bool shared_library(std::string_view base) {
  std::size_t so = base.rfind(".so");
  while (so != std::string_view::npos && so > 0) {
    std::string_view rest = base.substr(so + 3);
    bool versions = true;
    while (!rest.empty() && versions) {
      if (rest.front() != '.') {
        versions = false;
        break;
      }
      std::size_t next = rest.find('.', 1);
      versions = all_digits(rest.substr(1, next == std::string_view::npos ? next : next - 1));
      rest = next == std::string_view::npos ? std::string_view() : rest.substr(next);
    }
    if (versions) return true;
    so = base.rfind(".so", so - 1);
  }
  return false;
}

// "<file>.locktest" or "<file>.locktest.<digits>".
bool romio_locktest(std::string_view base) {
  std::size_t at = base.rfind(".locktest");
  if (at == std::string_view::npos || at == 0) return false;
  std::string_view rest = base.substr(at + 9);
  return rest.empty() || (rest.front() == '.' && all_digits(rest.substr(1)));
}

bool session_directory(std::string_view component) {
  return starts_with(component, "ompi.") || starts_with(component, "prte.") ||
         starts_with(component, "prterun.") || starts_with(component, "pmix-") ||
         starts_with(component, "pmix_dstor") || starts_with(component, "openmpi-sessions-");
}

bool mpi_shared_memory(std::string_view base) {
  return starts_with(base, "vader_segment.") || starts_with(base, "sm_segment.") ||
         starts_with(base, "ucx_shm_") || starts_with(base, "psm2_shm.") ||
         starts_with(base, "shm-col-space-");
}

}  // namespace

bool noise_rules_on() {
  const char* v = std::getenv("PROVIO_POSIX_NOISE");
  return !(v && std::strcmp(v, "record") == 0);
}

bool runtime_noise(std::string_view path) {
  // The root and the temporary directory themselves (not what is in them): hwloc opens "/", MPI
  // runtimes look into /tmp for their session directories.
  const char* tmpdir = std::getenv("TMPDIR");
  if (path == "/" || path == "/tmp" || (tmpdir && *tmpdir && path == tmpdir)) return true;
  std::size_t slash = path.rfind('/');
  std::string_view base = slash == std::string_view::npos ? path : path.substr(slash + 1);
  if (romio_locktest(base) || shared_library(base)) return true;
  if (starts_with(path, "/dev/shm/") && mpi_shared_memory(base)) return true;
  // A session directory is recognised by its name anywhere (its parent is $TMPDIR, the MCA
  // tmpdir base, or a job-specific scratch directory).
  for (std::size_t start = 1; start < path.size();) {
    std::size_t end = path.find('/', start);
    if (end == std::string_view::npos) end = path.size();
    if (session_directory(path.substr(start, end - start))) return true;
    start = end + 1;
  }
  return false;
}

std::vector<std::string> noise_prefixes() {
  std::vector<std::string> out;
  const char* plugins = std::getenv("HDF5_PLUGIN_PATH");
  std::string spec = plugins && *plugins ? plugins : "/usr/local/hdf5/lib/plugin";
  for (std::size_t start = 0; start <= spec.size();) {
    std::size_t colon = spec.find(':', start);
    if (colon == std::string::npos) colon = spec.size();
    if (colon > start) out.push_back(spec.substr(start, colon - start));
    start = colon + 1;
  }
  return out;
}

}  // namespace provio::posix
