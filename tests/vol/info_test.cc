// The connector's info string and object paths, without HDF5: round trips, nesting, and hostile
// input (unbalanced braces, huge values, junk keys) that must give a clear error, never a crash.
#include "vol/info.h"

#include <gtest/gtest.h>

#include <string>

#include "vol/path.h"

namespace provio::vol {
namespace {

TEST(InfoParse, EmptyMeansNative) {
  ParseResult r = parse_info("");
  ASSERT_TRUE(r.ok) << r.error;
  EXPECT_EQ(r.info.under_vol, "0");
  EXPECT_EQ(r.info.under_info, "");
  EXPECT_TRUE(r.info.options.empty());
}

TEST(InfoParse, PassthroughStyle) {
  ParseResult r = parse_info("under_vol=0;under_info={}");
  ASSERT_TRUE(r.ok) << r.error;
  EXPECT_EQ(r.info.under_vol, "0");
  EXPECT_EQ(r.info.under_info, "");
}

TEST(InfoParse, NestedUnderInfoKeptVerbatim) {
  ParseResult r = parse_info("under_vol=1;under_info={under_vol=0;under_info={}};level=trace");
  ASSERT_TRUE(r.ok) << r.error;
  EXPECT_EQ(r.info.under_vol, "1");
  EXPECT_EQ(r.info.under_info, "under_vol=0;under_info={}");
  ASSERT_EQ(r.info.options.size(), 1u);
  EXPECT_EQ(r.info.options[0].first, "level");
  EXPECT_EQ(r.info.options[0].second, "trace");
}

TEST(InfoParse, WhitespaceAndEmptyItems) {
  ParseResult r = parse_info(" ; under_vol = 0 ;; under_info = {a b} ; k = v ;");
  ASSERT_TRUE(r.ok) << r.error;
  EXPECT_EQ(r.info.under_info, "a b");
  ASSERT_EQ(r.info.options.size(), 1u);
  EXPECT_EQ(r.info.options[0].second, "v");
}

TEST(InfoParse, ConnectorByName) {
  ParseResult r = parse_info("under_vol=pass_through;under_info={under_vol=0;under_info={}}");
  ASSERT_TRUE(r.ok) << r.error;
  EXPECT_EQ(r.info.under_vol, "pass_through");
  unsigned v = 7;
  EXPECT_FALSE(under_is_value(r.info.under_vol, &v));
  EXPECT_TRUE(under_is_value("511", &v));
  EXPECT_EQ(v, 511u);
  EXPECT_FALSE(under_is_value("99999999999", &v));
  EXPECT_FALSE(under_is_value("-1", &v));
}

TEST(InfoParse, HostileInputIsAnErrorNotACrash) {
  const char* bad[] = {
      "under_vol=0;under_info={",     // unbalanced
      "under_vol=0;under_info={}}",   // text after '}'
      "under_vol=0;under_info={{}",   // unbalanced nesting
      "under_vol=0;under_vol=1",      // twice
      "under_info={};under_info={}",  // twice
      "under_vol=0;garbage",          // no '='
      "=3",                           // empty key
      "under_vol=0;bad key=1",        // space in key
      "under_vol=a b",                // not a value or a name
      "under_vol=0;under_info=}{",    // unbalanced plain value
      "under_vol=0;k={x}y",           // junk after braces
  };
  for (const char* s : bad) {
    ParseResult r = parse_info(s);
    EXPECT_FALSE(r.ok) << s;
    EXPECT_FALSE(r.error.empty()) << s;
  }
}

TEST(InfoParse, LongValuesRoundTrip) {
  std::string big(1 << 20, 'x');
  std::string nested = "under_vol=0;under_info={" + std::string(5000, '{') + std::string(5000, '}') + "}";
  InfoText t;
  t.under_vol = "1";
  t.under_info = nested;
  t.options = {{"dir", "/tmp/" + big}, {"note", "a;b {c} ; d"}, {"pad", "  spaced  "}};
  std::string s = format_info(t);
  ParseResult r = parse_info(s);
  ASSERT_TRUE(r.ok) << r.error;
  EXPECT_TRUE(r.info == t);
}

TEST(InfoParse, NonAsciiBytesPassThrough) {
  std::string s = "under_vol=0;under_info={\xff\xfe\x01};k=\xc3\xa9t\xc3\xa9";
  ParseResult r = parse_info(s);
  ASSERT_TRUE(r.ok) << r.error;
  EXPECT_EQ(r.info.under_info, "\xff\xfe\x01");
  ParseResult again = parse_info(format_info(r.info));
  ASSERT_TRUE(again.ok);
  EXPECT_TRUE(again.info == r.info);
}

TEST(InfoFormat, Canonical) {
  InfoText t;
  EXPECT_EQ(format_info(t), "under_vol=0;under_info={}");
  t.options = {{"level", "trace"}};
  EXPECT_EQ(format_info(t), "under_vol=0;under_info={};level=trace");
}

TEST(Path, Join) {
  EXPECT_EQ(join_path("/", "a"), "/a");
  EXPECT_EQ(join_path("/g", "d"), "/g/d");
  EXPECT_EQ(join_path("/g", "/x//y/"), "/x/y");
  EXPECT_EQ(join_path("/g/", "./d"), "/g/d");
  EXPECT_EQ(join_path("/", "."), "/");
  EXPECT_EQ(join_path("/g", ""), "/g");
  EXPECT_EQ(join_path("/g", "../d"), "/g/../d");  // ".." is an ordinary name in HDF5
  EXPECT_EQ(join_path("", ""), "/");
  // Names and bases that look plain but are not: each is normalised, never joined as is.
  EXPECT_EQ(join_path("/g", "a/"), "/g/a");
  EXPECT_EQ(join_path("/g", "a//b"), "/g/a/b");
  EXPECT_EQ(join_path("/g", "a/."), "/g/a");
  EXPECT_EQ(join_path("/g", "."), "/g");
  EXPECT_EQ(join_path("/g/./h", "d"), "/g/h/d");
  EXPECT_EQ(join_path("//anonymous/0a", "d"), "/anonymous/0a/d");
  EXPECT_EQ(join_path("/g", ".a/..b/a.b"), "/g/.a/..b/a.b");
}

}  // namespace
}  // namespace provio::vol
