// Temporaries beside an output (see temporary.h).
#include "graph/temporary.h"

#include <dirent.h>
#include <signal.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <charconv>
#include <climits>
#include <filesystem>
#include <string_view>

namespace provio::rdf {
namespace {

std::string host_name() {
  char host[HOST_NAME_MAX + 1] = {};
  if (::gethostname(host, sizeof host - 1) != 0) return "host";
  std::string name = host;
  for (char& c : name)
    if (c == '/' || c == '-') c = '_';  // '-' separates the fields of the name
  return name.empty() ? "host" : name;
}

}  // namespace

bool process_gone(std::string_view digits) {
  pid_t pid = 0;
  auto r = std::from_chars(digits.data(), digits.data() + digits.size(), pid);
  if (r.ec != std::errc() || r.ptr != digits.data() + digits.size() || pid <= 0) return false;
  return ::kill(pid, 0) != 0 && errno == ESRCH;
}

std::string temporary_template(const std::string& prefix) {
  return prefix + ".tmp-" + host_name() + "-" + std::to_string(::getpid()) + "-XXXXXX";
}

void remove_dead_temporaries(const std::string& prefix) {
  std::size_t slash = prefix.rfind('/');
  std::string dir = slash == std::string::npos ? "." : prefix.substr(0, slash + 1);
  // Ours on this host: "BASE.tmp-HOST-", then the pid, '-' and mkstemp's six characters.
  std::string mine = prefix.substr(slash == std::string::npos ? 0 : slash + 1) + ".tmp-" + host_name() + "-";
  DIR* d = ::opendir(dir.c_str());
  if (!d) return;
  while (dirent* e = ::readdir(d)) {
    std::string_view name = e->d_name;
    if (name.size() < mine.size() + 8 || name.compare(0, mine.size(), mine) != 0) continue;
    std::string_view rest = name.substr(mine.size());
    if (rest[rest.size() - 7] != '-' || !process_gone(rest.substr(0, rest.size() - 7))) continue;
    std::string path = (slash == std::string::npos ? "" : dir) + std::string(name);
    struct stat st;
    if (::lstat(path.c_str(), &st) != 0 || st.st_uid != ::geteuid()) continue;
    std::error_code ec;
    if (S_ISDIR(st.st_mode))
      std::filesystem::remove_all(path, ec);
    else if (S_ISREG(st.st_mode))
      ::unlink(path.c_str());
  }
  ::closedir(d);
}

}  // namespace provio::rdf
