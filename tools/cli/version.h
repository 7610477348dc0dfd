// The provio version the tools report (--version), generated at build time by
// cmake/ProvioVersion.cmake: "0.1.0", plus " (git <revision>)" when built from a git checkout.
#pragma once

namespace provio::cli {

extern const char* const kVersion;

}  // namespace provio::cli
