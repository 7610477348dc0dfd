// Signed :start values (graph/start_deltas.h, docs/format.md "Signed starts"): resolved from the
// :start before them in the same frame, negative deltas included; never from another frame, a
// string or a longer name; one that cannot be resolved costs its line and is said, never a crash.
// And through the reader: a compressed file whose frames carry deltas reads as the plain file
// with absolute values.
#include "graph/start_deltas.h"

#include <gtest/gtest.h>
#include <unistd.h>
#include <zstd.h>

#include <filesystem>
#include <fstream>
#include <random>
#include <string>

#include "graph/graph.h"
#include "graph/reader.h"
#include "model/raw_terms.h"
#include "model/vocabulary.h"
#include "test_files.h"

namespace provio::rdf {
namespace {

std::string resolved(const std::string& frame, StartDeltas* r = nullptr) {
  std::string out = "kept|";
  StartDeltas d = resolve_start_deltas(frame, out);
  if (r) *r = d;
  return out.substr(5);
}

TEST(StartDeltas, SignedValuesCountFromTheOneBefore) {
  EXPECT_EQ(resolved("a :count 1 ; :start 100 ; :span 3 .\n"
                     "b :count 1 ; :start +14 ; :span 3 .\n"
                     "c :count 1 ; :start -20 ; :span 3 .\n"  // threads' activities: not in start order
                     "d :count 1 ; :start -94 ; :span 3 .\n"
                     "e :count 1 ; :start +0 ; :span 3 .\n"),
            "a :count 1 ; :start 100 ; :span 3 .\n"
            "b :count 1 ; :start 114 ; :span 3 .\n"
            "c :count 1 ; :start 94 ; :span 3 .\n"
            "d :count 1 ; :start 0 ; :span 3 .\n"
            "e :count 1 ; :start 0 ; :span 3 .\n");
}

TEST(StartDeltas, AnUnsignedValueIsANewBase) {
  EXPECT_EQ(resolved("a :start 5 .\nb :start +1 .\nc :start 1000 .\nd :start +1.\n"),
            "a :start 5 .\nb :start 6 .\nc :start 1000 .\nd :start 1001.\n");
}

TEST(StartDeltas, TextWithoutSignedStartsIsUnchanged) {
  std::string plain = std::string(model::kTurtlePrefixes) + "a :count 1 ; :start 7 ; :span 2 .\n";
  EXPECT_EQ(resolved(plain), plain);
  EXPECT_EQ(resolved(""), "");
}

TEST(StartDeltas, OnlyThePredicateCounts) {
  // In a string, an IRI or a comment, or a longer name: not a :start.
  std::string text =
      "a :start 10 .\n"
      "b :name \"x :start +5\" ; :start +1 .\n"
      "c :name 'y :start -5' ; <urn:x:start> :z ; :startx +3 ; p:start +4 .\n"
      "d :s \"q\\\" :start +6\" . # :start +7\n";
  EXPECT_EQ(resolved(text),
            "a :start 10 .\n"
            "b :name \"x :start +5\" ; :start 11 .\n"
            "c :name 'y :start -5' ; <urn:x:start> :z ; :startx +3 ; p:start +4 .\n"
            "d :s \"q\\\" :start +6\" . # :start +7\n");
}

TEST(StartDeltas, ASignedFirstValueIsNeverGuessed) {
  // A frame begun mid-file: its first :start must be absolute; a signed one costs its line only.
  StartDeltas r;
  EXPECT_EQ(resolved("a :count 1 ; :start +14 ; :span 1 .\nb :start 3 .\nc :start +1 .\n", &r),
            "b :start 3 .\nc :start 4 .\n");
  EXPECT_EQ(r.dropped, 1u);
  EXPECT_EQ(r.first_line, 1u);
  EXPECT_EQ(r.first_dropped, "a :count 1 ; :start +14 ; :span 1 .");
}

TEST(StartDeltas, BadValuesCostTheirLineAndWhatCountsFromThem) {
  StartDeltas r;
  std::string out = resolved(
      "a :start 1 .\n"
      "b :start + .\n"                    // no digits
      "c :start +2 .\n"                   // counts from b: unknown
      "d :start 9223372036854775807 .\n"  // the largest base
      "e :start +1 .\n"                   // overflows
      "f :start 5 .\n"
      "g :start -99999999999999999999 .\n"  // does not fit
      "h :start 5 . i :start +1 ; :start +x .\n"
      "j :start 2.5 .\n"  // not a whole integer: no base
      "k :start +1 .\n"
      "l :start 1 .\n"
      "m :start +1",  // at the end, no newline
      &r);
  EXPECT_EQ(out,
            "a :start 1 .\n"
            "d :start 9223372036854775807 .\n"
            "f :start 5 .\n"
            "j :start 2.5 .\n"
            "l :start 1 .\n"
            "m :start 2");
  EXPECT_EQ(r.dropped, 6u);
  EXPECT_EQ(r.first_line, 2u);
  EXPECT_EQ(r.first_dropped, "b :start + .");
}

TEST(StartDeltas, PiecesOfAnySizeResolveAsTheWhole) {
  // A plain input (zstdcat's text) comes in chunks that cut lines anywhere.
  std::string text =
      "a :count 1 ; :start 100 ; :span 3 .\nb :start +14 .\nc :start -20 .\nd :start +x .\ne :start 7";
  StartDeltas whole_dropped;
  std::string whole = resolved(text, &whole_dropped);
  for (std::size_t piece = 1; piece <= 9; ++piece) {
    StartResolver r;
    std::string out;
    for (std::size_t at = 0; at < text.size(); at += piece)
      r.feed(std::string_view(text).substr(at, piece), out);
    r.finish(out);
    EXPECT_EQ(out, whole) << piece;
    EXPECT_EQ(r.dropped().dropped, whole_dropped.dropped);
    EXPECT_EQ(r.dropped().first_line, 4u);
  }
  EXPECT_EQ(dropped_message(whole_dropped, ""),
            "1 statement(s) with a signed :start that cannot be resolved dropped (the first, line 4: d "
            ":start +x .)");
}

TEST(StartDeltas, RandomBytesNeverCrash) {
  std::mt19937 random(33);
  const std::string pieces[] = {":start", " ", "+", "-", "1", "99999999999999999999", "\n", "\"", ";", "."};
  for (int round = 0; round < 2000; ++round) {
    std::string text;
    for (int i = 0; i < 40; ++i) text += pieces[random() % std::size(pieces)];
    std::string out;
    StartDeltas r = resolve_start_deltas(text, out);
    EXPECT_LE(out.size(), text.size() + 40 * 20);
    EXPECT_LE(r.first_dropped.size(), text.size());
  }
}

// Through the reader, frame by frame.

class StartDeltasRead : public ::testing::Test {
 protected:
  std::string read(const std::string& name, const std::string& bytes, ReadResult& r) {
    std::string p = dir_.file(name, bytes);
    Graph g;
    read_files({p}, 1, g, r);
    std::string text;  // N-Triples, sorted
    for (const Triple& t : g.sorted()) {
      for (TermId term : {t.s, t.p, t.o}) (text += g.terms[term]) += ' ';
      text += ".\n";
    }
    return text;
  }
  test::TempDir dir_;
};

// `n` activities from `first`, with their starts as `signed_starts` says: absolute, or each after
// the first of the text a delta (going down and up).
std::string activities(int first, int n, bool signed_starts) {
  std::string s;
  long long last = 0;
  for (int i = first; i < first + n; ++i) {
    long long start = 2000 + (i % 2 ? -i : i) * 37;
    std::string value = std::to_string(start);
    if (signed_starts && i > first)
      value = (start >= last ? "+" : "-") + std::to_string(std::llabs(start - last));
    s += "<urn:a" + std::to_string(i) + "> :count 1 ; :start " + value + " ; :span 2 .\n";
    last = start;
  }
  return s;
}

const std::string kHead = std::string(model::kTurtlePrefixes) + std::string(model::raw::kShortPrefix);

TEST_F(StartDeltasRead, FramesWithDeltasReadAsThePlainFile) {
  ReadResult plain, packed;
  std::string want = read("t.ttl", kHead + activities(0, 10, false) + activities(10, 10, false), plain);
  EXPECT_EQ(
      read("t.ttl.zst",
           test::zstd_frame(kHead + activities(0, 10, true)) + test::zstd_frame(activities(10, 10, true)),
           packed),
      want);
  EXPECT_EQ(packed.messages, std::vector<std::string>{});
  EXPECT_EQ(packed.damaged, 0u);
}

TEST_F(StartDeltasRead, AFrameNeverCountsFromTheOneBefore) {
  // The second frame's first :start is signed (a writer's bug, or a frame spliced in): nothing in
  // that frame has a base, so its lines go, with one message naming the frame; the first frame
  // and the third (absolute first) are read whole.
  std::string first = test::zstd_frame(kHead + activities(0, 10, true));
  std::string second = activities(10, 10, true);
  second.replace(second.find("start 2370"), 10, "start +5");
  ReadResult r;
  std::string got =
      read("mid.ttl.zst", first + test::zstd_frame(second) + test::zstd_frame(activities(20, 10, true)), r);
  ReadResult plain;
  EXPECT_EQ(got, read("want.ttl", kHead + activities(0, 10, false) + activities(20, 10, false), plain));
  EXPECT_EQ(r.damaged, 1u);
  ASSERT_EQ(r.messages.size(), 1u);
  EXPECT_NE(r.messages[0].find(": zstd frame at bytes " + std::to_string(first.size()) + "-"),
            std::string::npos)
      << r.messages[0];
  EXPECT_NE(r.messages[0].find(": 10 statement(s) with a signed :start that cannot be resolved dropped (the "
                               "first, line 1 of the frame: <urn:a10> :count 1 ; :start +5 ; :span 2 .)"),
            std::string::npos)
      << r.messages[0];
}

}  // namespace
}  // namespace provio::rdf
