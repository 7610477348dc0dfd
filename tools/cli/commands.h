// A tool's commands (`TOOL COMMAND [options] [ARG...]`: prov-query, prov-viz) in one table, one
// row per command: its name, its usage, its line in the tool's --help, its own --help, the
// options it takes beside the common ones, and the function that runs it (ninja's subtools
// table). The tool's --help, each command's --help, the option parser's "applies to" lists and
// the dispatch are generated from the rows.
// Hard rule: a command's name is typed once, in its row.
#pragma once

#include <deque>
#include <string>
#include <string_view>
#include <vector>

#include "cli/options.h"

namespace provio::cli {

struct CommandText {
  const char* name;
  const char* synopsis;  // what follows "TOOL NAME" in its usage: "ENTITY [--up|--down] [INPUT...]"
  const char* summary;   // its line(s) in the tool's --help
  const char* details;   // its own --help, after its usage line
  const char* options;   // the long names of the options it takes beside the common ones, by spaces
};

template <typename Args>
struct Command : CommandText {
  int (*run)(const Args&);
};

// "usage: TOOL NAME SYNOPSIS\n", wrapped before 100 columns between bracketed groups.
std::string command_usage(const char* tool, const CommandText& c);
// The tool's list of commands: per command its usage and, indented, its summary.
std::string command_list(const std::vector<const CommandText*>& commands);
// `NAME --help`: its usage and details.
std::string command_help(const char* tool, const CommandText& c);

// A tool's command line made once from its command table: the tool's --help (`head`, the list of
// commands, `tail`) and the option table the parser gets (options.h): `options` with each one
// that some command lists restricted to the commands that list it; the others apply to all.
class CommandLine {
 public:
  CommandLine(std::vector<const CommandText*> commands, const char* head, const char* tail,
              std::vector<OptionSpec> options);
  CommandLine(const CommandLine&) = delete;
  CommandLine& operator=(const CommandLine&) = delete;

  const std::string& usage() const { return usage_; }
  // parse_command_line (options.h) over these commands and options.
  int parse(int argc, char** argv, const char* tool, std::string& command, ParsedArgs& out) const;

 private:
  std::vector<const CommandText*> commands_;
  std::string usage_;
  std::deque<std::string> lists_;  // the specs' `commands` strings (stable addresses)
  std::vector<OptionSpec> specs_;
  std::vector<std::string_view> names_;
};

template <typename Args, std::size_t N>
std::vector<const CommandText*> command_texts(const Command<Args> (&table)[N]) {
  std::vector<const CommandText*> out;
  for (const auto& c : table) out.push_back(&c);
  return out;
}

template <typename Args, std::size_t N>
const Command<Args>* find_command(const Command<Args> (&table)[N], std::string_view name) {
  for (const auto& c : table)
    if (name == c.name) return &c;
  return nullptr;
}

}  // namespace provio::cli
