// Text from provenance shown to a person: file and program names are chosen by whoever ran the
// traced programs, and a name holding terminal escape sequences would rewrite the reader's
// terminal (retitle it, clear it, fake lines) when a tool prints it (docs/security.md).
//
// Hard rule: one escaper, used by every message the tools print and by prov-query's tables for
// people (and its CSV/TSV when standard output is a terminal). Data written to files stays exact.
#pragma once

#include <cstdio>
#include <string>
#include <string_view>

namespace provio::cli {

// Offset of the first byte that does not start a valid UTF-8 sequence (overlong forms, surrogates
// and code points past U+10FFFF included), npos if none.
std::size_t utf8_error_at(std::string_view s);

// `text` with control characters shown escaped: \n \r \t, other C0 controls and DEL as \xHH, the
// C1 controls (U+0080..U+009F) as \u0080..\u009f, and bytes that are not UTF-8 as \xHH.
std::string escape_controls(std::string_view text);

// Prints "TOOL: TEXT\n" on stderr, TEXT escaped.
void print_message(const char* tool, std::string_view text);

// Whether `stream` is a terminal.
bool is_terminal(std::FILE* stream);

}  // namespace provio::cli
