// The one command-line parser of prov-merge, prov-query and prov-viz: each tool lists its options
// in a table and gets back what was given, in order, or a message saying what is wrong.
//
// Hard rule: nothing given is ignored. An unknown option, a value given to a flag, a missing
// value, and an option given to a command it does not apply to are each an error naming the
// option (and the command), so a mistyped or misplaced option never silently changes nothing.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "graph/status.h"

namespace provio::cli {

struct OptionSpec {
  const char* name;        // "--output", or a short-only "-k"
  const char* short_name;  // "-o", or nullptr
  bool takes_value;
  // The commands it applies to, separated by spaces ("stats select"); nullptr: all of them (and
  // tools without commands).
  const char* commands = nullptr;
  // A flag that may carry a value after '=' only (prov-run's --print-env[=sh|csh]).
  bool inline_value_optional = false;
};

// Whether `word` is one of the space-separated words of `list` (OptionSpec::commands).
bool in_list(std::string_view list, std::string_view word);

struct ParsedOption {
  const OptionSpec* spec;
  std::string value;  // "" for a flag
};

struct ParsedArgs {
  std::vector<ParsedOption> options;    // in command-line order
  std::vector<std::string> positional;  // everything else, "-" and words after "--" included

  // Whether option `name` (its long name) was given; its last value, or `def`; all its values.
  bool has(std::string_view name) const;
  std::string get(std::string_view name, const std::string& def = "") const;
  std::vector<std::string> all(std::string_view name) const;
};

// Parses argv[first..argc) against `specs` for `command` ("" for a tool without commands).
// "--name=value" and "--name value" (and "-o value") give a value; "--" ends the options. With
// `stop_at_positional` (`prov-run [options] COMMAND ARG...`), so does the first other word: it
// and all after it are positionals.
rdf::Status parse_options(int argc, char** argv, int first, const std::vector<OptionSpec>& specs,
                          const std::string& command, ParsedArgs& out, bool stop_at_positional = false);

// `TOOL COMMAND [options] [ARG...]` (prov-query, prov-viz): a first word of -h/--help prints
// `usage` on stdout, -V/--version the version; a missing or unknown command and misused options
// print "TOOL: message" and `usage` on stderr. Returns -1 to go on with `command` and `out`
// (where --help, given after the command, is for the caller to answer), else the exit code.
int parse_command_line(int argc, char** argv, const char* tool, const char* usage,
                       const std::vector<std::string_view>& commands, const std::vector<OptionSpec>& specs,
                       std::string& command, ParsedArgs& out);

}  // namespace provio::cli
