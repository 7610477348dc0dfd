// IRIs for hostile names: every byte a path can hold must give a valid, exact IRI.
#include "model/iri.h"

#include <gtest/gtest.h>
#include <unistd.h>

#include <cstdlib>
#include <string>

namespace provio::model {
namespace {

TEST(PercentEncoding, KeepsUnreservedAndSlash) {
  EXPECT_EQ(file_iri("/data/run-1/out_v2.h5"), "file:///data/run-1/out_v2.h5");
}

TEST(PercentEncoding, EncodesHostileBytes) {
  struct Case {
    std::string path, iri;
  } cases[] = {
      {"/a b", "file:///a%20b"},
      {"/q\"uote", "file:///q%22uote"},
      {"/<x>", "file:///%3Cx%3E"},
      {"/h#ash", "file:///h%23ash"},
      {"/p%cent", "file:///p%25cent"},
      {"/new\nline", "file:///new%0Aline"},
      {"/latin\xE9", "file:///latin%E9"},       // not UTF-8
      {"/utf8\xC3\xA9", "file:///utf8%C3%A9"},  // é
      {"/back\\slash{}|^`", "file:///back%5Cslash%7B%7D%7C%5E%60"},
      {"/at@sign", "file:///at%40sign"},
  };
  for (const Case& c : cases) {
    EXPECT_EQ(file_iri(c.path), c.iri) << c.path;
    EXPECT_EQ(percent_decode(c.iri.substr(7)), c.path);
  }
}

TEST(ObjectIri, FullPathAndAttribute) {
  std::string f = file_iri("/d/x.h5");
  EXPECT_EQ(object_iri(f, "/g/dset"), "file:///d/x.h5#/g/dset");
  EXPECT_EQ(object_iri(f, "g"), "file:///d/x.h5#/g");
  EXPECT_EQ(attribute_iri(object_iri(f, "/g"), "units"), "file:///d/x.h5#/g@units");
  // '@' in a name is encoded, so the separator stays unambiguous
  EXPECT_EQ(attribute_iri(object_iri(f, "/a@b"), "c@d"), "file:///d/x.h5#/a%40b@c%40d");
  // attribute of a file: hangs off its root group
  EXPECT_EQ(attribute_iri(f, "version"), "file:///d/x.h5#/@version");
}

TEST(PercentDecode, KeepsMalformedEscapes) {
  EXPECT_EQ(percent_decode("a%zzb%4"), "a%zzb%4");
  EXPECT_EQ(percent_decode("%41%42"), "AB");
}

TEST(CanonicalPath, ResolvesExistingPrefixAndNormalisesTheRest) {
  char tmpl[] = "/tmp/provio-iri-XXXXXX";
  ASSERT_NE(mkdtemp(tmpl), nullptr);
  std::string dir = tmpl;
  std::string link = dir + "/link";
  ASSERT_EQ(symlink(dir.c_str(), link.c_str()), 0);
  // through the symlink, with "." and ".." and a not-yet-existing tail
  EXPECT_EQ(canonical_path(link + "/./sub/../new file.h5"), dir + "/new file.h5");
  EXPECT_EQ(canonical_path(link + "//a/b/"), dir + "/a/b");
  char cwd[4096];
  ASSERT_NE(getcwd(cwd, sizeof cwd), nullptr);
  ASSERT_EQ(chdir(dir.c_str()), 0);
  EXPECT_EQ(canonical_path("rel.h5"), dir + "/rel.h5");
  ASSERT_EQ(chdir(cwd), 0);
  unlink(link.c_str());
  rmdir(dir.c_str());
}

TEST(CanonicalPath, PreservesErrno) {
  errno = 1234;
  canonical_path("/definitely/not/here");
  EXPECT_EQ(errno, 1234);
}

}  // namespace
}  // namespace provio::model
