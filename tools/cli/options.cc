// The tools' option parser (see options.h).
#include "cli/options.h"

#include <algorithm>
#include <cstdio>

#include "cli/cli.h"

namespace provio::cli {
namespace {

bool applies(const OptionSpec& spec, const std::string& command) {
  return !spec.commands || command.empty() || in_list(spec.commands, command);
}

const OptionSpec* find(const std::vector<OptionSpec>& specs, std::string_view word) {
  for (const OptionSpec& s : specs) {
    if (word == s.name || (s.short_name && word == s.short_name)) return &s;
  }
  return nullptr;
}

}  // namespace

bool in_list(std::string_view list, std::string_view word) {
  for (std::size_t b = 0; b < list.size();) {
    std::size_t e = list.find(' ', b);
    if (e == std::string_view::npos) e = list.size();
    if (list.substr(b, e - b) == word) return true;
    b = e + 1;
  }
  return false;
}

bool ParsedArgs::has(std::string_view name) const {
  for (const ParsedOption& o : options) {
    if (name == o.spec->name) return true;
  }
  return false;
}

std::string ParsedArgs::get(std::string_view name, const std::string& def) const {
  std::string value = def;
  for (const ParsedOption& o : options) {
    if (name == o.spec->name) value = o.value;
  }
  return value;
}

std::vector<std::string> ParsedArgs::all(std::string_view name) const {
  std::vector<std::string> values;
  for (const ParsedOption& o : options) {
    if (name == o.spec->name) values.push_back(o.value);
  }
  return values;
}

rdf::Status parse_options(int argc, char** argv, int first, const std::vector<OptionSpec>& specs,
                          const std::string& command, ParsedArgs& out, bool stop_at_positional) {
  bool only_positional = false;
  for (int i = first; i < argc; ++i) {
    std::string word = argv[i];
    if (only_positional || word.size() < 2 || word[0] != '-') {
      out.positional.push_back(word);
      only_positional = only_positional || stop_at_positional;
      continue;
    }
    if (word == "--") {
      only_positional = true;
      continue;
    }
    // "--name=value": only long options take their value inline.
    std::string name = word, value;
    std::size_t eq = word.find('=');
    bool inline_value = word.rfind("--", 0) == 0 && eq != std::string::npos;
    if (inline_value) name = word.substr(0, eq), value = word.substr(eq + 1);
    const OptionSpec* spec = find(specs, name);
    if (!spec) return rdf::Status::error("unknown option '" + name + "'");
    if (!applies(*spec, command))
      return rdf::Status::error("option " + name + " does not apply to " + command);
    if (spec->takes_value && !inline_value) {
      if (i + 1 >= argc) return rdf::Status::error("option " + name + " needs a value");
      value = argv[++i];
    } else if (!spec->takes_value && inline_value && !spec->inline_value_optional) {
      return rdf::Status::error("option " + name + " takes no value");
    }
    out.options.push_back({spec, std::move(value)});
  }
  return rdf::Status::success();
}

int parse_command_line(int argc, char** argv, const char* tool, const char* usage,
                       const std::vector<std::string_view>& commands, const std::vector<OptionSpec>& specs,
                       std::string& command, ParsedArgs& out) {
  auto misuse = [&](const std::string& message) { return usage_error(tool, usage, message); };
  if (argc < 2) return misuse("missing command");
  std::string_view first = argv[1];
  if (first == "-h" || first == "--help") {
    std::fputs(usage, stdout);
    return std::fflush(stdout) == 0 ? kExitOk : kExitData;
  }
  if (first == "-V" || first == "--version") return print_version(tool);
  if (std::find(commands.begin(), commands.end(), first) == commands.end())
    return misuse("unknown command '" + std::string(first) + "'");
  command = first;
  rdf::Status s = parse_options(argc, argv, 2, specs, command, out);
  return s.ok ? -1 : misuse(s.message);
}

}  // namespace provio::cli
