// Per-file prefixes and terms (store/file_names.h): each base declared once, above its first use,
// and each entity named with its own base's prefix however the bases interleave.
#include "store/file_names.h"

#include <gtest/gtest.h>

#include <string>

#include "model/entities.h"
#include "store/turtle.h"

namespace provio::store {
namespace {

using model::EntityClass;

std::size_t count(const std::string& text, const std::string& part) {
  std::size_t n = 0;
  for (std::size_t at = text.find(part); at != std::string::npos; at = text.find(part, at + 1)) ++n;
  return n;
}

TEST(FileNames, InterleavedFilesKeepTheirOwnPrefixes) {
  model::EntityId a = model::file_entity("/names-test/a.h5");
  model::EntityId b = model::file_entity("/names-test/b.h5");
  FileNames names;
  std::string out;
  // a's objects, b's, a's again: the last base remembered must not name an object of the other
  std::string ga = names.term(model::object_entity(a, "/g", EntityClass::kGroup), out);
  std::string gb = names.term(model::object_entity(b, "/g", EntityClass::kGroup), out);
  std::string da = names.term(model::object_entity(a, "/g/d", EntityClass::kDataset), out);
  std::string attr =
      names.term(model::attribute_entity(model::object_entity(b, "/g", EntityClass::kGroup), "x"), out);
  EXPECT_EQ(ga, "f1:\\/g");
  EXPECT_EQ(gb, "f2:\\/g");
  EXPECT_EQ(da, "f1:\\/g\\/d");
  EXPECT_EQ(attr.rfind("f2:", 0), 0u) << attr;
  EXPECT_EQ(count(out, "@prefix f1: <file:///names-test/a.h5#> .\n"), 1u) << out;
  EXPECT_EQ(count(out, "@prefix f2: <file:///names-test/b.h5#> .\n"), 1u) << out;
  EXPECT_EQ(count(out, "@prefix"), 2u) << out;
  // the files themselves share their directory's prefix, declared once, after the others
  std::string fa = names.term(a, out), fb = names.term(b, out);
  EXPECT_EQ(fa, "d3:a\\.h5");
  EXPECT_EQ(fb, "d3:b\\.h5");
  EXPECT_EQ(count(out, "@prefix d3: <file:///names-test/> .\n"), 1u) << out;
}

// "d1:data\." is valid Turtle, but rdflib 6.1 ends the statement at that '.': a name ending in
// '.' is written as a full IRI, a dot inside a name stays escaped.
TEST(FileNames, NameEndingInDotIsAFullIri) {
  model::EntityId dot = model::file_entity("/names-dot/data.");
  model::EntityId inner = model::file_entity("/names-dot/data.txt");
  model::EntityId obj =
      model::object_entity(model::file_entity("/names-dot/x.h5"), "/g.", EntityClass::kGroup);
  FileNames names;
  std::string out;
  EXPECT_EQ(names.term(dot, out), "<file:///names-dot/data.>");
  EXPECT_EQ(names.term(inner, out).substr(names.term(inner, out).find(':')), ":data\\.txt");
  EXPECT_EQ(names.term(obj, out), "<file:///names-dot/x.h5#/g.>");
  std::string local;
  EXPECT_FALSE(append_local_name(local, "a."));
  EXPECT_TRUE(local.empty());
  EXPECT_TRUE(append_local_name(local, "a.b"));
  EXPECT_EQ(local, "a\\.b");
}

}  // namespace
}  // namespace provio::store
