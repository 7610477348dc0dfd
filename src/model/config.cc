// Configuration parsing (see config.h).
#include "model/config.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <cerrno>
#include <charconv>
#include <cstdlib>
#include <cstring>
#include <mutex>
#include <optional>

#include "model/log.h"
#include "model/small_file.h"
#include "model/snapshot.h"

namespace provio::model {
namespace {

std::string_view trim(std::string_view s) {
  while (!s.empty() && (s.front() == ' ' || s.front() == '\t' || s.front() == '\r')) s.remove_prefix(1);
  while (!s.empty() && (s.back() == ' ' || s.back() == '\t' || s.back() == '\r')) s.remove_suffix(1);
  return s;
}

std::string upper(std::string_view s) {
  std::string out(s);
  for (char& c : out) {
    if (c >= 'a' && c <= 'z') c = static_cast<char>(c - 'a' + 'A');
  }
  return out;
}

std::optional<bool> parse_bool(std::string_view v) {
  std::string u = upper(v);
  if (u == "1" || u == "TRUE" || u == "YES" || u == "ON") return true;
  if (u == "0" || u == "FALSE" || u == "NO" || u == "OFF") return false;
  return std::nullopt;
}

// "64M", "1g", "4096", "512k": bytes.
std::optional<std::uint64_t> parse_size(std::string_view v) {
  std::uint64_t n = 0;
  auto [end, ec] = std::from_chars(v.data(), v.data() + v.size(), n);
  if (ec != std::errc() || end == v.data()) return std::nullopt;
  std::string_view unit = trim(std::string_view(end, static_cast<std::size_t>(v.data() + v.size() - end)));
  std::string u = upper(unit);
  int shift = 0;
  if (u.empty() || u == "B")
    shift = 0;
  else if (u == "K" || u == "KB" || u == "KIB")
    shift = 10;
  else if (u == "M" || u == "MB" || u == "MIB")
    shift = 20;
  else if (u == "G" || u == "GB" || u == "GIB")
    shift = 30;
  else
    return std::nullopt;
  if (shift && n > (UINT64_MAX >> shift)) return std::nullopt;
  return n << shift;
}

// Seconds, decimal: "30", "0.5".
std::optional<std::uint64_t> parse_seconds_ns(std::string_view v) {
  double s = 0;
  std::string text(v);
  char* end = nullptr;
  errno = 0;
  s = std::strtod(text.c_str(), &end);
  if (errno || end == text.c_str() || *end != '\0' || !(s >= 0) || s > 1e9) return std::nullopt;
  return static_cast<std::uint64_t>(s * 1e9);
}

class Parser {
 public:
  Parser(Config& c, ConfigWarn warn) : c_(c), warn_(std::move(warn)) {}

