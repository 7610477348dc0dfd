// Per-file prefixes and terms (store/file_names.h): each base declared once, above its first use,
// and each entity named with its own base's prefix however the bases interleave.
#include "store/file_names.h"

#include <gtest/gtest.h>

#include <string>

#include "model/entities.h"

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

}  // namespace
}  // namespace provio::store
