// parse_options (tools/cli/options.h): values inline and apart, "--", and every misuse it must
// refuse with a message naming the option.
#include "cli/options.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

namespace provio::cli {
namespace {

const std::vector<OptionSpec> kSpecs = {
    {"--output", "-o", true},
    {"--quiet", "-q", false},
    {"--depth", nullptr, true, "lineage"},
    {"--nested", nullptr, false, "stats select"},
    {"--print-env", nullptr, false, nullptr, true},
};

rdf::Status parse(std::vector<std::string> words, const std::string& command, ParsedArgs& out,
                  bool stop_at_positional = false) {
  std::vector<char*> argv;
  for (std::string& w : words) argv.push_back(w.data());
  return parse_options(static_cast<int>(argv.size()), argv.data(), 0, kSpecs, command, out,
                       stop_at_positional);
}

TEST(Options, ValuesFlagsAndPositionals) {
  ParsedArgs a;
  ASSERT_TRUE(parse({"-o", "x.ttl", "in1", "--depth=3", "-q", "-", "--", "--quiet"}, "lineage", a).ok);
  EXPECT_EQ(a.get("--output"), "x.ttl");
  EXPECT_EQ(a.get("--depth"), "3");
  EXPECT_TRUE(a.has("--quiet"));
  EXPECT_FALSE(a.has("--nested"));
  EXPECT_EQ(a.get("--nested", "none"), "none");
  EXPECT_EQ(a.positional, (std::vector<std::string>{"in1", "-", "--quiet"}));
}

TEST(Options, RepeatedOptionsKeepEveryValue) {
  ParsedArgs a;
  ASSERT_TRUE(parse({"--output", "a", "--output=b"}, "", a).ok);
  EXPECT_EQ(a.all("--output"), (std::vector<std::string>{"a", "b"}));
  EXPECT_EQ(a.get("--output"), "b");
}

TEST(Options, MisuseIsAnErrorNamingTheOption) {
  struct Case {
    std::vector<std::string> words;
    std::string command, message;
  };
  const Case cases[] = {
      {{"--colour"}, "stats", "unknown option '--colour'"},
      {{"--quiet=yes"}, "stats", "option --quiet takes no value"},
      {{"in", "-o"}, "stats", "option -o needs a value"},
      {{"--depth", "3"}, "stats", "option --depth does not apply to stats"},
      {{"--nested"}, "lineage", "option --nested does not apply to lineage"},
  };
  for (const Case& c : cases) {
    ParsedArgs a;
    rdf::Status s = parse(c.words, c.command, a);
    EXPECT_FALSE(s.ok) << c.message;
    EXPECT_EQ(s.message, c.message);
  }
}

TEST(Options, TheFirstPositionalCanEndTheOptions) {
  ParsedArgs a;
  ASSERT_TRUE(parse({"-q", "mpirun", "-n", "2", "--quiet"}, "", a, true).ok);
  EXPECT_EQ(a.options.size(), 1u);
  EXPECT_EQ(a.positional, (std::vector<std::string>{"mpirun", "-n", "2", "--quiet"}));
}

TEST(Options, AnOptionalValueComesOnlyAfterAnEqualsSign) {
  ParsedArgs a;
  ASSERT_TRUE(parse({"--print-env=csh", "--print-env", "sh"}, "", a).ok);
  EXPECT_EQ(a.all("--print-env"), (std::vector<std::string>{"csh", ""}));
  EXPECT_EQ(a.positional, (std::vector<std::string>{"sh"}));
}

TEST(Options, WithoutACommandEveryOptionApplies) {
  ParsedArgs a;
  EXPECT_TRUE(parse({"--depth", "3", "--nested"}, "", a).ok);
}

}  // namespace
}  // namespace provio::cli
