// What every provio tool does alike (docs/tools.md): --version, where readers look for provenance
// when given no input, and the exit codes. (Options: options.h.)
// Hard rule: one definition here, called from each tool's main, so the tools cannot drift apart.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "cli/trust.h"

namespace provio::cli {

// Exit codes shared by prov-merge, prov-query and prov-viz (prov-run passes on its job's).
inline constexpr int kExitOk = 0;
inline constexpr int kExitUsage = 1;  // misuse: a message and the usage on stderr
inline constexpr int kExitData = 2;   // bad or damaged input, or output that could not be written

// The exit code of a tool that answered `rc` over input that may have been damaged: what is whole
// is answered and the damage reported, and the exit code says so (prov-merge's convention).
inline int exit_code(int rc, bool input_damaged) {
  return rc == kExitOk && input_damaged ? kExitData : rc;
}

// Misuse: "TOOL: MESSAGE" (escaped, terminal.h) and `usage` on stderr; returns kExitUsage.
int usage_error(const char* tool, std::string_view usage, std::string_view message);
// A failure: "TOOL: MESSAGE" (escaped) on stderr; returns kExitData.
int fail(const char* tool, std::string_view message);

// Prints "TOOL (provio) VERSION" on stdout; returns kExitOk, or kExitData when stdout fails.
int print_version(const char* tool);

// The store prov-run keeps up to date beside ./provio (docs/prov-run.md).
inline constexpr const char* kRunStore = "provio.db";

// Inputs of a reader given none: $PROVIO_DIR when set; else ./provio.db when it holds a
// prov-merge store (what prov-run leaves); else ./provio (the core's default directory).
std::vector<std::string> default_inputs();

// The inputs of a reader and what to do with one another user could have planted (trust.h):
// `inputs` as named, or default_inputs() when none is. Named inputs are read with a warning when
// the user said --trust-inputs (`trust_named`); default ones are always refused. False when
// --trust-inputs was given without a named input (nothing given is ignored).
bool choose_inputs(std::vector<std::string>& inputs, bool trust_named, OtherOwners& other_owners);

// The option that lets named inputs of other users through, for each reader's option table.
inline constexpr const char* kTrustInputs = "--trust-inputs";

}  // namespace provio::cli
