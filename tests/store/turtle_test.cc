// The statement writer: escaping of hostile text, literal typing, whole-statement rollback.
#include "store/turtle.h"

#include <gtest/gtest.h>

#include <cmath>
#include <ctime>
#include <limits>
#include <string>

namespace provio::store {
namespace {

std::string escaped(std::string_view s) {
  std::string out;
  append_escaped_string(out, s);
  return out;
}

TEST(TurtleString, EscapingTable) {
  struct Case {
    std::string in, out;
  } cases[] = {
      {"plain name.h5", "plain name.h5"},
      {"quo\"te", "quo\\\"te"},
      {"back\\slash", "back\\\\slash"},
      {"new\nline\r\ttab", "new\\nline\\r\\ttab"},
      {std::string("nul\0byte", 8), "nul\\u0000byte"},
      {"bell\x07 del\x7F", "bell\\u0007 del\\u007F"},
      {"<>#%{}", "<>#%{}"},  // fine inside a string
      {"caf\xC3\xA9 \xE2\x82\xAC \xF0\x9F\x98\x80",
       "caf\xC3\xA9 \xE2\x82\xAC \xF0\x9F\x98\x80"},   // valid UTF-8 kept
      {"latin1 \xE9t\xE9", "latin1 \\uFFFDt\\uFFFD"},  // not UTF-8
      {"overlong \xC0\xAF", "overlong \\uFFFD\\uFFFD"},
      {"surrogate \xED\xA0\x80", "surrogate \\uFFFD\\uFFFD\\uFFFD"},
      {"cut \xE2\x82", "cut \\uFFFD\\uFFFD"},
  };
  for (const Case& c : cases) EXPECT_EQ(escaped(c.in), c.out) << c.in;
}

// utc_time replaces gmtime_r (a lock a fork can leave held): the same calendar, leap years and
// century rules included, every 7 hours 13 minutes from 1970 to 2400.
TEST(TurtleTime, UtcTimeAgreesWithGmtime) {
  for (std::uint64_t secs = 0; secs < 13'569'465'600ull; secs += 7 * 3600 + 13 * 60 + 7) {
    std::time_t t = static_cast<std::time_t>(secs);
    std::tm tm{};
    ASSERT_NE(gmtime_r(&t, &tm), nullptr);
    UtcTime u = utc_time(secs);
    ASSERT_EQ(u.year, static_cast<std::uint64_t>(tm.tm_year + 1900)) << secs;
    ASSERT_EQ(u.month, static_cast<unsigned>(tm.tm_mon + 1)) << secs;
    ASSERT_EQ(u.day, static_cast<unsigned>(tm.tm_mday)) << secs;
    ASSERT_EQ(u.hour, static_cast<unsigned>(tm.tm_hour)) << secs;
    ASSERT_EQ(u.minute, static_cast<unsigned>(tm.tm_min)) << secs;
    ASSERT_EQ(u.second, static_cast<unsigned>(tm.tm_sec)) << secs;
  }
  std::string out;
  append_datetime(out, 951782400'000001000ull);  // 2000-02-29, a leap day of a 400-year century
  EXPECT_EQ(out, "2000-02-29T00:00:00.000001Z");
}

TEST(TurtleTerms, LiteralTyping) {
  std::string out;
  Turtle t(out);
  t.iri("urn:s").name("provio:count").u64(18446744073709551615ull).end();
  t.iri("urn:s").name("provio:offset").i64(-1).end();
  t.iri("urn:s").name("provio:elapsed").seconds(1234567890123ull).end();
  t.iri("urn:s").name("provio:v").dbl(0.5).end();
  t.iri("urn:s").name("provio:v").dbl(std::nan("")).end();
  t.iri("urn:s").name("provio:v").dbl(-std::numeric_limits<double>::infinity()).end();
  t.iri("urn:s").name("prov:startedAtTime").time(1700000000123456789ull).end();
  t.iri("urn:s").name("provio:nested").boolean(true).end();
  EXPECT_EQ(out,
            "<urn:s> provio:count \"18446744073709551615\"^^xsd:unsignedLong .\n"
            "<urn:s> provio:offset \"-1\"^^xsd:long .\n"
            "<urn:s> provio:elapsed \"1234.567890123\"^^xsd:double .\n"
            "<urn:s> provio:v \"0.5\"^^xsd:double .\n"
            "<urn:s> provio:v \"NaN\"^^xsd:double .\n"
            "<urn:s> provio:v \"-INF\"^^xsd:double .\n"
            "<urn:s> prov:startedAtTime \"2023-11-14T22:13:20.123456Z\"^^xsd:dateTime .\n"
            "<urn:s> provio:nested \"true\"^^xsd:boolean .\n");
}

TEST(TurtleTerms, IriEscapesWhatIriRefForbids) {
  std::string out;
  Turtle(out).iri("urn:a b<c>\"d{e}|f^g`h\\i\nj").name("rdf:type").name("prov:Entity").end();
  EXPECT_EQ(out, "<urn:a%20b%3Cc%3E%22d%7Be%7D%7Cf%5Eg%60h%5Ci%0Aj> rdf:type prov:Entity .\n");
}

TEST(TurtleTerms, IncoherentStatementIsRolledBack) {
  std::string out = "kept\n";
  Turtle t(out);
  EXPECT_FALSE(t.iri("").name("rdf:type").name("prov:Entity").end());  // empty subject
  EXPECT_FALSE(t.iri("urn:x").name("rdf:type").end());                 // two terms
  EXPECT_TRUE(t.iri("urn:x").name("rdf:type").name("prov:Entity").end());
  EXPECT_EQ(out, "kept\n<urn:x> rdf:type prov:Entity .\n");
}

}  // namespace
}  // namespace provio::store
