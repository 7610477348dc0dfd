// The workflow record buffer (src/store/record_buffer.h) and the C API around it: copying,
// bounds, overflow, formatting that refuses half statements, errno, and output failures.
#include "store/record_buffer.h"

#include <gtest/gtest.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include <cerrno>
#include <cmath>
#include <string>

#include "model/entities.h"
#include "provio/provio.h"
#include "store/recorder.h"

namespace provio::store {
namespace {

RecordContext context(std::string* declared) {
  return {"urn:x", "urn:x/thread/0", [declared](model::EntityId e) { *declared += std::to_string(e) + ";"; }};
}

Record metric(std::string_view name, double v) {
  Record r;
  r.kind = RecordKind::kMetric;
  r.text = name;
  r.num.d = v;
  r.a = 3;
  r.step = 7;
  r.sub = static_cast<std::uint8_t>(Stage::kTesting);
  r.time_ns = 1'700'000'000'000'000'000ull;
  return r;
}

TEST(RecordBuffer, CopiesStringsIntoItsArena) {
  RecordBuffer b(4, 64);
  std::string name = "accuracy";
  ASSERT_TRUE(b.add(metric(name, 0.5)));
  name.assign("XXXXXXXX");  // the caller's memory changes; the buffered record does not
  std::string out, declared;
  b.write_all(out, context(&declared));
  EXPECT_NE(out.find("<urn:x/thread/0/metric/1> provio:metricName \"accuracy\" ."), std::string::npos) << out;
  EXPECT_NE(out.find("<urn:x/thread/0/metric/1> provio:value \"0.5\"^^xsd:double ."), std::string::npos);
  EXPECT_NE(out.find("<urn:x/thread/0/metric/1> provio:step \"7\"^^xsd:long ."), std::string::npos);
  EXPECT_NE(out.find("<urn:x/thread/0/metric/1> provio:stage provio:Testing ."), std::string::npos);
  EXPECT_NE(out.find("<urn:x/thread/0/metric/1> prov:wasGeneratedBy <urn:x/task/3> ."), std::string::npos);
  EXPECT_EQ(out.find("XXXX"), std::string::npos);
  EXPECT_TRUE(b.empty());
}

TEST(RecordBuffer, RefusesWhenRecordsOrArenaAreFull) {
  RecordBuffer b(2, 16);
  EXPECT_TRUE(b.add(metric("a", 1)));
  EXPECT_TRUE(b.add(metric("b", 2)));
  EXPECT_FALSE(b.add(metric("c", 3)));  // two records at most
  b.clear();
  EXPECT_TRUE(b.add(metric("0123456789", 1)));
  EXPECT_FALSE(b.add(metric("0123456789", 2)));  // 20 bytes of text > 16
  EXPECT_EQ(b.size(), 1u);
}

TEST(RecordBuffer, CountersPersistAcrossFlushesAndOverflowIsWritten) {
  RecordBuffer b(1, 8);
  std::string out, declared;
  ASSERT_TRUE(b.add(metric("m", 1)));
  b.write_all(out, context(&declared));
  std::string big(1000, 'q');
  Record r = metric(big, 2);
  ASSERT_FALSE(b.add(r));
  b.set_overflow(&r);
  EXPECT_FALSE(b.empty());
  b.write_all(out, context(&declared));
  EXPECT_NE(out.find("<urn:x/thread/0/metric/2> provio:metricName \"" + big + "\" ."), std::string::npos);
  EXPECT_TRUE(b.empty());
}

// A full bank is handed off (to be formatted on the background writer's thread) while the
// other fills; numbering runs on across the banks, and a bank not yet written is not reused.
TEST(RecordBuffer, HandedOffBankIsWrittenApartAndNumberingRunsOn) {
  RecordBuffer b(2, 64);
  std::string out, declared;
  ASSERT_TRUE(b.add(metric("first", 1)));
  ASSERT_TRUE(b.add(metric("second", 2)));
  ASSERT_FALSE(b.add(metric("third", 3)));
  ASSERT_TRUE(b.hand_off());
  EXPECT_EQ(b.handed_off(), 2u);
  EXPECT_TRUE(b.empty());
  ASSERT_TRUE(b.add(metric("third", 3)));
  ASSERT_TRUE(b.add(metric("fourth", 4)));
  EXPECT_FALSE(b.hand_off());  // the first bank is not written yet
  b.write_handed_off(out, context(&declared));
  EXPECT_EQ(b.handed_off(), 0u);
  EXPECT_NE(out.find("<urn:x/thread/0/metric/1> provio:metricName \"first\" ."), std::string::npos) << out;
  EXPECT_NE(out.find("<urn:x/thread/0/metric/2> provio:metricName \"second\" ."), std::string::npos);
  EXPECT_EQ(out.find("third"), std::string::npos);
  b.write_all(out, context(&declared));
  EXPECT_NE(out.find("<urn:x/thread/0/metric/3> provio:metricName \"third\" ."), std::string::npos) << out;
  EXPECT_NE(out.find("<urn:x/thread/0/metric/4> provio:metricName \"fourth\" ."), std::string::npos);
  EXPECT_TRUE(b.hand_off());  // both banks empty again
}

TEST(RecordBuffer, KeyNodesAreEncodedAndUnwritableValuesLeaveNothing) {
  RecordBuffer b(4, 256);
  Record r;
  r.kind = RecordKind::kKeyValue;
  r.sub = static_cast<std::uint8_t>(KeyOwner::kConfig);
  r.subject = 2;
  r.text = "a b/\"c\">\n";
  r.vtype = ValueType::kString;
  r.text2 = "v";
  ASSERT_TRUE(b.add(r));
  Record dangling = r;
  dangling.text = "gone";
  dangling.vtype = ValueType::kEntity;
  dangling.entity = 999999;  // no such entity: no value, so no statement about the key at all
  ASSERT_TRUE(b.add(dangling));
  std::string out, declared;
  b.write_all(out, context(&declared));
  EXPECT_NE(out.find("<urn:x/config/2> provio:parameter <urn:x/config/2/a%20b%2F%22c%22%3E%0A> ."),
            std::string::npos)
      << out;
  EXPECT_NE(out.find("provio:key \"a b/\\\"c\\\">\\n\" ."), std::string::npos) << out;
  EXPECT_EQ(out.find("gone"), std::string::npos) << out;
}

TEST(RecordBuffer, DeclaresReferencedEntitiesBeforeUsingThem) {
  RecordBuffer b(4, 256);
  Record r;
  r.kind = RecordKind::kTaskOutput;
  r.subject = 1;
  r.entity = model::canonical_file_entity("/data/out file.h5");
  ASSERT_TRUE(b.add(r));
  std::string out, declared;
  b.write_all(out, context(&declared));
  EXPECT_EQ(declared, std::to_string(r.entity) + ";");
  EXPECT_NE(out.find("<file:///data/out%20file.h5> prov:wasGeneratedBy <urn:x/task/1> ."), std::string::npos)
      << out;
}

class WorkflowApiTest : public ::testing::Test {
 protected:
  void SetUp() override {
    char tmpl[] = "/tmp/provio-wfapi-XXXXXX";
    ASSERT_NE(mkdtemp(tmpl), nullptr);
    dir_ = tmpl;
    setenv("PROVIO_DIR", dir_.c_str(), 1);
    reset_for_testing();
  }
  void TearDown() override {
    unsetenv("PROVIO_DIR");
    reset_for_testing();
    std::system(("rm -rf '" + dir_ + "'").c_str());
  }
  std::string dir_;
};

TEST_F(WorkflowApiTest, ErrnoIsKeptOnSuccessAndOnMisuse) {
  errno = EDOM;
  provio_task_t t = provio_task_begin("t", 0);
  EXPECT_NE(t, 0u);
  EXPECT_EQ(errno, EDOM);
  EXPECT_EQ(provio_metric("m", std::nan(""), 0, PROVIO_STAGE_NONE), PROVIO_EINVAL);
  EXPECT_EQ(errno, EDOM);
  EXPECT_EQ(provio_metric("m", 1.0, 0, PROVIO_STAGE_NONE), PROVIO_OK);
  EXPECT_EQ(errno, EDOM);
  EXPECT_EQ(provio_task_end(t), PROVIO_OK);
  EXPECT_EQ(provio_task_end(t), PROVIO_EINVAL);
  EXPECT_EQ(errno, EDOM);
  provio_flush();
  EXPECT_EQ(errno, EDOM);
}

TEST_F(WorkflowApiTest, UnwritableOutputDropsRecordsAndKeepsRunning) {
  setenv("PROVIO_DIR", "/proc/provio-cannot-create-this", 1);
  reset_for_testing();
  provio_task_t t = provio_task_begin("t", 0);
  for (int i = 0; i < 2000; ++i) ASSERT_EQ(provio_metric("m", i, i, PROVIO_STAGE_TRAINING), PROVIO_OK);
  EXPECT_EQ(provio_task_end(t), PROVIO_OK);
  provio_flush();
}

// Eight full banks of metrics, each handed to the background writer (or written by the
// thread itself when the writer's queue is full): every metric is in the file once, numbered in
// order.
TEST_F(WorkflowApiTest, FullRecordBanksAreWrittenWithNothingLost) {
  constexpr int kMetrics = 2048;
  provio_task_t t = provio_task_begin("t", 0);
  for (int i = 0; i < kMetrics; ++i) ASSERT_EQ(provio_metric("loss", i, i, PROVIO_STAGE_TRAINING), PROVIO_OK);
  EXPECT_EQ(provio_task_end(t), PROVIO_OK);
  provio_flush();
  std::string text;
  std::string cmd = "zstdcat -qf '" + dir_ + "'/*.ttl*";  // compressed (the default) or plain
  FILE* in = popen(cmd.c_str(), "r");
  ASSERT_NE(in, nullptr);
  char buf[65536];
  for (std::size_t n; (n = fread(buf, 1, sizeof buf, in)) > 0;) text.append(buf, n);
  pclose(in);
  std::size_t names = 0;
  for (std::size_t at = 0; (at = text.find("provio:metricName \"loss\"", at)) != std::string::npos; ++at)
    ++names;
  EXPECT_EQ(names, static_cast<std::size_t>(kMetrics));
  for (int n : {1, 256, 257, 1024, kMetrics}) {
    std::string subject = "/metric/" + std::to_string(n) + "> provio:metricName";
    EXPECT_NE(text.find(subject), std::string::npos) << subject;
  }
  EXPECT_EQ(text.find("/metric/" + std::to_string(kMetrics + 1) + ">"), std::string::npos);
}

TEST_F(WorkflowApiTest, RecordingOffStillChecksMisuse) {
  setenv("PROVIO_LEVEL", "off", 1);
  reset_for_testing();
  provio_task_t t = provio_task_begin("t", 0);
  EXPECT_NE(t, 0u);
  EXPECT_EQ(provio_metric("m", 1.0, 0, PROVIO_STAGE_NONE), PROVIO_EOFF);
  EXPECT_EQ(provio_task_end(t), PROVIO_EOFF);
  EXPECT_EQ(provio_task_end(t), PROVIO_EINVAL);
  unsetenv("PROVIO_LEVEL");
}

}  // namespace
}  // namespace provio::store
