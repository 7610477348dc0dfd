// The recording path end to end inside one process: levels, flush triggers, errno, hostile names.
// Each test points PROVIO_DIR at a fresh directory and resets the recorder.
#include "store/recorder.h"

#include <dirent.h>
#include <gtest/gtest.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include "model/api_names.h"
#include "model/clock.h"
#include "model/entities.h"
#include "store/thread_log.h"

namespace provio::store {
namespace {

using model::Event;
using model::Op;

class RecorderTest : public ::testing::Test {
 protected:
  void SetUp() override {
    char tmpl[] = "/tmp/provio-recorder-XXXXXX";
    ASSERT_NE(mkdtemp(tmpl), nullptr);
    dir_ = tmpl;
    setenv("PROVIO_DIR", dir_.c_str(), 1);
  }
  void TearDown() override {
    for (const char* v : {"PROVIO_DIR", "PROVIO_LEVEL", "PROVIO_SUMMARY_SLOTS", "PROVIO_TRACE_EVENTS",
                          "PROVIO_FLUSH_INTERVAL", "PROVIO_MEMORY"}) {
      unsetenv(v);
    }
    reset_for_testing();
    std::system(("rm -rf '" + dir_ + "'").c_str());
  }
  // Applies the environment set by the test.
  void start() { reset_for_testing(); }

  std::vector<std::string> files() const {
    std::vector<std::string> out;
    if (DIR* d = opendir(dir_.c_str())) {
      while (dirent* e = readdir(d)) {
        std::string n = e->d_name;
        if (n.size() > 4 && n.substr(n.size() - 4) == ".ttl") out.push_back(dir_ + "/" + n);
      }
      closedir(d);
    }
    return out;
  }
  std::string all_text() const {
    std::string text;
    for (const auto& f : files()) {
      std::ifstream in(f);
      std::stringstream ss;
      ss << in.rdbuf();
      text += ss.str();
    }
    return text;
  }
  static std::size_t count(const std::string& text, const std::string& needle) {
    std::size_t n = 0;
    for (std::size_t p = text.find(needle); p != std::string::npos; p = text.find(needle, p + 1)) ++n;
    return n;
  }
  static Event event(model::EntityId e, Op op = Op::kWrite, std::uint64_t bytes = 10) {
    static const model::ApiId api = model::api_id("test_write");
    Event ev;
    ev.op = op;
    ev.api = api;
    ev.entity = e;
    ev.bytes = bytes;
    ev.start_ns = model::clock::wall_ns();
    ev.elapsed_ns = 5;
    return ev;
  }
  bool parses_with_rapper() const {
    for (const auto& f : files()) {
      std::string cmd = std::string(PROVIO_RAPPER) + " -q -i turtle -c '" + f + "' 2>/dev/null";
      if (std::system(cmd.c_str()) != 0) return false;
    }
    return true;
  }

