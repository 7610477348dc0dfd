// exec and spawn (exec_calls.h): the program as an entity and execl's argument list.
#include "posix/exec_calls.h"

#include <unistd.h>

#include "model/entities.h"
#include "model/iri.h"

namespace provio::posix {
namespace {

constexpr std::size_t kMaxArgs = 1 << 16;  // longer execl lists are cut there

}  // namespace

// Exclusions do not apply: which program ran is provenance even when it lives in /usr/bin.
EntityId program_entity(const std::string& path) {
  // The record is made before the real call (a successful exec does not return). Callers that do
  // their own PATH search (Python's subprocess) try names that do not exist: no record for those.
  if (path.empty() || access(path.c_str(), X_OK) != 0) return kNoEntity;
  return model::canonical_file_entity(model::canonical_path(path), EntityClass::kFile);
}

std::size_t count_args(va_list ap) {
  va_list count;
  va_copy(count, ap);
  std::size_t argc = 1;
  while (argc < kMaxArgs && va_arg(count, char*)) ++argc;
  va_end(count);
  return argc;
}

char* const* collect_args(char** argv, const char* arg0, std::size_t argc, va_list ap, bool with_env) {
  argv[0] = const_cast<char*>(arg0);
  for (std::size_t i = 1; i < argc; ++i) argv[i] = va_arg(ap, char*);
  argv[argc] = nullptr;
  if (!with_env) return nullptr;
  (void)va_arg(ap, char*);  // the terminating null pointer
  return va_arg(ap, char* const*);
}

}  // namespace provio::posix
