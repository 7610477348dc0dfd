// Entity interning: one thing, one id and one IRI, whichever layer asked.
#include "model/entities.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <string>
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
  EXPECT_EQ(entity(d1)->iri(), "file:///data/a.h5#/g/d");
  EXPECT_EQ(entity(d1)->parent, f1);
  EXPECT_EQ(file_of(d1), f1);
  EntityId a = attribute_entity(d1, "units");
  EXPECT_EQ(file_of(a), f1);
  EXPECT_EQ(entity(a)->cls, EntityClass::kAttribute);
  EXPECT_EQ(entity(kNoEntity), nullptr);
  EXPECT_EQ(object_entity(kNoEntity, "/x", EntityClass::kGroup), kNoEntity);
}

// Objects and attributes are found by (parent, kind, name) without their IRIs; the IRI still
// decides what is the same thing.
TEST(Entities, ChildrenByParentAndName) {
  EntityId f = canonical_file_entity("/kids/a b.h5");
  EntityId root = object_entity(f, "/", EntityClass::kGroup);
  // A file's attributes are its root group's: one IRI, one entity, whichever way it is named.
  EntityId on_file = attribute_entity(f, "x");
  EXPECT_EQ(attribute_entity(root, "x"), on_file);
  EXPECT_EQ(attribute_entity(f, "x"), on_file);
  EXPECT_EQ(entity(on_file)->iri(), "file:///kids/a%20b.h5#/@x");
  // The same name as another kind of child, or under another parent, is another thing.
  EntityId group = object_entity(f, "/x", EntityClass::kGroup);
  EXPECT_NE(group, on_file);
  EXPECT_NE(attribute_entity(group, "x"), on_file);
  // Many children: the tables grow and keep finding every one.
  std::vector<EntityId> ids;
  for (int i = 0; i < 5000; ++i) ids.push_back(attribute_entity(group, "a" + std::to_string(i)));
  for (int i = 0; i < 5000; ++i) EXPECT_EQ(attribute_entity(group, "a" + std::to_string(i)), ids[i]);
  EXPECT_EQ(entity(ids[4999])->label, "a4999");
  EXPECT_EQ(entity(ids[4999])->parent, group);
  // A child's term is its IRI in <>; escaped when its parent's IRI needed escaping.
  EXPECT_EQ(entity(ids[0])->term(), "<file:///kids/a%20b.h5#/x@a0>");
  EntityId rec = record_entity("urn:x y", "a record", "");
  EXPECT_EQ(entity(rec)->term(), "<urn:x%20y>");
  EXPECT_EQ(entity(object_entity(rec, "/d", EntityClass::kDataset))->term(), "<urn:x%20y#/d>");
}

// Children are interned without looking their IRIs up (each is its key's alone), but a record
// with a child's IRI, made before or after it, is still that one entity.
TEST(Entities, RecordAndChildWithOneIriAreOneEntity) {
  EntityId f = canonical_file_entity("/rec/same.h5");
  EntityId early = object_entity(f, "/early", EntityClass::kDataset);
  EXPECT_EQ(record_entity(entity(early)->iri(), "a record", ""), early);
  EntityId rec = record_entity("file:///rec/same.h5#/late", "a record", "");
  EXPECT_EQ(object_entity(f, "/late", EntityClass::kDataset), rec);
  // A relative object path is its absolute path's entity.
  EXPECT_EQ(object_entity(f, "early", EntityClass::kDataset), early);
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

// An object's or attribute's IRI and term are made when first asked for, by whichever thread
// asks: threads asking at once all get the same text, in one place, and it is the IRI that
// interning by IRI (a record's) finds.
TEST(Entities, NamesMadeLaterAgreeAcrossThreads) {
  EntityId f = canonical_file_entity("/later/f.h5");
  EntityId never_named = object_entity(f, "/never", EntityClass::kGroup);
  std::vector<EntityId> ids;
  for (int i = 0; i < 300; ++i) {
    EntityId d = object_entity(f, "/g/d" + std::to_string(i), EntityClass::kDataset);
    ids.push_back(d);
    ids.push_back(attribute_entity(d, "units"));
  }
  std::vector<std::vector<const char*>> seen(4);
  std::vector<std::thread> threads;
  for (int t = 0; t < 4; ++t) {
    threads.emplace_back([&, t] {
      // Each thread walks the entities from another end, so that some are made by each.
      for (std::size_t k = 0; k < ids.size(); ++k) {
        std::size_t i = t % 2 ? ids.size() - 1 - k : k;
        seen[t].push_back(entity(ids[i])->term().data());
      }
      if (t % 2) std::reverse(seen[t].begin(), seen[t].end());
    });
  }
  for (auto& th : threads) th.join();
  for (int t = 1; t < 4; ++t) EXPECT_EQ(seen[t], seen[0]);
  EXPECT_EQ(entity(ids[2 * 299])->term(), "<file:///later/f.h5#/g/d299>");
  EXPECT_EQ(entity(ids[2 * 299 + 1])->iri(), "file:///later/f.h5#/g/d299@units");
  EXPECT_EQ(entity(ids[2 * 299 + 1])->term().substr(1, entity(ids[2 * 299 + 1])->iri().size()),
            entity(ids[2 * 299 + 1])->iri());
  // Run alone (as ctest runs it), no record exists before these: the first makes the names of
  // every entity interned without them before it looks its own IRI up.
  EXPECT_EQ(record_entity("file:///later/f.h5#/never", "a record", ""), never_named);
  EXPECT_EQ(record_entity("file:///later/f.h5#/g/d7@units", "a record", ""), ids[2 * 7 + 1]);
}

// A label is a C string as well (versions stat a file's label).
TEST(Entities, LabelIsFollowedByNul) {
  std::string long_name(100, 'x');
  EntityId f = canonical_file_entity("/nul/" + long_name);
  EXPECT_EQ(entity(f)->label, "/nul/" + long_name);
  EXPECT_EQ(entity(f)->label.data()[entity(f)->label.size()], '\0');
}

}  // namespace
}  // namespace provio::model
