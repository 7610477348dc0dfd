// The descriptor table: direct and overflow slots, ranges, the used bit.
#include "posix/fd_table.h"

#include <gtest/gtest.h>

namespace provio::posix {
namespace {

TEST(FdTable, DirectSlotsStartUnknownAndKeepValues) {
  FdTable& t = fd_table();
  EXPECT_EQ(t.get(7), kUnknown);
  t.set(7, 42);
  EXPECT_EQ(t.get(7), 42u);
  t.clear(7);
  EXPECT_EQ(t.get(7), kUnknown);
}

TEST(FdTable, DirectEndCoversEverySlotSet) {
  FdTable& t = fd_table();
  t.set(300, 7);
  EXPECT_GE(t.direct_end(), 301);
  int end = t.direct_end();
  t.set(5, 8);  // lower descriptors do not lower it, clearing does not either
  t.clear(300);
  EXPECT_EQ(t.direct_end(), end);
  t.set(FdTable::kDirect + 5, 9);  // overflow slots are not direct ones
  EXPECT_EQ(t.direct_end(), end);
  t.clear(5);
  t.clear(FdTable::kDirect + 5);
}

TEST(FdTable, NegativeDescriptorsAreIgnored) {
  FdTable& t = fd_table();
  t.set(-1, 5);
  EXPECT_EQ(t.get(-1), kIgnored);
}

TEST(FdTable, OverflowSlotsBehaveLikeDirectOnes) {
  FdTable& t = fd_table();
  int big = FdTable::kDirect + 12345;
  EXPECT_EQ(t.get(big), kUnknown);
  t.set(big, 99);
  EXPECT_EQ(t.get(big), 99u);
  t.clear(big);
  EXPECT_EQ(t.get(big), kUnknown);
}

TEST(FdTable, ClearRangeSpansDirectAndOverflow) {
  FdTable& t = fd_table();
  int last = FdTable::kDirect + 10;
  t.set(100, 1);
  t.set(FdTable::kDirect - 1, 2);
  t.set(last, 3);
  t.set(last + 1, 4);
  t.clear_range(100, static_cast<unsigned>(last));
  EXPECT_EQ(t.get(100), kUnknown);
  EXPECT_EQ(t.get(FdTable::kDirect - 1), kUnknown);
  EXPECT_EQ(t.get(last), kUnknown);
  EXPECT_EQ(t.get(last + 1), 4u);
  t.clear(last + 1);
}

TEST(FdTable, UsedBitIsSeparateFromTheEntity) {
  EXPECT_EQ(slot_entity(kIgnored), 0u);
  EXPECT_EQ(slot_entity(kUnknown), 0u);
  EXPECT_EQ(slot_entity(77 | kUsed), 77u);
  EXPECT_TRUE(slot_used(77 | kUsed));
  EXPECT_FALSE(slot_used(77));
  EXPECT_FALSE(slot_used(kIgnored));
}

}  // namespace
}  // namespace provio::posix
