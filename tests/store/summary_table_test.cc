// The activity table alone (store/summary_table.h): keys found again, measures summed, the
// changed list, growth that keeps every slot in place, and the memory bound's coarse activities.
#include "store/summary_table.h"

#include <gtest/gtest.h>

#include <cstdlib>
#include <iterator>
#include <map>
#include <vector>

#include "model/config.h"
#include "store/incomplete.h"
#include "store/memory_budget.h"

namespace provio::store {
namespace {

using model::Event;
using model::Op;

Event event(model::EntityId entity, std::uint64_t bytes = 10, std::uint64_t start = 1000,
            model::ApiId api = 1, Op op = Op::kWrite) {
  Event ev;
  ev.op = op;
  ev.api = api;
  ev.entity = entity;
  ev.bytes = bytes;
  ev.start_ns = start;
  ev.elapsed_ns = 5;
  return ev;
}

// Adds `ev` as ThreadLog::record does: to its recent slot, else through the pending batch.
void record(SummaryTable& t, const Event& ev) {
  if (SummarySlot* s = t.recent(ev)) {
    t.add(*s, ev);
  } else if (t.queue(ev)) {
    t.add_pending(nullptr, nullptr);  // these tests fill no table past its bound in a batch
  }
}

// The changed slots by entity, as a flush would read them.
std::map<model::EntityId, SummarySlot> changed(const SummaryTable& t) {
  std::map<model::EntityId, SummarySlot> out;
  for (std::size_t k = 0; k < t.changed_count(); ++k) {
    const SummarySlot& s = *t.changed()[k];
    EXPECT_TRUE(out.emplace(s.entity, s).second) << "slot listed twice: entity " << s.entity;
  }
  return out;
}

class SummaryTableTest : public ::testing::Test {
 protected:
  void SetUp() override { reset_memory(); }
  void TearDown() override {
    unsetenv("PROVIO_MEMORY");
    model::reload_config();
    reset_memory();
  }
};

TEST_F(SummaryTableTest, EmptyTableHoldsNothing) {
  SummaryTable t;
  EXPECT_FALSE(t.allocated());
  EXPECT_EQ(t.recent(event(1)), nullptr);
  EXPECT_EQ(t.memory_bytes(), 0u);
}

TEST_F(SummaryTableTest, SumsMeasuresPerKeyAndListsEachChangedSlotOnce) {
  SummaryTable t;
  t.allocate(16);
  EXPECT_EQ(t.index_size(), 16u);
  EXPECT_EQ(t.memory_bytes(), SummaryTable::bytes(16));
  record(t, event(1, 10, 2000));
  record(t, event(2, 20, 3000));
  EXPECT_TRUE(t.has_pending());
  EXPECT_EQ(t.changed_count(), 0u);  // new keys wait in the batch
  EXPECT_EQ(t.held_calls(), 2u);
  t.add_pending(nullptr, nullptr);
  EXPECT_FALSE(t.has_pending());
  ASSERT_NE(t.recent(event(1)), nullptr);  // now among the recent keys
  record(t, event(1, 5, 1500));            // earlier start, same key
  record(t, event(1, 7, 2500));
  auto c = changed(t);
  ASSERT_EQ(c.size(), 2u);
  EXPECT_EQ(c[1].count, 3u);
  EXPECT_EQ(c[1].bytes, 22u);
  EXPECT_EQ(c[1].elapsed_ns, 15u);
  EXPECT_EQ(c[1].first_start_ns, 1500u);
  EXPECT_EQ(c[1].last_end_ns, 2505u);
  EXPECT_EQ(c[2].count, 1u);
  EXPECT_EQ(t.held_calls(), 4u);
  EXPECT_EQ(t.slots_used(), 2u);

  // A flush writes the changed slots and zeroes their measures; the next call starts a part.
  for (std::size_t k = 0; k < t.changed_count(); ++k) t.changed()[k]->count = 0;
  t.reset_changed();
  EXPECT_EQ(t.changed_count(), 0u);
  record(t, event(2, 1, 9000));
  c = changed(t);
  ASSERT_EQ(c.size(), 1u);
  EXPECT_EQ(c[2].count, 1u);
  EXPECT_EQ(c[2].first_start_ns, 9000u);
  EXPECT_EQ(t.slots_used(), 2u);
}

TEST_F(SummaryTableTest, KeysDifferInEveryField) {
  SummaryTable t;
  t.allocate(64);
  Event base = event(7);
  Event other_api = base, other_op = base, other_entity = base, other_other = base, other_flags = base;
  other_api.api = 2;
  other_op.op = Op::kRead;
  other_entity.entity = 8;
  other_other.other = 9;
  other_flags.flags = model::kFlagCollective;
  for (const Event& ev : {base, other_api, other_op, other_entity, other_other, other_flags, base})
    record(t, ev);
  t.add_pending(nullptr, nullptr);
  EXPECT_EQ(t.slots_used(), 6u);
  EXPECT_EQ(t.held_calls(), 7u);
}

// The task is part of the key (a summary activity belongs to one task), also for a key that is
// recent when the task changes; back in a task, its slot is found again.
TEST_F(SummaryTableTest, TheTaskIsPartOfTheKey) {
  SummaryTable t;
  t.allocate(64);
  record(t, event(7, 10));
  t.add_pending(nullptr, nullptr);
  record(t, event(7, 20));  // a recent key now
  for (std::uint64_t task : {3u, 4u, 3u, 0u}) {
    t.set_task(task);
    record(t, event(7, 100 * task));
    t.add_pending(nullptr, nullptr);  // as ThreadLog does before each change of task
  }
  EXPECT_EQ(t.slots_used(), 3u);
  std::map<std::uint64_t, std::uint64_t> bytes, count;
  for (std::size_t k = 0; k < t.changed_count(); ++k) {
    bytes[t.changed()[k]->task] += t.changed()[k]->bytes;
    count[t.changed()[k]->task] += t.changed()[k]->count;
  }
  EXPECT_EQ(bytes, (std::map<std::uint64_t, std::uint64_t>{{0, 30}, {3, 600}, {4, 400}}));
  EXPECT_EQ(count, (std::map<std::uint64_t, std::uint64_t>{{0, 3}, {3, 2}, {4, 1}}));
}

TEST_F(SummaryTableTest, GrowsAndKeepsEverySlot) {
  SummaryTable t;
  t.allocate(16);
  constexpr model::EntityId kKeys = 5000;
  for (int round = 0; round < 2; ++round) {
    for (model::EntityId e = 1; e <= kKeys; ++e) record(t, event(e, e));
    t.add_pending(nullptr, nullptr);
  }
  EXPECT_EQ(t.slots_used(), kKeys);
  EXPECT_GE(t.index_size(), 4 * kKeys / 3);
  EXPECT_EQ(memory_in_use(), t.memory_bytes() - SummaryTable::bytes(16));  // growth reserved
  auto c = changed(t);
  ASSERT_EQ(c.size(), kKeys);
  for (model::EntityId e = 1; e <= kKeys; ++e) {
    EXPECT_EQ(c[e].count, 2u) << e;
    EXPECT_EQ(c[e].bytes, 2u * e) << e;
  }
}

TEST_F(SummaryTableTest, AtTheMemoryBoundNewKeysGoOnCoarseActivitiesThenTheTableIsFull) {
  setenv("PROVIO_MEMORY", "64K", 1);
  model::reload_config();
  take_memory(64 << 10);  // the bound is reached: no growth at all
  SummaryTable t;
  t.allocate(16);  // 12 fine slots (3/4), 14 in all (7/8)
  std::uint64_t lost = losses(Loss::kMemoryLimit);
  for (model::EntityId e = 1; e <= 12; ++e) record(t, event(e));
  t.add_pending(nullptr, nullptr);
  EXPECT_EQ(t.slots_used(), 12u);
  // Objects past the bound: one coarse activity per (API, operation) on no entity (these ids
  // have no file), their calls counted as lost.
  // (Numbers no entity of this process has: other tests in this binary intern files.)
  constexpr model::EntityId kUnknown = 1u << 30;
  for (model::EntityId e = 13; e <= 20; ++e) record(t, event(kUnknown + e, 1, 1000, 1, Op::kWrite));
  record(t, event(kUnknown + 21, 1, 1000, 1, Op::kRead));
  t.add_pending(nullptr, nullptr);
  EXPECT_EQ(t.slots_used(), 14u);
  EXPECT_EQ(losses(Loss::kMemoryLimit) - lost, 9u);
  std::uint64_t coarse_slots = 0, coarse_calls = 0;
  for (std::size_t k = 0; k < t.changed_count(); ++k) {
    const SummarySlot& s = *t.changed()[k];
    if (!(s.flags & model::kFlagCoarse)) continue;
    EXPECT_EQ(s.entity, model::kNoEntity);
    ++coarse_slots;
    coarse_calls += s.count;
  }
  EXPECT_EQ(coarse_slots, 2u);  // write, read
  EXPECT_EQ(coarse_calls, 9u);

  // Full even of coarse activities: `full` is called, must empty the table, and the call that
  // found it full goes into the emptied table.
  struct Full {
    SummaryTable* table;
    int calls = 0;
  } full{&t};
  auto on_full = [](void* f) {
    auto* full = static_cast<Full*>(f);
    ++full->calls;
    full->table->clear();
  };
  record(t, event(22, 1, 1000, 1, Op::kFlush));
  t.add_pending(on_full, &full);
  EXPECT_EQ(full.calls, 1);
  EXPECT_EQ(t.slots_used(), 1u);
  EXPECT_EQ(t.changed_count(), 1u);
  EXPECT_EQ(t.recent(event(1)), nullptr);  // clear() forgets the recent slots
}

// Access sizes are counted per bucket when the size changes (runs of equal sizes wait in the
// slot): sizes_of() gives every call of the part, and a metadata slot keeps none.
TEST_F(SummaryTableTest, CountsAccessSizesPerBucketAcrossRuns) {
  SummaryTable t;
  t.allocate(16);
  for (std::uint64_t bytes : {10, 10, 200, 200, 10, 5000, 5000, 5000}) record(t, event(1, bytes));
  record(t, event(2, 0, 1000, 1, Op::kOpen));
  t.add_pending(nullptr, nullptr);
  auto slots = changed(t);
  ASSERT_EQ(slots.size(), 2u);
  auto sizes = sizes_of(slots[1]);
  EXPECT_EQ(sizes[0], 3u);  // 10 bytes: 0_100
  EXPECT_EQ(sizes[1], 2u);  // 200: 100_1k
  EXPECT_EQ(sizes[2], 3u);  // 5000: 1k_10k
  EXPECT_EQ(sizes[0] + sizes[1] + sizes[2], slots[1].count);
  EXPECT_FALSE(keeps_sizes(slots[2].op));

  // A new part (what a flush leaves) starts its runs afresh.
  SummarySlot& s = *t.changed()[0];
  s.count = s.bytes = s.elapsed_ns = 0;
  std::fill(std::begin(s.sizes), std::end(s.sizes), 0);
  t.reset_changed();
  record(t, event(1, 1 << 20));
  record(t, event(1, 50));
  sizes = sizes_of(*t.changed()[0]);
  EXPECT_EQ(sizes[4], 1u);  // 1 MiB: 100k_1m
  EXPECT_EQ(sizes[0], 1u);
  EXPECT_EQ(sizes[2], 0u);
}

// The bucket rule without a loop (model/access_size.h) against Darshan's bounds compared one by
// one, at and around every bound and every power of two.
TEST(AccessSize, BucketsAreDarshansInclusiveUpperBounds) {
  const std::uint64_t upper[] = {100, 1024, 10240, 102400, 1048576, 4194304, 10485760, 104857600, 1073741824};
  auto by_bounds = [&](std::uint64_t bytes) {
    std::size_t b = 0;
    while (b < std::size(upper) && bytes > upper[b]) ++b;
    return b;
  };
  std::vector<std::uint64_t> sizes = {0, ~std::uint64_t{0}};
  for (std::uint64_t u : upper) sizes.insert(sizes.end(), {u - 1, u, u + 1});
  for (int w = 0; w < 64; ++w) {
    std::uint64_t p = std::uint64_t{1} << w;
    sizes.insert(sizes.end(), {p - 1, p, p + 1});
  }
  for (std::uint64_t bytes : sizes)
    EXPECT_EQ(model::size_bucket(bytes), by_bounds(bytes)) << bytes << " bytes";
  EXPECT_EQ(model::size_bucket(100), 0u);
  EXPECT_EQ(model::size_bucket(101), 1u);
  EXPECT_EQ(model::size_bucket(4096), 2u);
  EXPECT_EQ(model::size_bucket(std::uint64_t{1} << 40), 9u);
}

}  // namespace
}  // namespace provio::store
