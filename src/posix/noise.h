// Files no user means as data, left out of the record by default beside the exclusion prefixes
// (docs/posix.md, "Exclusions"): provio's own libraries, HDF5's plugin directories, MPI runtime
// session files, ROMIO's lock-test files, shared libraries, and MPI's shared-memory segments in
// /dev/shm (the rest of /dev/shm is data a user opens by name, and is recorded), and the root and
// temporary directories themselves (runtimes open and scan them; what is in them is recorded).
//
// Hard rule: decided from the canonical path alone, once per name (when a name is first met).
// PROVIO_POSIX_NOISE=record turns the rules off (the prefixes of PROVIO_POSIX_EXCLUDE still apply).
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace provio::posix {

// Whether the runtime-noise rules apply (PROVIO_POSIX_NOISE is not "record"). Read from the
// environment at each call: the caller (paths.cc's exclusion list) keeps the answer.
bool noise_rules_on();

// A path the rules leave out: an MPI session directory entry, a ROMIO lock-test file, a shared
// library, an MPI shared-memory segment, the root directory and the temporary directory itself.
bool runtime_noise(std::string_view canonical_path);

// Directories to exclude whole: those of HDF5_PLUGIN_PATH, or HDF5's default plugin directory.
std::vector<std::string> noise_prefixes();

}  // namespace provio::posix
