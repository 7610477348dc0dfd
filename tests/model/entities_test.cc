// Entity interning: one thing, one id and one IRI, whichever layer asked.
#include "model/entities.h"

#include <gtest/gtest.h>

#include <thread>
#include <vector>

namespace provio::model {
namespace {

TEST(Entities, SameThingSameId) {
  EntityId f1 = canonical_file_entity("/data/a.h5");
  EntityId f2 = file_entity("/data/./x/../a.h5");
  EXPECT_NE(f1, kNoEntity);
  EXPECT_EQ(f1, f2);
  EntityId d1 = object_entity(f1, "/g/d", EntityClass::kDataset);
  EntityId d2 = object_entity(f2, "/g/d", EntityClass::kDataset);
  EXPECT_EQ(d1, d2);
  EXPECT_EQ(entity(d1)->iri, "file:///data/a.h5#/g/d");
  EXPECT_EQ(entity(d1)->parent, f1);
  EXPECT_EQ(file_of(d1), f1);
  EntityId a = attribute_entity(d1, "units");
  EXPECT_EQ(file_of(a), f1);
  EXPECT_EQ(entity(a)->cls, EntityClass::kAttribute);
  EXPECT_EQ(entity(kNoEntity), nullptr);
  EXPECT_EQ(object_entity(kNoEntity, "/x", EntityClass::kGroup), kNoEntity);
}

TEST(Entities, ConcurrentInterningAgrees) {
  std::vector<std::vector<EntityId>> seen(4);
  std::vector<std::thread> threads;
  for (int t = 0; t < 4; ++t) {
    threads.emplace_back([&, t] {
      for (int i = 0; i < 500; ++i) seen[t].push_back(canonical_file_entity("/conc/" + std::to_string(i)));
    });
  }
  for (auto& th : threads) th.join();
  for (int t = 1; t < 4; ++t) EXPECT_EQ(seen[t], seen[0]);
}

}  // namespace
}  // namespace provio::model