  std::string dir_;
};

TEST_F(RecorderTest, SummaryAggregatesAndFlushesAtReset) {
  start();
  model::EntityId f = model::canonical_file_entity("/rec/summary.dat");
  for (int i = 0; i < 1000; ++i) record(event(f));
  EXPECT_TRUE(files().empty()) << "nothing may be written before a flush trigger";
  flush_all();
  std::string text = all_text();
  EXPECT_EQ(count(text, "provio:count \"1000\"^^xsd:unsignedLong"), 1u);
  EXPECT_EQ(count(text, "provio:bytes \"10000\"^^xsd:unsignedLong"), 1u);
  EXPECT_EQ(count(text, "provio:elapsed \"0.000005000\"^^xsd:double"), 1u);
  EXPECT_EQ(count(text, "rdf:type provio:Write"), 1u);
  EXPECT_TRUE(parses_with_rapper());
}

TEST_F(RecorderTest, TraceKeepsEveryCall) {
  setenv("PROVIO_LEVEL", "trace", 1);
  start();
  model::EntityId f = model::canonical_file_entity("/rec/trace.dat");
  for (int i = 0; i < 300; ++i) record(event(f));
  flush_all();
  std::string text = all_text();
  EXPECT_EQ(count(text, "provio:count \"1\"^^xsd:unsignedLong"), 300u);
  EXPECT_EQ(count(text, "provio:partial"), 0u);
  EXPECT_TRUE(parses_with_rapper());
}

TEST_F(RecorderTest, OffRecordsNothing) {
  setenv("PROVIO_LEVEL", "off", 1);
  start();
  EXPECT_FALSE(enabled());
  model::EntityId f = model::canonical_file_entity("/rec/off.dat");
  for (int i = 0; i < 10; ++i) record(event(f));
  flush_all();
  EXPECT_TRUE(files().empty());
  EXPECT_EQ(stats().threads, 0u);
}

TEST_F(RecorderTest, FullTraceBufferFlushes) {
  setenv("PROVIO_LEVEL", "trace", 1);
  setenv("PROVIO_TRACE_EVENTS", "100", 1);
  start();
  model::EntityId f = model::canonical_file_entity("/rec/tracefull.dat");
  for (int i = 0; i < 250; ++i) record(event(f));
  // two full buffers are on disk, the third (50 events) is still in memory
  EXPECT_EQ(count(all_text(), "provio:count \"1\"^^xsd:unsignedLong"), 200u);
  flush_all();
  EXPECT_EQ(count(all_text(), "provio:count \"1\"^^xsd:unsignedLong"), 250u);
}

TEST_F(RecorderTest, FullSummaryTableFlushesPartsThatAddUp) {
  setenv("PROVIO_SUMMARY_SLOTS", "16", 1);  // flushes when 12 activities are live
  start();
  std::vector<model::EntityId> ents;
  for (int i = 0; i < 40; ++i) ents.push_back(model::canonical_file_entity("/rec/many/" + std::to_string(i)));
  for (int round = 0; round < 3; ++round) {
    for (auto e : ents) record(event(e));
  }
  EXPECT_FALSE(all_text().empty()) << "a full table must flush";
  flush_all();
  std::string text = all_text();
  // 120 events in parts of count 1..3: sum them
  std::size_t total = 0;
  for (std::size_t p = text.find("provio:count \""); p != std::string::npos;
       p = text.find("provio:count \"", p + 1)) {
    total += std::stoul(text.substr(p + 14));
  }
  EXPECT_EQ(total, 120u);
  EXPECT_GT(count(text, "provio:partial"), 40u) << "activities must have been split over flushes";
  EXPECT_TRUE(parses_with_rapper());
}

TEST_F(RecorderTest, TimeBoundFlushes) {
  setenv("PROVIO_FLUSH_INTERVAL", "0.05", 1);
  start();
  model::EntityId f = model::canonical_file_entity("/rec/timed.dat");
  record(event(f));
  EXPECT_TRUE(all_text().empty());
  Event later = event(f);
  later.start_ns += 1'000'000'000;  // an event a second later than the bound
  record(later);
  EXPECT_EQ(count(all_text(), "provio:count \"2\"^^xsd:unsignedLong"), 1u);
}

TEST_F(RecorderTest, ThreadExitFlushesItsOwnFile) {
  start();
  model::EntityId f = model::canonical_file_entity("/rec/threads.dat");
  std::vector<std::thread> threads;
  for (int t = 0; t < 3; ++t) {
    threads.emplace_back([&] {
      for (int i = 0; i < 100; ++i) record(event(f));
    });
  }
  for (auto& th : threads) th.join();
  // no flush_all(): thread exit alone must have written them
  EXPECT_EQ(files().size(), 3u);
  EXPECT_EQ(count(all_text(), "provio:count \"100\"^^xsd:unsignedLong"), 3u);
}

TEST_F(RecorderTest, ErrnoUntouchedEvenWhenOutputFails) {
  setenv("PROVIO_DIR", "/proc/provio-cannot-create-this", 1);
  setenv("PROVIO_LEVEL", "trace", 1);
  setenv("PROVIO_TRACE_EVENTS", "16", 1);
  start();
  model::EntityId f = model::canonical_file_entity("/rec/errno.dat");
  testing::internal::CaptureStderr();
  for (int i = 0; i < 100; ++i) {
    errno = EAGAIN;
    record(event(f));
    ASSERT_EQ(errno, EAGAIN);
  }
  errno = EINTR;
  flush_all();
  std::string warnings = testing::internal::GetCapturedStderr();
  EXPECT_EQ(errno, EINTR);
  // reported once, naming the directory and the reason
  EXPECT_EQ(count(warnings, "provio: cannot create the output directory /proc/provio-cannot-create-this: "),
            1u)
      << warnings;
  EXPECT_EQ(count(warnings, "\n"), 1u) << warnings;
}

TEST_F(RecorderTest, HostileNamesParse) {
  start();
  const char* names[] = {"/rec/sp ace",    "/rec/quo\"te",   "/rec/<angle>",
                         "/rec/ha#sh",     "/rec/per%cent",  "/rec/new\nline",
                         "/rec/latin\xE9", "/rec/tab\there", "/rec/back\\slash"};
  for (const char* n : names) {
    model::EntityId f = model::canonical_file_entity(n);
    model::EntityId d = model::object_entity(f, "/g r\"p/d\nset", model::EntityClass::kDataset);
    record(event(model::attribute_entity(d, "a@b \"c\"")));
  }
  flush_all();
  EXPECT_TRUE(parses_with_rapper());
  EXPECT_EQ(count(all_text(), "rdf:type provio:Attribute"), 9u);
}

TEST_F(RecorderTest, MemoryLimitDegradesToSmallBuffersAndKeepsRecording) {
  setenv("PROVIO_MEMORY", "256K", 1);
  setenv("PROVIO_SUMMARY_SLOTS", "4096", 1);  // 4096 slots + the text buffer need more than 256K
  start();
  model::EntityId f = model::canonical_file_entity("/rec/mem.dat");
  for (int i = 0; i < 50; ++i) record(event(f));
  EXPECT_LT(stats().memory_bytes, 4096u * sizeof(SummarySlot));
  flush_all();
  EXPECT_EQ(count(all_text(), "provio:count \"50\"^^xsd:unsignedLong"), 1u);
}

}  // namespace
}  // namespace provio::store
