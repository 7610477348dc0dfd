// The recording path end to end inside one process: levels, flush triggers, errno, hostile names.
// Each test points PROVIO_DIR at a fresh directory and resets the recorder.
#include "store/recorder.h"

#include <dirent.h>
#include <gtest/gtest.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cctype>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <sstream>
#include <string>
#include <string_view>
#include <thread>
#include <vector>

#include "model/api_names.h"
#include "model/clock.h"
#include "model/entities.h"
#include "store/incomplete.h"
#include "store/summary_table.h"
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
    // Plain Turtle: the tests read the text as the writer leaves it, also while it writes
    // (compressed files: the _zstd tests and tests/graph/zstd_frames_test.cc).
    setenv("PROVIO_COMPRESS", "none", 1);
  }
  void TearDown() override {
    for (const char* v : {"PROVIO_DIR", "PROVIO_COMPRESS", "PROVIO_LEVEL", "PROVIO_SUMMARY_SLOTS",
                          "PROVIO_TRACE_EVENTS", "PROVIO_FLUSH_INTERVAL", "PROVIO_MEMORY"}) {
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
  // Summary activities described: blocks whose subject is an activity (`a<n>:<numbers>`, the
  // file's prefix of one API and operation), not a part of one (`…\/p<flush>`) nor a part link.
  static std::size_t activities(const std::string& text) {
    std::size_t n = 0;
    for (std::size_t line = 0; line < text.size();) {
      std::size_t end = text.find('\n', line);
      if (end == std::string::npos) end = text.size();
      std::string_view l(text.data() + line, end - line);
      std::string_view subject = l.substr(0, l.find(' '));
      if (l.size() > 1 && l[0] == 'a' && std::isdigit(static_cast<unsigned char>(l[1])) &&
          subject.find("\\/p") == std::string_view::npos && l.find(" :partial ") == std::string_view::npos)
        ++n;
      line = end + 1;
    }
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
  EXPECT_EQ(count(text, ":count 1000 ;"), 1u);
  EXPECT_EQ(count(text, ":bytes 10000 ;"), 1u);
  EXPECT_EQ(count(text, ":elapsed 0.000005000 ;"), 1u);
  EXPECT_EQ(activities(text), 1u);
  EXPECT_TRUE(parses_with_rapper());
}

// Issue 11: an activity is described once per file; later flushes write only what changed, as a
// part; a flush with nothing new writes nothing.
TEST_F(RecorderTest, SummaryDescribesOnceAndFlushesOnlyChanges) {
  start();
  model::EntityId f = model::canonical_file_entity("/rec/once.dat");
  model::EntityId g = model::canonical_file_entity("/rec/other.dat");
  record(event(g));
  for (int flush = 0; flush < 5; ++flush) {
    for (int i = 0; i < 100; ++i) record(event(f));
    flush_all();
  }
  std::string text = all_text();
  EXPECT_EQ(activities(text), 2u) << text;
  EXPECT_EQ(count(text, " :partial "), 4u) << "one part per later flush of the busy activity";
  EXPECT_EQ(count(text, ":count 100 ;"), 5u);
  std::size_t size = text.size();
  flush_all();
  flush_all();
  EXPECT_EQ(all_text().size(), size) << "a flush with nothing new must write nothing";
  EXPECT_TRUE(parses_with_rapper());
}

// Issue 11: 1,000,000 calls on one object cost the same bytes as one, whatever the flushes.
TEST_F(RecorderTest, SummaryBytesDoNotGrowWithCalls) {
  start();
  model::EntityId f = model::canonical_file_entity("/rec/million.dat");
  for (int i = 0; i < 1000000; ++i) record(event(f, Op::kWrite, 1));
  flush_all();
  std::string text = all_text();
  EXPECT_LT(text.size(), 10u * 1024) << text;
  EXPECT_EQ(count(text, ":count 1000000 ;"), 1u);
}

// Issue 11, ninth VOL pass: events of keys not met recently wait in a batch (thread_log.h). Every
// flush adds the batch first: one from another thread while the owner is idle, and one at the
// owner's next time-bound flush; nothing is written before.
TEST_F(RecorderTest, PendingNewKeysReachEveryFlush) {
  setenv("PROVIO_FLUSH_INTERVAL", "3600", 1);
  start();
  model::EntityId h5 = model::canonical_file_entity("/rec/pending.h5");
  auto dataset = [&](int i) {
    return model::object_entity(h5, "/d" + std::to_string(i), model::EntityClass::kDataset);
  };
  for (int i = 0; i < 10; ++i) record(event(dataset(i), Op::kWrite, 3));
  EXPECT_TRUE(files().empty());
  std::thread([] { flush_all(); }).join();  // claims this thread's log from outside
  std::string text = all_text();
  EXPECT_EQ(activities(text), 10u) << text;
  EXPECT_EQ(count(text, ":count 1 ;"), 10u) << text;
  for (int i = 10; i < 15; ++i) record(event(dataset(i)));
  record(event(dataset(3)));  // described already: its second call goes in a part
  Event later = event(dataset(15));
  later.start_ns += 7200'000'000'000;  // past the flush interval
  record(later);
  text = all_text();
  EXPECT_EQ(activities(text), 16u) << text;
  EXPECT_EQ(count(text, " :partial "), 1u) << "dataset 3's second call, in a part";
  EXPECT_TRUE(parses_with_rapper());
}

TEST_F(RecorderTest, TraceKeepsEveryCall) {
  setenv("PROVIO_LEVEL", "trace", 1);
  start();
  model::EntityId f = model::canonical_file_entity("/rec/trace.dat");
  for (int i = 0; i < 300; ++i) record(event(f));
  flush_all();
  std::string text = all_text();
  EXPECT_EQ(count(text, ":count 1 ;"), 300u);
  EXPECT_EQ(count(text, ":partial"), 0u);
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
  // Two full buffers went to the background writer (or, when it was busy, were written by this
  // thread); the third (50 events) is still in memory. Without any flush, the writer gets the
  // first two to the file.
  for (int wait = 0; wait < 500 && count(all_text(), ":count 1 ;") < 200u; ++wait) usleep(10000);
  EXPECT_EQ(count(all_text(), ":count 1 ;"), 200u);
  flush_all();
  EXPECT_EQ(count(all_text(), ":count 1 ;"), 250u);
}

// PROVIO_MEMORY for one thread whose table of `first` slots may double up to `most` and no further.
void bound_table(std::size_t first, std::size_t most) {
  setenv("PROVIO_SUMMARY_SLOTS", std::to_string(first).c_str(), 1);
  std::size_t bytes = SummaryTable::bytes(most) + ThreadLog::kWriteChunk + 64;
  ASSERT_LT(bytes, SummaryTable::bytes(2 * most) + ThreadLog::kWriteChunk);
  setenv("PROVIO_MEMORY", std::to_string(bytes).c_str(), 1);
}

// Memory stays bounded without re-describing: the table doubles while PROVIO_MEMORY allows; past
// 3/4 of the largest, new keys go to coarse activities, every such call counted as lost
// (memory-limit, issue 29), and counts still add up.
TEST_F(RecorderTest, FullSummaryTableDegradesToCoarseActivities) {
  bound_table(16, 256);  // 192 fine activities, then coarse
  start();
  std::uint64_t lost_before = losses(Loss::kMemoryLimit);
  model::EntityId h5 = model::canonical_file_entity("/rec/many.h5");
  std::vector<model::EntityId> ents;
  for (int i = 0; i < 200; ++i)
    ents.push_back(model::object_entity(h5, "/d" + std::to_string(i), model::EntityClass::kDataset));
  for (int i = 0; i < 100; ++i)
    ents.push_back(model::canonical_file_entity("/rec/many/" + std::to_string(i)));
  for (int round = 0; round < 3; ++round) {
    for (auto e : ents) record(event(e));
    flush_all();
  }
  std::string text = all_text();
  std::size_t total = 0;
  for (std::size_t p = text.find(":count "); p != std::string::npos; p = text.find(":count ", p + 1))
    total += std::stoul(text.substr(p + 7));
  EXPECT_EQ(total, 900u);
  EXPECT_EQ(activities(text), 194u) << "192 fine, one coarse on the HDF5 file, one without entity";
  EXPECT_EQ(count(text, ":coarse true"), 2u);
  // per round: 8 datasets beyond the 192 fine activities, on their file; 100 files on none
  EXPECT_NE(text.find("-f8 :coarse true ; :count 8 ;"), std::string::npos) << text;
  EXPECT_NE(text.find("-f8 :coarse true ; :count 100 ;"), std::string::npos);
  EXPECT_EQ(losses(Loss::kMemoryLimit) - lost_before, 3u * 108) << "8 datasets and 100 files a round";
  EXPECT_NE(text.find("\"memory-limit\""), std::string::npos);
  EXPECT_TRUE(parses_with_rapper());
}

// Without a memory bound in reach the table keeps every key: 20,000 files, each its own activity.
TEST_F(RecorderTest, SummaryTableGrowsPastSixteenTimes) {
  setenv("PROVIO_SUMMARY_SLOTS", "16", 1);
  start();
  std::uint64_t lost_before = losses(Loss::kMemoryLimit);
  for (int i = 0; i < 20000; ++i)
    record(event(model::canonical_file_entity("/rec/grow/" + std::to_string(i))));
  flush_all();
  std::string text = all_text();
  EXPECT_EQ(activities(text), 20000u);
  EXPECT_EQ(count(text, ":coarse true"), 0u);
  EXPECT_EQ(losses(Loss::kMemoryLimit), lost_before);
}

// A table full even of coarse activities is written and started afresh: counts still add up.
TEST_F(RecorderTest, TableFullOfCoarseActivitiesStartsAfresh) {
  bound_table(16, 256);  // 192 fine, 224 in all
  start();
  std::size_t events = 0;
  for (int api = 0; api < 300; ++api) {
    Event ev = event(model::canonical_file_entity("/rec/apis/" + std::to_string(api)));
    ev.api = model::api_id("test_api_" + std::to_string(api));
    for (int i = 0; i < 3; ++i, ++events) record(ev);
  }
  flush_all();
  std::string text = all_text();
  std::size_t total = 0;
  for (std::size_t p = text.find(":count "); p != std::string::npos; p = text.find(":count ", p + 1))
    total += std::stoul(text.substr(p + 7));
  EXPECT_EQ(total, events);
  EXPECT_GT(count(text, " :partial "), 0u) << "activities described again after the restart carry parts";
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
  EXPECT_EQ(count(all_text(), ":count 2 ;"), 1u);
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
  EXPECT_EQ(count(all_text(), ":count 100 ;"), 3u);
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
  EXPECT_EQ(count(all_text(), " a :Attribute ;"), 9u);
}

TEST_F(RecorderTest, MemoryLimitDegradesToSmallBuffersAndKeepsRecording) {
  setenv("PROVIO_MEMORY", "256K", 1);
  setenv("PROVIO_SUMMARY_SLOTS", "4096", 1);  // 4096 slots + the text buffer need more than 256K
  start();
  model::EntityId f = model::canonical_file_entity("/rec/mem.dat");
  for (int i = 0; i < 50; ++i) record(event(f));
  EXPECT_LT(stats().memory_bytes, 4096u * sizeof(SummarySlot));
  flush_all();
  EXPECT_EQ(count(all_text(), ":count 50 ;"), 1u);
}

}  // namespace
}  // namespace provio::store
