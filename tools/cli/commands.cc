// Help and option lists generated from a tool's command table (see commands.h).
#include "cli/commands.h"

#include <utility>

namespace provio::cli {
namespace {

constexpr std::size_t kWidth = 100;

// `head` then `text`, broken at spaces outside brackets so no line passes kWidth; continuation
// lines are indented under the start of `text`.
std::string wrap(const std::string& head, std::string_view text) {
  std::string out = head, line_indent(head.size(), ' ');
  std::size_t column = head.size();
  int depth = 0;
  std::size_t word = 0;
  for (std::size_t i = 0; i <= text.size(); ++i) {
    char c = i < text.size() ? text[i] : ' ';
    if (c == '[') ++depth;
    if (c == ']') --depth;
    if (c != ' ' || depth > 0) continue;
    std::string_view piece = text.substr(word, i - word);
    word = i + 1;
    if (piece.empty()) continue;
    bool first = column == head.size();
    if (!first && column + 1 + piece.size() > kWidth) {
      out += "\n" + line_indent;
      column = line_indent.size();
      first = true;
    }
    if (!first) out += ' ', ++column;
    out += piece;
    column += piece.size();
  }
  return out + "\n";
}

}  // namespace

std::string command_usage(const char* tool, const CommandText& c) {
  return wrap(std::string("usage: ") + tool + " " + c.name + " ", c.synopsis);
}

std::string command_list(const std::vector<const CommandText*>& commands) {
  std::string out;
  for (const CommandText* c : commands) {
    out += wrap(std::string("  ") + c->name + " ", c->synopsis);
    std::string_view summary = c->summary;
    for (std::size_t b = 0; b < summary.size();) {
      std::size_t e = summary.find('\n', b);
      if (e == std::string_view::npos) e = summary.size();
      out.append("      ").append(summary.substr(b, e - b)).append("\n");
      b = e + 1;
    }
  }
  return out;
}

std::string command_help(const char* tool, const CommandText& c) {
  return command_usage(tool, c) + c.details;
}

CommandLine::CommandLine(std::vector<const CommandText*> commands, const char* head, const char* tail,
                         std::vector<OptionSpec> options)
    : commands_(std::move(commands)),
      usage_(head + command_list(commands_) + tail),
      specs_(std::move(options)) {
  for (const CommandText* c : commands_) names_.push_back(c->name);
  for (OptionSpec& spec : specs_) {
    std::string list;
    for (const CommandText* c : commands_)
      if (in_list(c->options, spec.name)) list += (list.empty() ? "" : " ") + std::string(c->name);
    if (list.empty()) continue;
    lists_.push_back(std::move(list));
    spec.commands = lists_.back().c_str();
  }
}

int CommandLine::parse(int argc, char** argv, const char* tool, std::string& command, ParsedArgs& out) const {
  return parse_command_line(argc, argv, tool, usage_.c_str(), names_, specs_, command, out);
}

}  // namespace provio::cli