  // `key` without the PROVIO_ prefix, upper case. Unknown keys are ignored (other tools may
  // share a PROVIO_CONFIG file), but a known key with a bad value is reported.
  void set(const std::string& key, std::string_view raw, std::string_view where) {
    std::string_view v = trim(raw);
    auto bad = [&](const char* expected) {
      warn_(std::string(where) + key + "='" + std::string(v) + "': expected " + expected +
            ", using the default");
    };
    if (key == "LEVEL" || key == "PROV_LEVEL") {
      std::string u = upper(v);
      if (u == "OFF" || u == "NONE" || u == "0")
        c_.level = Level::kOff;
      else if (u == "SUMMARY" || u == "DEFAULT" || u == "1")
        c_.level = Level::kSummary;
      else if (u == "TRACE" || u == "ALL" || u == "2")
        c_.level = Level::kTrace;
      else
        bad("off, summary or trace");
    } else if (key == "DIR" || key == "PROV_DIR" || key == "PROV_FILE_DIR") {
      if (v.empty())
        bad("a directory");
      else
        c_.dir.assign(v);
    } else if (key == "TRACE_EVENTS") {
      size(v, c_.trace_events, 16, bad);
    } else if (key == "SUMMARY_SLOTS") {
      size(v, c_.summary_slots, 16, bad);
    } else if (key == "MAX_ENTITIES") {
      size(v, c_.max_entities, 1, bad);
    } else if (key == "MEMORY") {
      auto n = parse_size(v);
      if (n && *n >= (64u << 10))
        c_.memory_limit = *n;
      else
        bad("a size of at least 64K such as 256M");
    } else if (key == "RESERVE") {
      auto n = parse_size(v);
      if (n)
        c_.free_space_reserve = *n;
      else
        bad("a size such as 64M, or 0 for none");
    } else if (key == "FLUSH_INTERVAL" || key == "EXIT_TIMEOUT") {
      auto ns = parse_seconds_ns(v);
      if (ns)
        (key == "EXIT_TIMEOUT" ? c_.exit_timeout_ns : c_.flush_interval_ns) = *ns;
      else
        bad("seconds, such as 30 or 0.5");
    } else if (key == "COMPRESS") {
      std::string u = upper(v);
      if (u == "ZSTD" || u == "NONE" || u == "OFF")
        c_.compression = u == "ZSTD" ? Compression::kZstd : Compression::kNone;
      else
        bad("zstd or none");
    } else if (key == "WORKFLOW" || key == "WORKFLOW_NAME") {
      c_.workflow.assign(v);
    } else if (key == "CAMPAIGN") {
      c_.campaign.assign(v);
    } else if (key == "SHARE") {
      std::string u = upper(v);
      if (u == "USER" || u == "GROUP")
        c_.share_group = u == "GROUP";
      else
        bad("user or group");
    } else if (key == "REDACT") {
      redact_words(v);
    } else if (auto cls = enable_key(key)) {
      auto b = parse_bool(v);
      if (b)
        c_.track[static_cast<std::size_t>(*cls)] = *b;
      else
        bad("a boolean (1/0, true/false, yes/no, on/off)");
    }
  }

 private:
  template <typename Bad>
  void size(std::string_view v, std::size_t& out, std::size_t min, Bad& bad) {
    auto n = parse_size(v);
    if (n && *n >= min)
      out = static_cast<std::size_t>(*n);
    else
      bad(("an integer >= " + std::to_string(min)).c_str());
  }

  // "off", or more key words (comma-separated) whose values are secrets (model/redact.h).
  void redact_words(std::string_view v) {
    if (upper(v) == "OFF") {
      c_.redact = false;
      return;
    }
    while (!v.empty()) {
      std::size_t comma = v.find(',');
      std::string_view word = trim(v.substr(0, comma));
      if (!word.empty()) c_.redact_words.emplace_back(word);
      v.remove_prefix(comma == std::string_view::npos ? v.size() : comma + 1);
    }
  }

  static std::optional<EntityClass> enable_key(const std::string& key) {
    // TRACK_<CLASS> (ours) and ENABLE_<CLASS> (PROV-IO's).
    std::string_view k = key;
    if (k.rfind("TRACK_", 0) == 0)
      k.remove_prefix(6);
    else if (k.rfind("ENABLE_", 0) == 0)
      k.remove_prefix(7);
    else
      return std::nullopt;
    if (k == "FILE") return EntityClass::kFile;
    if (k == "DIRECTORY") return EntityClass::kDirectory;
    if (k == "GROUP") return EntityClass::kGroup;
    if (k == "DATASET") return EntityClass::kDataset;
    if (k == "ATTR" || k == "ATTRIBUTE") return EntityClass::kAttribute;
    if (k == "DATATYPE") return EntityClass::kDatatype;
    if (k == "LINK") return EntityClass::kLink;
    return std::nullopt;
  }

