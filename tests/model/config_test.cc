// Configuration: environment over PROVIO_CONFIG file, PROV-IO's keys, bad values named once.
#include "model/config.h"

#include <gtest/gtest.h>
#include <sys/stat.h>

#include <cstdio>
#include <fstream>
#include <iterator>
#include <map>
#include <string>
#include <vector>

namespace provio::model {
namespace {

struct Fixture {
  std::map<std::string, std::string> env;
  std::vector<std::string> warnings;
  Config parse(std::string_view file = "") {
    return parse_config(
        file,
        [this](const char* name) -> const char* {
          auto it = env.find(name);
          return it == env.end() ? nullptr : it->second.c_str();
        },
        [this](const std::string& w) { warnings.push_back(w); });
  }
};

TEST(Config, Defaults) {
  Fixture f;
  Config c = f.parse();
  EXPECT_EQ(c.level, Level::kSummary);
  EXPECT_TRUE(c.dir.empty());
  EXPECT_TRUE(c.tracks(EntityClass::kDataset));
  EXPECT_EQ(c.compression, Compression::kZstd);
  EXPECT_TRUE(f.warnings.empty());
}

TEST(Config, CompressNoneWritesPlainFiles) {
  Fixture f;
  f.env = {{"PROVIO_COMPRESS", "none"}};
  EXPECT_EQ(f.parse().compression, Compression::kNone);
  EXPECT_TRUE(f.warnings.empty());
}

TEST(Config, EnvironmentValues) {
  Fixture f;
  f.env = {{"PROVIO_LEVEL", "trace"},        {"PROVIO_DIR", "/x/y"},           {"PROVIO_MEMORY", "64M"},
           {"PROVIO_FLUSH_INTERVAL", "0.5"}, {"PROVIO_SUMMARY_SLOTS", "128"},  {"PROVIO_TRACE_EVENTS", "1k"},
           {"PROVIO_WORKFLOW", "dassa"},     {"PROVIO_TRACK_ATTRIBUTE", "off"}};
  Config c = f.parse();
  EXPECT_EQ(c.level, Level::kTrace);
  EXPECT_EQ(c.dir, "/x/y");
  EXPECT_EQ(c.memory_limit, 64u << 20);
  EXPECT_EQ(c.flush_interval_ns, 500'000'000u);
  EXPECT_EQ(c.summary_slots, 128u);
  EXPECT_EQ(c.trace_events, 1024u);
  EXPECT_EQ(c.workflow, "dassa");
  EXPECT_FALSE(c.tracks(EntityClass::kAttribute));
  EXPECT_TRUE(f.warnings.empty());
}

TEST(Config, FileWithProvIoKeysAndEnvironmentOnTop) {
  Fixture f;
  f.env = {{"PROVIO_LEVEL", "summary"}};
  Config c = f.parse(
      "# PROV-IO style\n"
      "PROV_LEVEL = trace\n"
      "ENABLE_DATASET=0\n"
      "enable_attr = false\n"
      "PROVIO_CAMPAIGN=c1\r\n"
      "\n"
      "SOME_OTHER_TOOL_KEY=whatever\n");
  EXPECT_EQ(c.level, Level::kSummary);  // the environment wins
  EXPECT_FALSE(c.tracks(EntityClass::kDataset));
  EXPECT_FALSE(c.tracks(EntityClass::kAttribute));
  EXPECT_TRUE(c.tracks(EntityClass::kGroup));
  EXPECT_EQ(c.campaign, "c1");
  EXPECT_TRUE(f.warnings.empty());
}

TEST(Config, BadValuesAreNamedAndDefaultsKept) {
  Fixture f;
  f.env = {{"PROVIO_LEVEL", "verbose"},
           {"PROVIO_MEMORY", "lots"},
           {"PROVIO_FLUSH_INTERVAL", "-3"},
           {"PROVIO_SUMMARY_SLOTS", "2"},
           {"PROVIO_TRACK_DATASET", "maybe"}};
  Config c = f.parse("ENABLE_FILE=yes\nthis line has no equals sign\n");
  Config d;
  EXPECT_EQ(c.level, d.level);
  EXPECT_EQ(c.memory_limit, d.memory_limit);
  EXPECT_EQ(c.flush_interval_ns, d.flush_interval_ns);
  EXPECT_EQ(c.summary_slots, d.summary_slots);
  EXPECT_TRUE(c.tracks(EntityClass::kDataset));
  ASSERT_EQ(f.warnings.size(), 6u);
  EXPECT_EQ(f.warnings[0], "PROVIO_CONFIG line 2: 'this line has no equals sign' is not key=value");
  EXPECT_EQ(f.warnings[1], "PROVIO_LEVEL='verbose': expected off, summary or trace, using the default");
  auto mentions = [&](const std::string& key) {
    for (const auto& w : f.warnings) {
      if (w.find(key) != std::string::npos) return true;
    }
    return false;
  };
  EXPECT_TRUE(mentions("PROVIO_MEMORY='lots'"));
  EXPECT_TRUE(mentions("PROVIO_FLUSH_INTERVAL='-3'"));
  EXPECT_TRUE(mentions("PROVIO_SUMMARY_SLOTS='2'"));
  EXPECT_TRUE(mentions("PROVIO_TRACK_DATASET='maybe'"));
}

}  // namespace
}  // namespace provio::model

