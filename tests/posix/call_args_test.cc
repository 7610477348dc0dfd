// What a call's arguments say (posix/call_args.h): stream descriptors as fileno() answers them,
// and which open flags and stdio modes make new content.
#include "posix/call_args.h"

#include <gtest/gtest.h>
#include <stdio.h>

namespace provio::posix {
namespace {

TEST(CallArgs, StreamDescriptorAsFilenoAnswers) {
  EXPECT_EQ(stream_fd(nullptr), -1);
  FILE* f = tmpfile();
  ASSERT_NE(f, nullptr);
  EXPECT_EQ(stream_fd(f), fileno(f));
  fclose(f);
  char buf[16];
  FILE* mem = fmemopen(buf, sizeof buf, "w");  // no descriptor under it
  ASSERT_NE(mem, nullptr);
  EXPECT_EQ(stream_fd(mem), -1);
  fclose(mem);
}

TEST(CallArgs, NewContent) {
  EXPECT_TRUE(creates(O_CREAT | O_TRUNC | O_WRONLY));
  EXPECT_TRUE(creates(O_CREAT | O_EXCL | O_RDWR));
  EXPECT_FALSE(creates(O_CREAT | O_APPEND | O_WRONLY));  // an append log may exist already
  EXPECT_FALSE(creates(O_TRUNC | O_WRONLY));
  EXPECT_TRUE(mode_creates("w"));
  EXPECT_TRUE(mode_creates("rb+x"));
  EXPECT_FALSE(mode_creates("a"));
  EXPECT_FALSE(mode_creates("r+"));
  EXPECT_FALSE(mode_creates(nullptr));
}

TEST(CallArgs, ModeOnlyWhenPassed) {
  EXPECT_TRUE(needs_mode(O_CREAT | O_WRONLY));
  EXPECT_TRUE(needs_mode(O_TMPFILE | O_RDWR));
  EXPECT_FALSE(needs_mode(O_DIRECTORY | O_RDONLY));  // shares a bit with O_TMPFILE
}

}  // namespace
}  // namespace provio::posix
