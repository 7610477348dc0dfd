// LineParser (tools/graph/line_parser.h) on its own: every form of a raw line it takes, in the
// graph's canonical spelling, and every form it must leave to raptor with nothing kept.
#include "graph/line_parser.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "model/vocabulary.h"

namespace provio::rdf {
namespace {

class LineParserTest : public ::testing::Test {
 protected:
  LineParserTest() : parser_(graph_.terms, "_:b7x") {
    for (std::string_view rest = model::kTurtlePrefixes; !rest.empty();) {
      std::size_t nl = rest.find('\n');
      EXPECT_EQ(parser_.parse(rest.substr(0, nl)), LineParser::Line::kPrefix);
      rest.remove_prefix(nl + 1);
    }
  }

  // The line's triples as "s p o" texts; empty unless the line is kTriples.
  std::vector<std::string> triples(std::string_view line) {
    std::vector<std::string> out;
    if (parser_.parse(line) != LineParser::Line::kTriples) return out;
    for (const Triple& t : parser_.triples()) {
      out.push_back(std::string(graph_.terms[t.s]) + " " + std::string(graph_.terms[t.p]) + " " +
                    std::string(graph_.terms[t.o]));
    }
    return out;
  }

  Graph graph_;
  LineParser parser_;
};

constexpr const char* kType = "<http://www.w3.org/1999/02/22-rdf-syntax-ns#type>";

TEST_F(LineParserTest, BlanksAndCommentsAreEmpty) {
  EXPECT_EQ(parser_.parse(""), LineParser::Line::kEmpty);
  EXPECT_EQ(parser_.parse(" \t\r"), LineParser::Line::kEmpty);
  EXPECT_EQ(parser_.parse("# provio raw file"), LineParser::Line::kEmpty);
}

TEST_F(LineParserTest, SubjectBlockWithPredicateAndObjectLists) {
  auto t = triples("<urn:a> a provio:Read, prov:Activity ; provio:count 3 ; prov:used <urn:f> .");
  ASSERT_EQ(t.size(), 4u);
  EXPECT_EQ(t[0], std::string("<urn:a> ") + kType + " <http://www.w3.org/ns/provio#Read>");
  EXPECT_EQ(t[1], std::string("<urn:a> ") + kType + " <http://www.w3.org/ns/prov#Activity>");
  EXPECT_EQ(t[2],
            "<urn:a> <http://www.w3.org/ns/provio#count> \"3\"^^<http://www.w3.org/2001/XMLSchema#integer>");
  EXPECT_EQ(t[3], "<urn:a> <http://www.w3.org/ns/prov#used> <urn:f>");
}

TEST_F(LineParserTest, BareLiteralsTakeTheirTurtleDatatypes) {
  auto t = triples("<urn:a> <urn:p> 1.5, -2e3, true, +7 .");
  ASSERT_EQ(t.size(), 4u);
  EXPECT_EQ(t[0], "<urn:a> <urn:p> \"1.5\"^^<http://www.w3.org/2001/XMLSchema#decimal>");
  EXPECT_EQ(t[1], "<urn:a> <urn:p> \"-2e3\"^^<http://www.w3.org/2001/XMLSchema#double>");
  EXPECT_EQ(t[2], "<urn:a> <urn:p> \"true\"^^<http://www.w3.org/2001/XMLSchema#boolean>");
  EXPECT_EQ(t[3], "<urn:a> <urn:p> \"+7\"^^<http://www.w3.org/2001/XMLSchema#integer>");
}

TEST_F(LineParserTest, LiteralsAreCanonical) {
  auto t = triples(
      R"(<urn:a> <urn:p> "x\u00e9\"y"^^xsd:string, "Hi"@EN-gb, "2026-01-01T00:00:00Z"^^xsd:dateTime .)");
  ASSERT_EQ(t.size(), 3u);
  EXPECT_EQ(t[0], "<urn:a> <urn:p> \"x\xC3\xA9\\\"y\"");  // xsd:string dropped, é as UTF-8
  EXPECT_EQ(t[1], "<urn:a> <urn:p> \"Hi\"@en-gb");
  EXPECT_EQ(t[2], "<urn:a> <urn:p> \"2026-01-01T00:00:00Z\"^^<http://www.w3.org/2001/XMLSchema#dateTime>");
}

TEST_F(LineParserTest, BlankNodesOfTheFileGetItsPrefix) {
  auto t = triples("_:t1 <urn:p> _:t2 .");
  ASSERT_EQ(t.size(), 1u);
  EXPECT_EQ(t[0], "_:b7xt1 <urn:p> _:b7xt2");
}

TEST_F(LineParserTest, PrefixedNameEscapesAndTrailingDot) {
  auto t = triples(R"(<urn:a> <urn:p> provio:x\/y, provio:v1.2.)");
  ASSERT_EQ(t.size(), 2u);
  EXPECT_EQ(t[0], "<urn:a> <urn:p> <http://www.w3.org/ns/provio#x/y>");
  EXPECT_EQ(t[1], "<urn:a> <urn:p> <http://www.w3.org/ns/provio#v1.2>");
}

TEST_F(LineParserTest, RedeclaredPrefixIsUsedAtOnce) {
  ASSERT_EQ(triples("<urn:a> <urn:p> provio:x .").at(0), "<urn:a> <urn:p> <http://www.w3.org/ns/provio#x>");
  EXPECT_EQ(parser_.parse("@prefix provio: <urn:other#> ."), LineParser::Line::kPrefix);
  EXPECT_EQ(triples("<urn:a> <urn:p> provio:x .").at(0), "<urn:a> <urn:p> <urn:other#x>");
  EXPECT_NE(parser_.header().find("@prefix provio: <urn:other#> ."), std::string::npos);
}

TEST_F(LineParserTest, WhatItDoesNotHandleIsLeftWhole) {
  const char* others[] = {
      "<urn:a> <urn:p> <relative> .",             // needs raptor's IRI resolution
      "<urn:a> <urn:p> \"\"\"long\"\"\" .",       // long string
      "<urn:a> <urn:p> nosuch:x .",               // undeclared prefix
      "<urn:a> <urn:p> <urn:o>",                  // no statement end
      "<urn:a> <urn:p> <urn:o> . <urn:b>",        // text after the end
      "<urn:a> <urn:p> \"bad \\q escape\" .",     // not a Turtle escape
      "<urn:a> <urn:p> \"\\uD800\" .",            // a surrogate is no character
      "<urn:a> \"literal predicate\" <urn:o> .",  // a literal only as object
      "@prefix broken <urn:x> .",                 // no ':'
      "<urn:a> <urn:p> [ <urn:q> <urn:r> ] .",    // anonymous blank node
      "<urn:a> <urn:p> \"x\"@-nBeG .",            // a language tag starts with a letter
      "<urn:a> <urn:p> \"x\"@en_GB .",            // and has only letters, digits and '-'
      "<urn:a> <urn:p> \"x\"@en- .",              // and no empty subtag
  };
  for (const char* line : others) {
    std::size_t before = graph_.size();
    EXPECT_EQ(parser_.parse(line), LineParser::Line::kOther) << line;
    EXPECT_EQ(graph_.size(), before) << line;
  }
}

TEST_F(LineParserTest, ALineIsTakenWholeOrNotAtAll) {
  // The first two objects parse; the third does not: no triple of the line comes out.
  EXPECT_EQ(parser_.parse("<urn:a> <urn:p> <urn:o1>, <urn:o2>, nosuch:o3 ."), LineParser::Line::kOther);
  EXPECT_TRUE(triples("<urn:a> <urn:p> <urn:o1>, <urn:o2>, nosuch:o3 .").empty());
  // …and the next good line gives only its own triples.
  EXPECT_EQ(triples("<urn:a> <urn:p> <urn:o4> .").size(), 1u);
}

}  // namespace
}  // namespace provio::rdf
