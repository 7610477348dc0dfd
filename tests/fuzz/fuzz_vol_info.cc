// Fuzz target: the VOL connector's info string parser. Hostile text is a ParseError, never a
// crash; and what it accepts round-trips through format_info (vol/info.h's promise).
#include <cstdint>
#include <string_view>

#include "fuzz_check.h"
#include "vol/info.h"

using provio::fuzz::require;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  std::string_view text(reinterpret_cast<const char*>(data), size);
  provio::vol::ParseResult r = provio::vol::parse_info(text);
  if (!r.ok) {
    require(!r.error.empty(), "a parse error without a message");
    return 0;
  }
  provio::vol::ParseResult again = provio::vol::parse_info(provio::vol::format_info(r.info));
  require(again.ok && again.info == r.info, "format_info does not round-trip");
  return 0;
}
