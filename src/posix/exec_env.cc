// Child environments for the exec wrappers (see exec_env.h).
#include "posix/exec_env.h"

#include <cstring>

#include "model/identity.h"

namespace provio::posix {

std::size_t env_count(char* const* env) {
  std::size_t n = 0;
  if (env) {
    while (env[n]) ++n;
  }
  return n;
}

bool parent_run_entry(char* entry) {
  const std::string& iri = model::identity().exec_iri;
  std::size_t var = sizeof kParentRunVar - 1;
  if (iri.empty() || var + 1 + iri.size() + 1 > kEntrySize) return false;
  std::memcpy(entry, kParentRunVar, var);
  entry[var] = '=';
  std::memcpy(entry + var + 1, iri.data(), iri.size());
  entry[var + 1 + iri.size()] = '\0';
  return true;
}

void child_env(char** out, char* const* env, const char* entry) {
  std::size_t var = sizeof kParentRunVar - 1;
  std::size_t n = 0;
  for (std::size_t i = 0, count = env_count(env); i < count; ++i) {
    if (std::strncmp(env[i], kParentRunVar, var) == 0 && env[i][var] == '=') continue;
    out[n++] = env[i];
  }
  out[n++] = const_cast<char*>(entry);
  out[n] = nullptr;
}

}  // namespace provio::posix
