// Unit tests of prov-query's result tables and select parsing: exact formats (CSV quoting, JSON
// escaping, TSV escapes), exact seconds arithmetic, and malformed specs refused with a message.
#include "query/table.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <sstream>

#include "query/query_graph.h"
#include "query/questions.h"
#include "query/view.h"

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

// Records summing groups of activities (what a server returns, View::activity_totals) answer an
// aggregating select exactly as the activities one by one: count, sum, min, max, mean.
TEST(Select, GroupsAnswerAsTheirActivities) {
  auto activity = [](const char* api, std::uint64_t count, std::uint64_t bytes, std::uint64_t ns) {
    ActivityRecord r;
    r.api = api;
    r.count = count;
    r.bytes = bytes;
    r.elapsed_ns = ns;
    return r;
  };
  std::vector<ActivityRecord> one_by_one = {activity("write", 1, 10, 300), activity("write", 4, 70, 100),
                                            activity("write", 2, 30, 200), activity("read", 3, 5, 7)};
  std::vector<ActivityRecord> groups = {activity("write", 3, 40, 500), activity("write", 4, 70, 100),
                                        activity("read", 3, 5, 7)};
  groups[0].group = true;  // the first and third writes
  groups[0].activities = 2;
  const std::uint64_t least[3] = {1, 10, 200}, most[3] = {2, 30, 300};  // count, bytes, ns
  std::copy(least, least + 3, groups[0].least);
  std::copy(most, most + 3, groups[0].most);
  SelectSpec spec;
  spec.group_by = {"api"};
  ASSERT_TRUE(parse_aggs("count:*,sum:bytes,min:count,max:elapsed,mean:elapsed,mean:bytes", spec).ok);
  ASSERT_TRUE(parse_filter("api=~r", spec).ok);
  std::vector<std::string> keys;
  ASSERT_TRUE(select_grouping(spec, keys));
  EXPECT_EQ(keys, std::vector<std::string>{"api"});
  QueryGraph g;
  View v(g);
  Table from_activities, from_groups;
  ASSERT_TRUE(select(v, one_by_one, spec, from_activities).ok);
  ASSERT_TRUE(select(v, groups, spec, from_groups).ok);
  EXPECT_EQ(print(from_groups, Format::kCsv), print(from_activities, Format::kCsv));
  EXPECT_EQ(print(from_groups, Format::kCsv),
            "api,count_all,sum_bytes,min_count,max_elapsed,mean_elapsed,mean_bytes\r\n"
            "read,1,5,3,7e-09,7e-09,5\r\n"
            "write,3,110,1,3e-07,2e-07,36.666666666666664\r\n");
}

// Which selects a server can sum per group: aggregates over fields a group keeps.
TEST(Select, GroupingKeysOfASelect) {
  auto keys_of = [](const std::string& group_by, const std::string& filter) {
    SelectSpec spec;
    EXPECT_TRUE(parse_fields(group_by, spec.group_by).ok);
    EXPECT_TRUE(parse_aggs("sum:bytes", spec).ok);
    if (!filter.empty()) {
      EXPECT_TRUE(parse_filter(filter, spec).ok);
    }
    std::vector<std::string> keys;
    return select_grouping(spec, keys) ? keys : std::vector<std::string>{"NO"};
  };
  EXPECT_EQ(keys_of("object,rank", ""), (std::vector<std::string>{"entity", "file", "thread"}));
  EXPECT_EQ(keys_of("op", "program=~x"), (std::vector<std::string>{"op", "thread"}));
  EXPECT_EQ(keys_of("api", "bytes>3"), std::vector<std::string>{"NO"});  // one activity's number
  EXPECT_EQ(keys_of("start", ""), std::vector<std::string>{"NO"});
  SelectSpec listing;  // no aggregation: single activities
  std::vector<std::string> keys;
  EXPECT_FALSE(select_grouping(listing, keys));
}

}  // namespace
}  // namespace provio::query
