// Unit tests of the graph engine (tools/graph) as a whole: the reader's fast path against raptor,
// term parsing, folding rules (idempotence, incremental, conflicts), the graph's binary form, and
// the writers read back by raptor.
#include <gtest/gtest.h>
#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <string>

#include "graph/fold.h"
#include "graph/graph.h"
#include "graph/reader.h"
#include "graph/terms.h"
#include "graph/writer.h"
#include "model/vocabulary.h"
#include "test_files.h"

namespace provio::rdf {
namespace {

using test::TempDir;

std::string ntriples(const Graph& g) {
  char* buf = nullptr;
  std::size_t len = 0;
  std::FILE* f = open_memstream(&buf, &len);
  Status s = write_graph(g, "ntriples", f);
  EXPECT_TRUE(s.ok) << s.message;
  std::fclose(f);
  std::string out(buf, len);
  std::free(buf);
  return out;
}

std::string format(const Graph& g, const std::string& fmt) {
  char* buf = nullptr;
  std::size_t len = 0;
  std::FILE* f = open_memstream(&buf, &len);
  Status s = write_graph(g, fmt, f);
  EXPECT_TRUE(s.ok) << s.message;
  std::fclose(f);
  std::string out(buf, len);
  std::free(buf);
  return out;
}

// Statements in every form the core writes, and some it does not (the fast path must agree with
// raptor on all, handing what it does not know to raptor).
const std::string kTricky =
    std::string(model::kTurtlePrefixes) +
    "<urn:a> rdf:type prov:Activity .\n"
    "<urn:a> a provio:Read .\n"
    "# a comment line\n"
    "\n"
    "<urn:a> provio:api \"H5Dwrite\" .\n"
    "<urn:a> provio:count \"12\"^^xsd:unsignedLong .   # trailing comment\n"
    "<urn:a> provio:elapsed \"0.000001000\"^^<http://www.w3.org/2001/XMLSchema#double> .\n"
    "<file:///d/a%20b.h5#/g/x> provio:path \"/d/a b \\\"q\\\" \\\\ \\n \\t \\u00e9 é\" .\n"
    "<file:///d/x> rdfs:label \"hello\"@EN .\n"
    "<file:///d/x> rdfs:label \"plain\"^^xsd:string .\n"
    "<file:///d/x> rdfs:comment \"\"\"long\nstring\"\"\" .\n"
    "<file:///d/x> rdfs:seeAlso _:b1 .\n"
    "_:b1 rdfs:label \"blank\" .\n"
    "<file:///d/y> rdfs:label \"one\" ; rdfs:comment \"two\" .\n"
    "<file:///d/y> provio:nested \"true\"^^xsd:boolean .\n"
    "<file:///d/y> provio:offset 42 .\n"
    "<file:///d/\\u0041> rdfs:label \"escaped IRI\" .\n"
    // the compact raw format: blocks, object lists, per-file prefixes, escaped local names,
    // bare numbers and booleans
    "@prefix : <http://www.w3.org/ns/provio#> .\n"
    "@prefix t: <urn:run/thread/> .\n"
    "@prefix f2: <file:///d/x.h5#> .\n"
    "t:0\\/H5Dwrite-Write-e4-f1 a :Write ; :api \"H5Dwrite\" ; prov:wasAssociatedWith t:0 ; "
    "prov:generated f2:\\/run%201\\/t\\.x\\@a , f2:\\/ ; :nested true ; :count 3 ; :bytes 12288 ; "
    ":elapsed 0.000006000 ; :offset -42 ; :span 1.5e3 .\n"
    "t:0\\/c1 :partial t:0\\/c1\\/p2 ; :count +7;:bytes 0 .\n";

TEST(MergeReader, FastPathAgreesWithRaptor) {
  TempDir dir;
  std::string path = dir.file("t.ttl", kTricky);
  ASSERT_EQ(parser_for(path, kTricky), "fast");
  Graph fast, slow;
  ReadResult rf, rs;
  read_files({path}, 1, fast, rf);
  read_file_with_raptor(path, slow, rs);
  EXPECT_EQ(rf.messages, std::vector<std::string>{});
  EXPECT_EQ(rs.messages, std::vector<std::string>{});
  EXPECT_EQ(rf.damaged, 0u);
  EXPECT_EQ(fast.size(), 30u);
  EXPECT_EQ(ntriples(fast), ntriples(slow));
  EXPECT_EQ(rf.triples_in, rs.triples_in);
  // the multi-line long string made raptor read two lines as one statement: no line lost
  EXPECT_NE(ntriples(fast).find("\"long\\nstring\""), std::string::npos);
}

TEST(MergeReader, BadLinesAreReportedAndTheRestKept) {
  TempDir dir;
  std::string text = std::string(model::kTurtlePrefixes) + "<urn:a> rdf:type prov:Activity .\n" +
                     "<urn:a> provio:api \"x\" garbage .\n" + "<urn:b> rdf:type prov:Activity .\n" +
                     "<urn:c> rdf:type prov:Act";
  std::string path = dir.file("bad.ttl", text);
  Graph g;
  ReadResult r;
  read_files({path}, 1, g, r);
  // A line reported as dropped leaves nothing behind, not even the statement raptor read before
  // the garbage (a statement is kept only if its line was whole).
  EXPECT_EQ(g.size(), 2u);
  EXPECT_EQ(r.damaged, 1u);
  ASSERT_EQ(r.messages.size(), 2u);
  EXPECT_EQ(r.messages[0].rfind(path + ":7: syntax error", 0), 0u) << r.messages[0];
  EXPECT_NE(r.messages[0].find("; line dropped"), std::string::npos);
  EXPECT_EQ(r.messages[1], path + ":9: truncated statement dropped (file ends mid-line)");
}

// A NUL or a byte that is not UTF-8 is found wherever it is in the line (the reader scans 8 bytes
// a step, then byte by byte): the line is dropped and the column names the byte.
TEST(MergeReader, DamagedByteAnywhereInALineIsFound) {
  TempDir dir;
  const std::string line = "<urn:a> <urn:p> \"twenty-four letters long\" .";
  for (char bad : {'\0', '\xFF'}) {
    for (std::size_t at = 0; at < line.size() - 2; ++at) {
      std::string damaged = line;
      damaged[at] = bad;
      std::string path = dir.file("d.nt", "<urn:b> <urn:p> <urn:c> .\n" + damaged + "\n");
      Graph g;
      ReadResult r;
      read_files({path}, 1, g, r);
      EXPECT_EQ(g.size(), 1u) << at;
      ASSERT_EQ(r.messages.size(), 1u) << at;
      std::string what = bad ? "invalid UTF-8" : "NUL bytes";
      EXPECT_EQ(r.messages[0], path + ":2:" + std::to_string(at + 1) + ": " + what + "; line dropped");
    }
  }
}

TEST(MergeReader, CutLastLineIsNeverReadAsAShorterTerm) {
  TempDir dir;
  const std::string head = std::string(model::kTurtlePrefixes) + "<urn:a> rdf:type prov:Activity .\n";
  for (std::string tail : {"<urn:c> rdf:type prov:Act", "<urn:c> rdf:type prov:x.",
                           "<urn:c> rdf:type prov:x ", "<urn:c> provio:api \"ab"}) {
    std::string path = dir.file("cut.ttl", head + tail);
    Graph g;
    ReadResult r;
    read_files({path}, 1, g, r);
    EXPECT_EQ(g.size(), 1u) << tail;
    ASSERT_EQ(r.messages.size(), 1u) << tail;
    EXPECT_EQ(r.messages[0], path + ":7: truncated statement dropped (file ends mid-line)");
  }
  // complete but unterminated: kept
  std::string path = dir.file("cut.ttl", head + "<urn:c> rdf:type prov:Entity .");
  Graph g;
  ReadResult r;
  read_files({path}, 1, g, r);
  EXPECT_EQ(g.size(), 2u);
  EXPECT_EQ(r.messages, std::vector<std::string>{});
}

TEST(MergeReader, GrowingFilesLeaveTheirUnfinishedEndForLater) {
  TempDir dir;
  const std::string head = std::string(model::kTurtlePrefixes) + "<urn:a> rdf:type prov:Activity .\n";
  std::vector<std::string> files = {
      dir.file("raw.ttl", head + "<urn:c> rdf:type prov:Act"),
      dir.file("merged.ttl", "# merged\n@prefix p: <urn:p#> .\n<urn:a> p:x <urn:o> .\n<urn:b> p:x p:Act"),
      dir.file("new.ttl", "")};
  Graph g;
  ReadResult r;
  read_files(files, 1, g, r, 0, true);
  EXPECT_EQ(r.messages, std::vector<std::string>{});
  EXPECT_EQ(r.damaged, 0u);
  EXPECT_EQ(g.size(), 2u);
  Graph h;
  ReadResult rh;
  read_files(files, 1, h, rh);
  EXPECT_EQ(rh.damaged, 3u);
}

TEST(MergeReader, CutMergedTurtleKeepsCompleteStatementsOnly) {
  TempDir dir;
  Graph g;
  for (int i = 0; i < 3; ++i) {
    std::string s = "<urn:s" + std::to_string(i) + ">";
    g.add(s, "<http://www.w3.org/1999/02/22-rdf-syntax-ns#type>", "<http://www.w3.org/ns/prov#Activity>");
    g.add(s, "<http://www.w3.org/ns/provio#api>", "\"x\"");
  }
  std::string ttl = format(g, "turtle");
  std::size_t at = ttl.rfind("prov:Activity");
  ASSERT_NE(at, std::string::npos);
  std::string path = dir.file("cut.ttl", ttl.substr(0, at + 8));  // "... a prov:Act"
  Graph back;
  ReadResult r;
  read_files({path}, 1, back, r);
  EXPECT_EQ(back.size(), 4u);
  EXPECT_EQ(back.terms.find("<http://www.w3.org/ns/prov#Act>"), kNoTerm);
  std::size_t cut_line =
      static_cast<std::size_t>(std::count(ttl.begin(), ttl.begin() + static_cast<long>(at), '\n')) + 1;
  EXPECT_EQ(r.messages, std::vector<std::string>{path + ":" + std::to_string(cut_line) +
                                                 ": truncated statement dropped (file ends mid-statement)"});
  // a complete file with a comment after the last statement is not cut
  path = dir.file("whole.ttl", ttl + "# the end\n");
  Graph whole;
  ReadResult rw;
  read_files({path}, 1, whole, rw);
  EXPECT_EQ(whole.size(), 6u);
  EXPECT_EQ(rw.messages, std::vector<std::string>{});
}

TEST(MergeReader, ParallelReadEqualsSerial) {
  TempDir dir;
  std::vector<std::string> files;
  for (int f = 0; f < 7; ++f) {
    std::string text(model::kTurtlePrefixes);
    for (int i = 0; i < 50; ++i) {
      text += "<urn:s" + std::to_string(i % 13) + "> provio:count \"" + std::to_string(i * f) +
              "\"^^xsd:unsignedLong .\n";
    }
    text += "_:x rdfs:label \"file " + std::to_string(f) + "\" .\n";
    files.push_back(dir.file("f" + std::to_string(f) + ".ttl", text));
  }
  Graph one, two;
  ReadResult r1, r2;
  read_files(files, 1, one, r1);
  read_files(files, 3, two, r2);
  EXPECT_EQ(ntriples(one), ntriples(two));
  EXPECT_EQ(r1.triples_in, 7u * 51u);
  EXPECT_EQ(r1.triples_in, r2.triples_in);
  // blank nodes of different files stay different
  std::size_t blanks = 0;
  for (TermId id = 0; id < one.terms.size(); ++id) blanks += one.terms[id].rfind("_:", 0) == 0;
  EXPECT_EQ(blanks, 7u);
}

TEST(MergeTerms, Measures) {
  EXPECT_EQ(parse_seconds_ns("12.000000345"), 12000000345u);
  EXPECT_EQ(parse_seconds_ns("0.5"), 500000000u);
  EXPECT_EQ(parse_seconds_ns("3"), 3000000000u);
  EXPECT_EQ(parse_seconds_ns("1.5E-3"), 1500000u);
  EXPECT_EQ(parse_seconds_ns("-1"), std::nullopt);
  EXPECT_EQ(parse_seconds_ns("x"), std::nullopt);
  EXPECT_EQ(format_seconds(12000000345u), "12.000000345");
  EXPECT_EQ(format_seconds(0), "0.000000000");
  EXPECT_EQ(parse_u64("18446744073709551615"), 18446744073709551615u);
  EXPECT_EQ(parse_u64("18446744073709551616"), std::nullopt);
  EXPECT_EQ(parse_datetime_us("1970-01-01T00:00:00Z"), 0);
  EXPECT_EQ(parse_datetime_us("2026-11-21T07:15:52.617077Z"), 1795245352617077);
  EXPECT_EQ(parse_datetime_us("2026-11-21T08:15:52.617077+01:00"), 1795245352617077);
  EXPECT_EQ(parse_datetime_us("2026-11-21T07:15:52.6Z"), 1795245352600000);
  EXPECT_EQ(parse_datetime_us("2026-11-21 07:15:52Z"), std::nullopt);
  auto lit = parse_literal("\"a\\\"b\\u00E9\"^^<http://www.w3.org/2001/XMLSchema#string>");
  ASSERT_TRUE(lit);
  EXPECT_EQ(lit->lexical, "a\"b\xC3\xA9");
  EXPECT_EQ(lit->datatype, "http://www.w3.org/2001/XMLSchema#string");
}

// literal_view is parse_literal without the copy: the same pieces for every form of literal.
TEST(MergeTerms, LiteralViewAgreesWithParseLiteral) {
  for (std::string term : {"\"12\"^^<http://www.w3.org/2001/XMLSchema#integer>", "\"x\"@en-GB", "\"\"",
                           "\"a\\\"b\\u00E9\"^^<http://www.w3.org/2001/XMLSchema#string>", "\"tab\\t\"@de",
                           "\"plain\"", "<urn:not-a-literal>", "\"unclosed", "\"bad\\u00\"", "\"x\"^^"}) {
    std::string scratch = "left over";
    auto view = literal_view(term, scratch);
    auto lit = parse_literal(term);
    ASSERT_EQ(view.has_value(), lit.has_value()) << term;
    if (!lit) continue;
    EXPECT_EQ(view->lexical, lit->lexical) << term;
    EXPECT_EQ(view->datatype, lit->datatype) << term;
    EXPECT_EQ(view->lang, lit->lang) << term;
  }
  std::string scratch;
  std::string plain = "\"12\"^^<urn:t>";
  EXPECT_EQ(literal_view(plain, scratch)->lexical.data(), plain.data() + 1);  // no copy
}

constexpr const char* kProvio = "http://www.w3.org/ns/provio#";
std::string P(const char* local) {
  return std::string("<") + kProvio + local + ">";
}
std::string U(std::uint64_t v) {
  return "\"" + std::to_string(v) + "\"^^<http://www.w3.org/2001/XMLSchema#unsignedLong>";
}
std::string S(const char* s) {
  return std::string("\"") + s + "\"^^<http://www.w3.org/2001/XMLSchema#double>";
}
std::string T(const char* s) {
  return std::string("\"") + s + "\"^^<http://www.w3.org/2001/XMLSchema#dateTime>";
}
const std::string kStart = "<http://www.w3.org/ns/prov#startedAtTime>";
const std::string kEnd = "<http://www.w3.org/ns/prov#endedAtTime>";

void part(Graph& g, const std::string& act, int n, std::uint64_t count, const char* elapsed,
          const char* start, const char* end) {
  std::string p = act.substr(0, act.size() - 1) + "/p" + std::to_string(n) + ">";
  g.add(act, P("partial"), p);
  g.add(p, P("count"), U(count));
  g.add(p, P("bytes"), U(count * 10));
  g.add(p, P("elapsed"), S(elapsed));
  g.add(p, kStart, T(start));
  g.add(p, kEnd, T(end));
}

std::string value(const Graph& g, const std::string& s, const std::string& p) {
  std::string out;
  TermId sid = g.terms.find(s), pid = g.terms.find(p);
  for (const Triple& t : g.triples()) {
    if (t.s == sid && t.p == pid) out += (out.empty() ? "" : "|") + std::string(g.terms[t.o]);
  }
  return out;
}

TEST(MergeFold, SumsPartsMinStartMaxEnd) {
  Graph g;
  const std::string a = "<urn:t/0/pwrite/Write/e1>";
  part(g, a, 1, 3, "0.000000001", "2026-01-01T00:00:02.000000Z", "2026-01-01T00:00:03.000000Z");
  part(g, a, 2, 4, "1.999999999", "2026-01-01T00:00:01.000000Z", "2026-01-01T00:00:02.500000Z");
  part(g, a, 3, 4, "0.000000001", "2026-01-01T00:00:04.000000Z", "2026-01-01T00:00:05.000000Z");
  FoldResult r = fold(g);
  EXPECT_EQ(r.activities, 1u);
  EXPECT_EQ(r.parts, 3u);
  EXPECT_EQ(value(g, a, P("count")), U(11));
  EXPECT_EQ(value(g, a, P("bytes")), U(110));
  EXPECT_EQ(value(g, a, P("elapsed")), S("2.000000001"));
  EXPECT_EQ(value(g, a, kStart), T("2026-01-01T00:00:01.000000Z"));
  EXPECT_EQ(value(g, a, kEnd), T("2026-01-01T00:00:05.000000Z"));
  EXPECT_EQ(value(g, a, P("lastPart")), U(3));
  EXPECT_EQ(g.size(), 6u);  // the parts and links are gone
}

TEST(MergeFold, SumsAccessSizesLikeTheCount) {
  Graph g;
  const std::string a = "<urn:t/0/pwrite/Write/e1>";
  // The first flush (the activity's own measures) and two parts; part 3 has a bucket the first
  // flush has not.
  g.add(a, P("count"), U(3));
  g.add(a, P("size_write_0_100"), U(2));
  g.add(a, P("size_write_1k_10k"), U(1));
  part(g, a, 2, 4, "0.000000001", "2026-01-01T00:00:01.000000Z", "2026-01-01T00:00:02.000000Z");
  g.add("<urn:t/0/pwrite/Write/e1/p2>", P("size_write_0_100"), U(4));
  part(g, a, 3, 5, "0.000000001", "2026-01-01T00:00:03.000000Z", "2026-01-01T00:00:04.000000Z");
  g.add("<urn:t/0/pwrite/Write/e1/p3>", P("size_write_0_100"), U(1));
  g.add("<urn:t/0/pwrite/Write/e1/p3>", P("size_write_1g_plus"), U(4));
  fold(g);
  EXPECT_EQ(value(g, a, P("count")), U(12));
  EXPECT_EQ(value(g, a, P("size_write_0_100")), U(7));
  EXPECT_EQ(value(g, a, P("size_write_1k_10k")), U(1));
  EXPECT_EQ(value(g, a, P("size_write_1g_plus")), U(4));
  EXPECT_EQ(value(g, a, P("size_read_0_100")), "");
  // Folding again (the merged graph with its raw parts) adds nothing.
  std::string once = ntriples(g);
  part(g, a, 3, 5, "0.000000001", "2026-01-01T00:00:03.000000Z", "2026-01-01T00:00:04.000000Z");
  g.add("<urn:t/0/pwrite/Write/e1/p3>", P("size_write_1g_plus"), U(4));
  fold(g);
  EXPECT_EQ(ntriples(g), once);
}

TEST(MergeFold, ExistingMeasuresAreOneMorePartAndLastPartMakesItIdempotent) {
  Graph g;
  const std::string a = "<urn:t/0/pwrite/Write/e1>";
  // folded before through part 2: count 7
  g.add(a, P("count"), U(7));
  g.add(a, P("bytes"), U(70));
  g.add(a, P("elapsed"), S("0.000000002"));
  g.add(a, kStart, T("2026-01-01T00:00:01.000000Z"));
  g.add(a, kEnd, T("2026-01-01T00:00:03.000000Z"));
  g.add(a, P("lastPart"), U(2));
  // the raw file again, now with a third flush
  part(g, a, 1, 3, "0.000000001", "2026-01-01T00:00:02.000000Z", "2026-01-01T00:00:03.000000Z");
  part(g, a, 2, 4, "0.000000001", "2026-01-01T00:00:01.000000Z", "2026-01-01T00:00:02.500000Z");
  part(g, a, 3, 5, "0.000000001", "2026-01-01T00:00:04.000000Z", "2026-01-01T00:00:05.000000Z");
  fold(g);
  EXPECT_EQ(value(g, a, P("count")), U(12));
  EXPECT_EQ(value(g, a, P("elapsed")), S("0.000000003"));
  EXPECT_EQ(value(g, a, kEnd), T("2026-01-01T00:00:05.000000Z"));
  EXPECT_EQ(value(g, a, P("lastPart")), U(3));
  std::string once = ntriples(g);
  part(g, a, 3, 5, "0.000000001", "2026-01-01T00:00:04.000000Z", "2026-01-01T00:00:05.000000Z");
  fold(g);
  EXPECT_EQ(ntriples(g), once);
}

TEST(MergeFold, RawFirstFlushOfAFoldedActivityIsNotASecondValue) {
  // A merged activity (lastPart 2: its first flush and part 2) merged again with its raw file,
  // which states the first flush on the activity in raw form (bare numbers, start/span offsets).
  Graph g;
  const std::string a = "<urn:trace/r1>";
  const std::string integer = "^^<http://www.w3.org/2001/XMLSchema#integer>";
  g.add(a, P("count"), U(6));
  g.add(a, P("bytes"), U(60));
  g.add(a, P("lastPart"), U(2));
  g.add(a, P("count"), "\"3\"" + integer);
  g.add(a, P("bytes"), "\"30\"" + integer);
  g.add(a, P("start"), "\"100\"" + integer);
  g.add(a, P("span"), "\"5\"" + integer);
  part(g, a, 2, 3, "0.000000001", "2026-01-01T00:00:02.000000Z", "2026-01-01T00:00:03.000000Z");
  FoldResult r = fold(g);
  EXPECT_EQ(value(g, a, P("count")), U(6));
  EXPECT_EQ(value(g, a, P("bytes")), U(60));
  EXPECT_TRUE(r.messages.empty()) << r.messages.front();
}

TEST(MergeFold, OverlappingSnapshotsKeepTheLatestAndBadValuesAreKept) {
  Graph g;
  const std::string a = "<urn:trace/c1>";
  g.add(a, P("count"), U(3));
  g.add(a, P("count"), U(5));
  g.add(a, kStart, T("2026-01-01T00:00:02.000000Z"));
  g.add(a, kStart, T("2026-01-01T00:00:01.000000Z"));
  const std::string b = "<urn:trace/c2>";
  g.add(b, P("count"), U(1));
  g.add(b, P("bytes"), "\"lots\"");
  FoldResult r = fold(g);
  EXPECT_EQ(value(g, a, P("count")), U(5));
  EXPECT_EQ(value(g, a, kStart), T("2026-01-01T00:00:01.000000Z"));
  EXPECT_EQ(value(g, b, P("count")), U(1));
  EXPECT_EQ(value(g, b, P("bytes")), "\"lots\"");
  ASSERT_EQ(r.messages.size(), 2u);
  EXPECT_EQ(r.messages[0], "cannot read measure \"lots\" of <urn:trace/c2>; kept as it is");
  EXPECT_EQ(r.messages[1].rfind("1 activities had several values", 0), 0u) << r.messages[1];
}

TEST(MergeGraph, SerializeRoundTripAndMerge) {
  Graph a, b;
  a.add("<urn:x>", "<urn:p>", "\"1\"");
  a.add("<urn:x>", "<urn:p>", "\"1\"");
  a.add("<urn:y>", "<urn:p>", "<urn:x>");
  b.add("<urn:y>", "<urn:p>", "<urn:x>");
  b.add("<urn:z>", "<urn:q>", "\"é\"");
  EXPECT_EQ(a.size(), 2u);
  std::string bytes;
  b.serialize(bytes);
  ASSERT_TRUE(a.merge_serialized(bytes));
  EXPECT_EQ(a.size(), 3u);
  EXPECT_FALSE(a.merge_serialized(bytes.substr(0, bytes.size() - 3)));
  Graph c;
  c.merge(a);
  EXPECT_EQ(ntriples(c), ntriples(a));
}

// The duplicate table indexes the triple vector: whatever reorders or shrinks the vector (filter,
// sort, shrink) must leave adds and lookups finding exactly the triples kept.
TEST(MergeGraph, FilterSortAndShrinkKeepFindingDuplicates) {
  Graph g;
  const int n = 5000;  // past the first table sizes: grown several times
  for (int i = 0; i < n; ++i)
    g.add("<urn:s" + std::to_string(i % 97) + ">", "<urn:p" + std::to_string(i % 7) + ">",
          "\"" + std::to_string(i) + "\"");
  ASSERT_EQ(g.size(), static_cast<std::size_t>(n));
  std::vector<Triple> before = g.sorted();
  g.filter([&](const Triple& t) { return g.terms[t.o][1] != '1'; });  // drops "1…"
  std::size_t kept = g.size();
  EXPECT_LT(kept, static_cast<std::size_t>(n));
  for (auto step : {0, 1, 2}) {
    if (step == 1) g.sort();
    if (step == 2) g.shrink();
    EXPECT_EQ(g.is_sorted(), step > 0);
    if (step > 0) {
      std::vector<Triple> copy;
      EXPECT_EQ(&g.in_order(copy), &g.triples());
      EXPECT_TRUE(std::equal(g.triples().begin(), g.triples().end(), g.sorted().begin()));
    }
    for (const Triple& t : before) {
      bool present = g.terms[t.o][1] != '1';
      EXPECT_EQ(g.contains(t), present) << g.terms[t.o];
    }
  }
  for (const Triple& t : before) EXPECT_EQ(g.add(t.s, t.p, t.o), g.terms[t.o][1] == '1');
  EXPECT_EQ(g.size(), static_cast<std::size_t>(n));
  EXPECT_FALSE(g.is_sorted());
  std::vector<Triple> copy;
  EXPECT_TRUE(std::equal(before.begin(), before.end(), g.in_order(copy).begin()));
}

// filter_indexed hands each triple with its index before the filter; add(vector) is add of each.
TEST(MergeGraph, FilterByIndexAndAddingALineAtOnce) {
  Graph g;
  std::vector<Triple> line;
  for (int i = 0; i < 3000; ++i)  // past the first table sizes, in lines of 7 with repeats
    line.push_back({g.terms.intern("<urn:s" + std::to_string(i % 500) + ">"), g.terms.intern("<urn:p>"),
                    g.terms.intern("\"" + std::to_string(i % 2000) + "\"")});
  for (std::size_t k = 0; k < line.size(); k += 7)
    g.add(std::vector<Triple>(line.begin() + static_cast<long>(k),
                              line.begin() + static_cast<long>(std::min(k + 7, line.size()))));
  ASSERT_EQ(g.size(), 2000u);
  for (const Triple& t : line) EXPECT_TRUE(g.contains(t));
  std::vector<Triple> before = g.triples();
  std::vector<std::size_t> seen;
  g.filter_indexed([&](std::size_t k, const Triple& t) {
    EXPECT_EQ(t, before[k]);
    seen.push_back(k);
    return k % 3 != 0;
  });
  ASSERT_EQ(seen.size(), before.size());
  for (std::size_t k = 0; k < seen.size(); ++k) EXPECT_EQ(seen[k], k);
  for (std::size_t k = 0; k < before.size(); ++k) EXPECT_EQ(g.contains(before[k]), k % 3 != 0);
  EXPECT_EQ(g.size(), before.size() - (before.size() + 2) / 3);
}

TEST(MergeWriter, TurtleReadsBackAsTheSameGraph) {
  TempDir dir;
  Graph g;
  g.add("<http://www.w3.org/ns/provio#x.y>", "<http://www.w3.org/1999/02/22-rdf-syntax-ns#type>",
        "<http://www.w3.org/ns/prov#Activity>");
  g.add("<http://www.w3.org/ns/provio#1abc>", "<http://www.w3.org/ns/provio#api>", "\"a\\\"b\\n\"");
  g.add("<file:///x/a%20b>", "<http://www.w3.org/ns/provio#path>", "\"x\"@en");
  g.add("<file:///x/a%20b>", "<http://www.w3.org/ns/provio#path>", "\"y\"");
  g.add("_:b1", "<http://www.w3.org/ns/provio#count>",
        "\"5\"^^<http://www.w3.org/2001/XMLSchema#unsignedLong>");
  std::string ttl = format(g, "turtle");
  EXPECT_NE(ttl.find("provio:count \"5\"^^xsd:unsignedLong"), std::string::npos) << ttl;
  EXPECT_NE(ttl.find("<http://www.w3.org/ns/provio#x.y> a prov:Activity"), std::string::npos) << ttl;
  std::string path = dir.file("out.ttl", ttl);
  ASSERT_EQ(parser_for(path, ttl), "turtle");  // a merged graph is not taken for a raw file
  Graph back;
  ReadResult r;
  read_files({path}, 1, back, r);
  EXPECT_EQ(r.messages, std::vector<std::string>{});
  EXPECT_EQ(back.size(), g.size());
  for (std::string fmt : {"rdfxml", "json", "ntriples"}) {
    std::string ext = fmt == "rdfxml" ? "rdf" : fmt == "json" ? "json" : "nt";
    std::string p = dir.file("out." + ext, format(g, fmt));
    Graph x;
    ReadResult rx;
    read_files({p}, 1, x, rx);
    EXPECT_EQ(rx.messages, std::vector<std::string>{}) << fmt;
    EXPECT_EQ(x.size(), g.size()) << fmt;
  }
}

TEST(MergeWriter, FailedWriteIsReported) {
  Graph g;
  for (int i = 0; i < 50000; ++i) g.add("<urn:s" + std::to_string(i) + ">", "<urn:p>", "\"v\"");
  std::FILE* f = std::fopen("/dev/full", "w");
  ASSERT_NE(f, nullptr);
  bool ok = write_graph(g, "turtle", f).ok;
  bool closed = std::fclose(f) == 0;
  EXPECT_FALSE(ok && closed);
}

}  // namespace
}  // namespace provio::rdf
