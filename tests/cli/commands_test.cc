// CommandLine (tools/cli/commands.h): the option table and the help a tool's command table gives.
#include "cli/commands.h"

#include <gtest/gtest.h>

#include <cstdio>
#include <string>
#include <vector>

namespace provio::cli {
namespace {

struct Args {};
int run(const Args&) {
  return 0;
}

const Command<Args> kTable[] = {
    {{"lineage",
      "ENTITY [--up|--down] [--depth N|all] [--by-rank] [--iris] [--all-versions] [-f FORMAT] [INPUT...]",
      "what ENTITY came from\nor what came from it", "Details.\n", "--depth --nested"},
     run},
    {{"stats", "[--top K] [INPUT...]", "totals", "", "--nested"}, run},
    {{"remake", "FILE", "a script", "", ""}, run},
};

int parse(const CommandLine& line, std::vector<std::string> words, std::string& command) {
  std::vector<char*> argv;
  for (std::string& w : words) argv.push_back(w.data());
  ParsedArgs out;
  return line.parse(static_cast<int>(argv.size()), argv.data(), "tool", command, out);
}

TEST(Commands, OptionsApplyToTheCommandsListingThem) {
  CommandLine line(command_texts(kTable), "head\n", "tail\n",
                   {{"--depth", nullptr, true}, {"--nested", nullptr, false}, {"--quiet", "-q", false}});
  std::string command;
  EXPECT_EQ(parse(line, {"tool", "lineage", "--depth", "2", "--nested", "-q"}, command), -1);
  EXPECT_EQ(command, "lineage");
  EXPECT_EQ(parse(line, {"tool", "stats", "--nested", "-q"}, command), -1);
  EXPECT_EQ(parse(line, {"tool", "remake", "-q", "x"}, command), -1);
  std::FILE* saved = stderr;
  stderr = std::fopen("/dev/null", "w");
  int depth_on_stats = parse(line, {"tool", "stats", "--depth", "2"}, command);
  int nested_on_remake = parse(line, {"tool", "remake", "--nested"}, command);
  int unknown = parse(line, {"tool", "report"}, command);
  std::fclose(stderr);
  stderr = saved;
  EXPECT_EQ(depth_on_stats, 1);
  EXPECT_EQ(nested_on_remake, 1);
  EXPECT_EQ(unknown, 1);
  EXPECT_EQ(find_command(kTable, "stats"), &kTable[1]);
  EXPECT_EQ(find_command(kTable, "report"), nullptr);
}

TEST(Commands, HelpIsGeneratedFromTheRows) {
  CommandLine line(command_texts(kTable), "head\n", "tail\n", {});
  EXPECT_EQ(
      line.usage(),
      "head\n"
      "  lineage ENTITY [--up|--down] [--depth N|all] [--by-rank] [--iris] [--all-versions] [-f FORMAT]\n"
      "          [INPUT...]\n"
      "      what ENTITY came from\n"
      "      or what came from it\n"
      "  stats [--top K] [INPUT...]\n"
      "      totals\n"
      "  remake FILE\n"
      "      a script\n"
      "tail\n");
  EXPECT_EQ(command_help("tool", kTable[0]),
            "usage: tool lineage ENTITY [--up|--down] [--depth N|all] [--by-rank] [--iris] [--all-versions]\n"
            "                    [-f FORMAT] [INPUT...]\n"
            "Details.\n");
}

}  // namespace
}  // namespace provio::cli
