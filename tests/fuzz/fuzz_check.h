// What every fuzz target asserts about its output, independently of the code under test.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>

namespace provio::fuzz {

// Aborts (a finding for libFuzzer, a failure for the replay test) with `what` unless `ok`.
void require(bool ok, const char* what);

// Raptor's N-Triples parser reads `text` without an error; returns the statements read. The
// object literal of the last statement read (unescaped) goes to `last_literal` if given.
std::size_t parse_ntriples(std::string_view text, std::string* last_literal = nullptr);

}  // namespace provio::fuzz
