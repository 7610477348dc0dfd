// Fuzz target: the PROVIO_CONFIG key=value parser (and the settings' value parsers) on any text.
// A bad line or value is a warning, never a crash; the result stays within each setting's bounds.
#include <cstdint>
#include <string>
#include <string_view>

#include "fuzz_check.h"
#include "model/config.h"

using provio::fuzz::require;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  std::string_view text(reinterpret_cast<const char*>(data), size);
  std::size_t warnings = 0;
  provio::model::Config c = provio::model::parse_config(
      text, [](const char*) -> const char* { return nullptr; }, [&](const std::string&) { ++warnings; });
  require(c.memory_limit >= (64u << 10), "memory limit below its minimum");
  require(c.trace_events >= 16 && c.summary_slots >= 16 && c.max_entities >= 1, "a size below its minimum");
  return 0;
}