namespace provio::model {
namespace {

// Options from the VOL info string apply over the environment, with the same checks.
TEST(Config, OverridesApplyOverTheEnvironment) {
  setenv("PROVIO_LEVEL", "summary", 1);
  set_overrides({{"level", "trace"}, {"PROVIO_FLUSH_INTERVAL", "2"}});
  EXPECT_EQ(config().level, Level::kTrace);
  EXPECT_EQ(config().flush_interval_ns, 2'000'000'000u);
  set_overrides({});
  EXPECT_EQ(config().level, Level::kSummary);
  unsetenv("PROVIO_LEVEL");
}

// A mistyped option is reported through the parser's warning callback after the line that made
// the parser: the parser must own its callback (AddressSanitizer found stack-use-after-scope when
// it kept a reference to a temporary std::function; issue 10 item 3). Run under
// -DPROVIO_SANITIZE=address to see the difference.
TEST(Config, MistypedOverrideIsReportedAndIgnored) {
  std::string log = ::testing::TempDir() + "provio-config-typo.log";
  std::remove(log.c_str());
  setenv("PROVIO_LOG", log.c_str(), 1);
  set_overrides({{"level", "loud"}, {"flush_interval", "soon"}});
  EXPECT_EQ(config().level, Level::kSummary);
  EXPECT_EQ(config().flush_interval_ns, Config{}.flush_interval_ns);
  set_overrides({});
  unsetenv("PROVIO_LOG");
  std::ifstream in(log);
  std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  EXPECT_NE(text.find("VOL connector option LEVEL='loud': expected off, summary or trace"), std::string::npos)
      << text;
  EXPECT_NE(text.find("VOL connector option FLUSH_INTERVAL='soon'"), std::string::npos) << text;
}

std::string read_text(const std::string& path) {
  std::ifstream in(path);
  return std::string((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
}

// PROVIO_CONFIG is read only when it names a regular file of at most 1 MiB (issue 10 item 7): a
// larger one, or a FIFO, is refused before a byte is read, with a warning naming it.
TEST(Config, ConfigFileMustBeASmallRegularFile) {
  std::string dir = ::testing::TempDir();
  std::string log = dir + "provio-config-file.log", big = dir + "provio-big.conf", fifo = dir + "provio.fifo";
  std::remove(log.c_str());
  std::remove(fifo.c_str());
  {
    std::ofstream out(big);
    out << "level=off\n" << std::string(1u << 20, '#') << "\n";
  }
  ASSERT_EQ(mkfifo(fifo.c_str(), 0600), 0);
  setenv("PROVIO_LOG", log.c_str(), 1);
  for (const std::string& path : {big, fifo}) {
    setenv("PROVIO_CONFIG", path.c_str(), 1);
    reload_config();  // a FIFO nobody writes would block here if it were opened for reading
    EXPECT_EQ(config().level, Level::kSummary) << path;
  }
  unsetenv("PROVIO_CONFIG");
  unsetenv("PROVIO_LOG");
  reload_config();
  std::string text = read_text(log);
  EXPECT_NE(text.find("PROVIO_CONFIG '" + big + "': larger than 1 MiB"), std::string::npos) << text;
  std::remove(big.c_str());
  std::remove(fifo.c_str());
}
}  // namespace
}  // namespace provio::model
