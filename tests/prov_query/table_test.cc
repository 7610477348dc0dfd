// Unit tests of prov-query's result tables and select parsing: exact formats (CSV quoting, JSON
// escaping, TSV escapes), exact seconds arithmetic, and malformed specs refused with a message.
#include "query/table.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <sstream>

#include "query/questions.h"

namespace provio::query {
namespace {

Table sample() {
  Table t;
  t.columns = {"name", "n"};
  t.rows.push_back({Cell::text("a,\"b\"\n"), Cell::integer(7)});
  t.rows.push_back({Cell::iri("http://www.w3.org/ns/prov#used"), Cell::unbound()});
  return t;
}

std::string print(const Table& t, Format f) {
  std::ostringstream out;
  EXPECT_TRUE(write_table(out, t, f));
  return out.str();
}

TEST(Table, CsvQuotesPerRfc4180) {
  EXPECT_EQ(print(sample(), Format::kCsv),
            "name,n\r\n\"a,\"\"b\"\"\n\",7\r\nhttp://www.w3.org/ns/prov#used,\r\n");
}

TEST(Table, TsvEscapesTabsAndNewlines) {
  Table t;
  t.columns = {"x"};
  t.rows.push_back({Cell::text("a\tb\nc\\d")});
  EXPECT_EQ(print(t, Format::kTsv), "x\na\\tb\\nc\\\\d\n");
}

TEST(Table, JsonIsSparqlResultsFormat) {
  std::string j = print(sample(), Format::kJson);
  EXPECT_NE(j.find("{\"head\":{\"vars\":[\"name\",\"n\"]}"), std::string::npos);
  EXPECT_NE(j.find("\"name\":{\"type\":\"literal\",\"value\":\"a,\\\"b\\\"\\n\"}"), std::string::npos);
  EXPECT_NE(j.find("\"n\":{\"type\":\"literal\",\"value\":\"7\",\"datatype\":\"http://www.w3.org/2001/"
                   "XMLSchema#integer\"}"),
            std::string::npos);
  EXPECT_NE(j.find("{\"name\":{\"type\":\"uri\",\"value\":\"http://www.w3.org/ns/prov#used\"}}"),
            std::string::npos)
      << "unbound values are omitted";
}

TEST(Table, AlignedAbbreviatesKnownPrefixes) {
  std::string s = print(sample(), Format::kTable);
  EXPECT_NE(s.find("prov:used"), std::string::npos);
  EXPECT_EQ(s.substr(0, s.find('\n')), "name       n");
  EXPECT_NE(s.find("a,\"b\"\\n    7"), std::string::npos) << "newlines in cells are shown escaped: " << s;
  EXPECT_EQ(std::count(s.begin(), s.end(), '\n'), 4);
}

TEST(Table, SecondsAreExactToTheNanosecond) {
  // Parsing is the graph engine's parse_seconds_ns (tests/graph/engine_test.cc); printing is here.
  EXPECT_EQ(Cell::seconds(3000000001u).value, "3.000000001");
}

TEST(Select, ParsesFiltersAggregatesAndSorts) {
  SelectSpec spec;
  EXPECT_TRUE(parse_filter("file=~out\\.h5$", spec).ok);
  EXPECT_TRUE(parse_filter("bytes>=4096", spec).ok);
  EXPECT_TRUE(parse_filter("api!=H5Fopen", spec).ok);
  ASSERT_EQ(spec.filters.size(), 3u);
  EXPECT_EQ(spec.filters[0].op, "=~");
  EXPECT_EQ(spec.filters[1].op, ">=");
  EXPECT_EQ(spec.filters[1].value, "4096");
  EXPECT_EQ(spec.filters[2].op, "!=");
  EXPECT_TRUE(parse_aggs("sum:bytes,count:*,mean:elapsed", spec).ok);
  EXPECT_EQ(spec.aggs.size(), 3u);
  EXPECT_TRUE(parse_sort("-sum_bytes,api", spec).ok);
  EXPECT_TRUE(spec.sort[0].second);
  EXPECT_FALSE(spec.sort[1].second);
}

TEST(Select, RefusesMalformedSpecs) {
  SelectSpec spec;
  EXPECT_FALSE(parse_filter("colour=red", spec).ok);
  EXPECT_FALSE(parse_filter("bytes", spec).ok);
  EXPECT_FALSE(parse_filter("file=~(", spec).ok);
  EXPECT_FALSE(parse_aggs("median:bytes", spec).ok);
  EXPECT_FALSE(parse_aggs("sum:api", spec).ok);
  std::vector<std::string> fields;
  EXPECT_FALSE(parse_fields("api,colour", fields).ok);
}

}  // namespace
}  // namespace provio::query