  Config& c_;
  // A copy: callers pass lambdas, and a reference would bind to a temporary std::function that
  // dies before the parser does.
  ConfigWarn warn_;
};

// Every key the environment may set, without the prefix.
constexpr const char* kEnvKeys[] = {"LEVEL",        "DIR",           "TRACE_EVENTS",    "SUMMARY_SLOTS",
                                    "MAX_ENTITIES", "MEMORY",        "RESERVE",         "FLUSH_INTERVAL",
                                    "EXIT_TIMEOUT", "WORKFLOW",      "CAMPAIGN",        "SHARE",
                                    "REDACT",       "COMPRESS",      "TRACK_FILE",      "TRACK_DIRECTORY",
                                    "TRACK_GROUP",  "TRACK_DATASET", "TRACK_ATTRIBUTE", "TRACK_DATATYPE",
                                    "TRACK_LINK"};

std::mutex g_overrides_mutex;
std::vector<std::pair<std::string, std::string>> g_overrides;  // guarded by g_overrides_mutex

std::string config_key(std::string_view raw) {
  std::string key = upper(trim(raw));
  if (key.rfind("PROVIO_", 0) == 0) key.erase(0, 7);
  return key;
}

// PROVIO_CONFIG names a regular file of at most kMaxConfigBytes. Anything else is refused before a
// byte is read: a FIFO would block the program at start, /dev/stdin would consume its input, a
// device may act on open (stat first, then open without blocking and check again).
constexpr std::size_t kMaxConfigBytes = 1u << 20;

std::string read_config_file(const char* path) {
  int saved = errno;
  struct stat st;
  std::string text;
  const char* problem = nullptr;
  long fd = -1;
  if (syscall(SYS_newfstatat, AT_FDCWD, path, &st, 0) != 0) {
    problem = std::strerror(errno);
  } else if (!S_ISREG(st.st_mode)) {
    problem = "not a regular file, not read";
  } else if ((fd = syscall(SYS_openat, AT_FDCWD, path, O_RDONLY | O_CLOEXEC | O_NONBLOCK | O_NOCTTY)) < 0) {
    problem = std::strerror(errno);
  } else if (syscall(SYS_fstat, fd, &st) != 0 || !S_ISREG(st.st_mode)) {
    problem = "not a regular file, not read";
  } else if (static_cast<std::uint64_t>(st.st_size) > kMaxConfigBytes) {
    problem = "larger than 1 MiB, not read";
  } else {
    text = read_small_file_fd(static_cast<int>(fd), kMaxConfigBytes);
  }
  if (fd >= 0) syscall(SYS_close, fd);
  if (problem) warn_once("config-file", "PROVIO_CONFIG '%s': %s; using the environment only", path, problem);
  errno = saved;
  return text;
}

Config* load_from_process() {
  auto env = [](const char* name) -> const char* { return std::getenv(name); };
  std::string text;
  if (const char* path = std::getenv("PROVIO_CONFIG"); path && *path) text = read_config_file(path);
  auto warn = [](const std::string& m) { warn_once(m.c_str(), "%s", m.c_str()); };
  Config* c = new Config(parse_config(text, env, warn));
  std::lock_guard<std::mutex> lock(g_overrides_mutex);
  Parser p(*c, warn);
  for (const auto& [key, value] : g_overrides) p.set(config_key(key), value, "VOL connector option ");
  return c;
}

}  // namespace

Snapshot<Config> detail::g_config;

Config parse_config(std::string_view file_text, const EnvLookup& env, const ConfigWarn& warn) {
  Config c;
  Parser p(c, warn);
  std::size_t line_no = 0;
  while (!file_text.empty()) {
    std::size_t nl = file_text.find('\n');
    std::string_view line = file_text.substr(0, nl);
    file_text.remove_prefix(nl == std::string_view::npos ? file_text.size() : nl + 1);
    ++line_no;
    line = trim(line);
    if (line.empty() || line.front() == '#') continue;
    std::size_t eq = line.find('=');
    std::string where = "PROVIO_CONFIG line " + std::to_string(line_no) + ": ";
    if (eq == std::string_view::npos) {
      warn(where + "'" + std::string(line) + "' is not key=value");
      continue;
    }
    p.set(config_key(line.substr(0, eq)), line.substr(eq + 1), where);
  }
  for (const char* k : kEnvKeys) {
    std::string name = std::string("PROVIO_") + k;
    if (const char* v = env(name.c_str())) p.set(k, v, "PROVIO_");
  }
  return c;
}

const Config& detail::load_config() {
  return g_config.get(load_from_process);
}

void set_overrides(std::vector<std::pair<std::string, std::string>> settings) {
  {
    std::lock_guard<std::mutex> lock(g_overrides_mutex);
    g_overrides = std::move(settings);
  }
  reload_config();
}

void reload_config() {
  detail::g_config.update(load_from_process, [](const Config&) { return load_from_process(); });
}

}  // namespace provio::model
