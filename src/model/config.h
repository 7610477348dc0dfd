// Run-time configuration: PROVIO_* environment variables, over an optional key=value file named
// by PROVIO_CONFIG (keys with or without the PROVIO_ prefix; PROV-IO's own keys such as
// PROV_LEVEL, ENABLE_FILE, ENABLE_DATASET are accepted). A bad value is reported once, naming the
// key, and the default is kept. docs/configuration.md lists every key.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "model/snapshot.h"
#include "model/vocabulary.h"

namespace provio::model {

enum class Level : std::uint8_t { kOff, kSummary, kTrace };
// How raw files are written: zstd frames ("<stem>.ttl.zst") or plain Turtle (docs/format.md).
enum class Compression : std::uint8_t { kNone, kZstd };

struct Config {
  Level level = Level::kSummary;
  std::string dir;                                   // PROVIO_DIR as given; model::output_dir() resolves it
  std::size_t trace_events = 8192;                   // per-thread trace buffer, in events
  std::size_t summary_slots = 4096;                  // per-thread summary table, in activities
  std::uint64_t flush_interval_ns = 30'000'000'000;  // time bound between flushes
  std::size_t memory_limit = 256u << 20;             // bytes for all thread buffers of the process
  std::size_t max_entities = 1u << 20;               // distinct files + objects tracked per process
  std::size_t free_space_reserve = 64u << 20;        // bytes the output's file system keeps free
  std::uint64_t exit_timeout_ns = 30'000'000'000;    // final flush at _exit / a signal; 0: none
  Compression compression = Compression::kZstd;      // PROVIO_COMPRESS=zstd|none
  std::string workflow;                              // PROVIO_WORKFLOW
  std::string campaign;                              // PROVIO_CAMPAIGN
  bool share_group = false;                          // PROVIO_SHARE=group: dirs 0750, files 0640
  bool redact = true;                                // PROVIO_REDACT=off turns redaction off
  std::vector<std::string> redact_words;             // PROVIO_REDACT: more secret key words
  // Which entity classes are recorded (PROV-IO's ENABLE_* keys); all on by default.
  std::array<bool, static_cast<std::size_t>(EntityClass::kCount_)> track = make_all_tracked();

  bool tracks(EntityClass c) const { return track[static_cast<std::size_t>(c)]; }

 private:
  static constexpr std::array<bool, static_cast<std::size_t>(EntityClass::kCount_)> make_all_tracked() {
    std::array<bool, static_cast<std::size_t>(EntityClass::kCount_)> t{};
    for (bool& b : t) b = true;
    return t;
  }
};

// A lookup of one variable by name ("PROVIO_LEVEL"); returns nullptr when unset.
using EnvLookup = std::function<const char*(const char*)>;
// Receives "key: problem" for every bad setting.
using ConfigWarn = std::function<void(const std::string&)>;

// Parses settings: `file_text` (may be empty) first, then the environment on top.
Config parse_config(std::string_view file_text, const EnvLookup& env, const ConfigWarn& warn);

namespace detail {
// The published configuration and its first read (config.cc). config() reads the snapshot
// inline: the VOL plugin asks which classes are tracked on every recorded call, and a call into
// libprovio for that cost more than the read (a cold function entry in another library).
extern Snapshot<Config> g_config;
const Config& load_config();
}  // namespace detail

// The process's configuration, read once from the real environment and PROVIO_CONFIG.
inline const Config& config() {
  if (const Config* c = detail::g_config.peek()) return *c;
  return detail::load_config();
}

// Settings a layer receives through its own channel — the VOL connector's info string
// ("provio under_vol=0;under_info={};level=trace;dir=/scratch/prov") — applied over the
// environment, keys as in PROVIO_CONFIG (case-insensitive, PROVIO_ prefix optional). Replaces the
// previous overrides and reloads the configuration; bad values are reported like any other.
void set_overrides(std::vector<std::pair<std::string, std::string>> settings);

// Re-reads the environment and PROVIO_CONFIG (tests, and programs that set PROVIO_* variables
// themselves before their first I/O).
void reload_config();

}  // namespace provio::model
