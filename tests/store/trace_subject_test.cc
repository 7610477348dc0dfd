// The traced calls' names, counted up as text, against the number written anew: every carry
// (9 → 10, 99 → 100, …) up to 10^6, and what put() leaves at the end.
#include "store/trace_subject.h"

#include <gtest/gtest.h>

#include <string>

namespace provio::store {
namespace {

TEST(TraceSubject, CountsLikeTheNumber) {
  for (const char* thread : {"t:0", "t:12345678901234567890"}) {
    TraceSubject s;
    s.start(thread);
    for (unsigned n = 1; n <= 1'000'000; ++n) {
      std::string want = std::string(thread) + "\\/c" + std::to_string(n);
      ASSERT_EQ(s.next(), want) << n;
    }
  }
}

TEST(TraceSubject, PutWritesTheSubjectAndReturnsItsEnd) {
  TraceSubject s;
  s.start("t:7");
  for (int i = 0; i < 99; ++i) s.next();
  char buf[TraceSubject::kRoom];
  char* end = s.put(buf);
  EXPECT_EQ(std::string(buf, end), "t:7\\/c99");
}

}  // namespace
}  // namespace provio::store
