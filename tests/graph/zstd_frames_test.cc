// The reader of compressed raw files (graph/zstd_frames.h, docs/format.md "Compressed raw
// files"): zstd frames read as the plain file, a cut last frame and a damaged frame each cost that
// frame alone and are reported with their offsets; the reader finds the frames after damage.
#include <gtest/gtest.h>
#include <unistd.h>
#include <zstd.h>

#include <filesystem>
#include <fstream>
#include <random>
#include <string>

#include "graph/graph.h"
#include "graph/reader.h"
#include "model/vocabulary.h"
#include "test_files.h"

namespace provio::rdf {
namespace {

// Statements of `n` activities, one per line.
std::string lines(int first, int n) {
  std::string s;
  for (int i = first; i < first + n; ++i)
    s += "<urn:a" + std::to_string(i) + "> rdf:type prov:Activity ; provio:count " + std::to_string(i) +
         " .\n";
  return s;
}

class ZstdRead : public ::testing::Test {
 protected:
  std::string file(const std::string& name, const std::string& bytes) { return dir_.file(name, bytes); }
  std::size_t triples(const std::string& path, ReadResult& r) {
    Graph g;
    read_files({path}, 1, g, r);
    return g.size();
  }
  test::TempDir dir_;
};

const std::string kHead(model::kTurtlePrefixes);

TEST_F(ZstdRead, FramesReadAsThePlainFile) {
  std::string a = kHead + lines(0, 10), b = lines(10, 10);
  ReadResult plain, packed;
  std::size_t want = triples(file("t.ttl", a + b), plain);
  EXPECT_EQ(want, 40u);
  EXPECT_EQ(triples(file("t.ttl.zst", test::zstd_frame(a) + test::zstd_frame(b)), packed), want);
  EXPECT_EQ(packed.messages, std::vector<std::string>{});
  EXPECT_EQ(packed.damaged, 0u);
  // recognised by its first bytes, whatever the name
  ReadResult renamed;
  EXPECT_EQ(triples(file("odd.ttl", test::zstd_frame(a) + test::zstd_frame(b)), renamed), want);
  EXPECT_EQ(renamed.damaged, 0u);
}

TEST_F(ZstdRead, AFrameLargerThanAReadStreams) {
  std::string big = kHead + lines(0, 60000);  // several MiB once decompressed, one frame
  ReadResult r;
  EXPECT_EQ(triples(file("big.ttl.zst", test::zstd_frame(big) + test::zstd_frame(lines(60000, 1))), r),
            2u * 60001u);
  EXPECT_EQ(r.damaged, 0u);
}

TEST_F(ZstdRead, ACutLastFrameCostsThatFrameAlone) {
  std::string first = test::zstd_frame(kHead + lines(0, 10)), second = test::zstd_frame(lines(10, 10));
  std::string path = file("cut.ttl.zst", first + second.substr(0, second.size() / 2));
  ReadResult r;
  EXPECT_EQ(triples(path, r), 20u);
  EXPECT_EQ(r.damaged, 1u);
  ASSERT_EQ(r.messages.size(), 1u);
  EXPECT_EQ(r.messages[0], path + ": truncated zstd frame at byte " + std::to_string(first.size()) +
                               " dropped (file ends mid-frame)");
}

// The message for damaged bytes [from, next) followed by whole frames.
std::string skipped(const std::string& path, std::size_t from, std::size_t next, const std::string& why) {
  return path + ": damaged zstd data at bytes " + std::to_string(from) + "-" + std::to_string(next - 1) +
         " skipped (" + why + "); the frames after it are kept";
}

// Three frames of 10 activities each: the damage goes into the second.
struct Three {
  std::string first = test::zstd_frame(kHead + lines(0, 10)), second = test::zstd_frame(lines(10, 10)),
              third = test::zstd_frame(lines(20, 10));
};

TEST_F(ZstdRead, ADamagedMiddleFrameCostsThatFrameAlone) {
  Three f;
  f.second[f.second.size() - 2] ^= 0x55;  // its checksum no longer matches
  std::string path = file("bad.ttl.zst", f.first + f.second + f.third);
  ReadResult r;
  EXPECT_EQ(triples(path, r), 40u);  // the first and third frames
  EXPECT_EQ(r.damaged, 1u);
  EXPECT_EQ(r.messages,
            std::vector<std::string>{skipped(path, f.first.size(), f.first.size() + f.second.size(),
                                             "Restored data doesn't match checksum")});
}

TEST_F(ZstdRead, DamageInsideABlockIsSkippedToTheNextFrame) {
  Three f;
  for (std::size_t i = f.second.size() / 3; i < f.second.size() / 2; ++i) f.second[i] = '\x7f';
  std::string path = file("block.ttl.zst", f.first + f.second + f.third);
  ReadResult r;
  EXPECT_EQ(triples(path, r), 40u);
  ASSERT_EQ(r.messages.size(), 1u);
  std::string want = skipped(path, f.first.size(), f.first.size() + f.second.size(), "");
  EXPECT_EQ(r.messages[0].substr(0, want.find(" skipped (")), want.substr(0, want.find(" skipped (")));
}

TEST_F(ZstdRead, AFalseMagicNumberInTheDamageIsNotTakenForAFrame) {
  // What looks like the start of a frame of provio's kind (magic, a descriptor with a checksum
  // and a one-byte content size), then bytes that do not decode, in place of the second frame's
  // middle; and a frame whose checksum does not match, for good measure.
  Three f;
  std::string fake = std::string("\x28\xB5\x2F\xFD\x24\x30", 6) + std::string(20, '\x01');
  f.second.replace(f.second.size() / 3, fake.size(), fake);
  std::string liar = test::zstd_frame(lines(100, 3));
  liar[liar.size() - 1] ^= 1;
  std::string path = file("fake.ttl.zst", f.first + f.second + liar + f.third);
  ReadResult r;
  EXPECT_EQ(triples(path, r), 40u);
  ASSERT_EQ(r.messages.size(), 1u);
  std::size_t next = f.first.size() + f.second.size() + liar.size();
  EXPECT_EQ(r.messages[0].rfind(path + ": damaged zstd data at bytes " + std::to_string(f.first.size()) +
                                    "-" + std::to_string(next - 1) + " skipped (",
                                0),
            0u)
      << r.messages[0];
}

TEST_F(ZstdRead, AFrameCutMidFileIsDamageNotTheEnd) {
  // A writer that failed halfway through a frame and wrote whole ones later, or a hole of zeros
  // left by a crashed node: the frames after it are kept.
  Three f;
  std::string half = f.second.substr(0, f.second.size() / 2), zeros(5000, '\0');
  std::string path = file("hole.ttl.zst", f.first + half + f.third + zeros + test::zstd_frame(lines(30, 10)));
  ReadResult r;
  EXPECT_EQ(triples(path, r), 60u);
  ASSERT_EQ(r.messages.size(), 2u);
  std::size_t third_at = f.first.size() + half.size(), zeros_at = third_at + f.third.size();
  EXPECT_EQ(r.messages[0].rfind(path + ": damaged zstd data at bytes " + std::to_string(f.first.size()) +
                                    "-" + std::to_string(third_at - 1) + " skipped (",
                                0),
            0u)
      << r.messages[0];
  EXPECT_EQ(r.messages[1], skipped(path, zeros_at, zeros_at + zeros.size(), "no zstd frame here"));
}

TEST_F(ZstdRead, DamageLongerThanAReadIsSkipped) {
  // More than the reader's 1 MiB chunk of noise between two frames: the search goes on across reads.
  Three f;
  std::mt19937 random(33);
  std::string noise(3 << 20, '\0');
  for (char& c : noise) c = static_cast<char>(random());
  std::string path = file("noise.ttl.zst", f.first + noise + f.third);
  ReadResult r;
  EXPECT_EQ(triples(path, r), 40u);
  ASSERT_EQ(r.messages.size(), 1u);
  EXPECT_EQ(r.messages[0].rfind(path + ": damaged zstd data at bytes " + std::to_string(f.first.size()) +
                                    "-" + std::to_string(f.first.size() + noise.size() - 1) + " skipped (",
                                0),
            0u)
      << r.messages[0];
}

TEST_F(ZstdRead, ADamagedLastFrameIsReportedToTheEnd) {
  Three f;
  f.second[f.second.size() - 2] ^= 0x55;
  std::string path = file("last.ttl.zst", f.first + f.second);
  ReadResult r;
  EXPECT_EQ(triples(path, r), 20u);
  EXPECT_EQ(r.messages, std::vector<std::string>{
                            path + ": damaged zstd data at bytes " + std::to_string(f.first.size()) + "-" +
                            std::to_string(f.first.size() + f.second.size() - 1) +
                            " dropped, to the end of the file (Restored data doesn't match checksum)"});
}

TEST_F(ZstdRead, AFrameWithoutAChecksumIsNotTrusted) {
  std::string plain = lines(10, 10), bare(ZSTD_compressBound(plain.size()), '\0');
  bare.resize(ZSTD_compress(bare.data(), bare.size(), plain.data(), plain.size(), 1));  // no checksum
  Three f;
  std::string path = file("bare.ttl.zst", f.first + bare + f.third);
  ReadResult r;
  EXPECT_EQ(triples(path, r), 40u);
  EXPECT_EQ(r.messages, std::vector<std::string>{skipped(path, f.first.size(), f.first.size() + bare.size(),
                                                         "a zstd frame without a checksum")});
}

TEST_F(ZstdRead, OnlyACutFrameIsNotAnEmptyFile) {
  std::string only = test::zstd_frame(kHead + lines(0, 3));
  std::string path = file("one.ttl.zst", only.substr(0, only.size() - 1));
  ReadResult r;
  EXPECT_EQ(triples(path, r), 0u);
  ASSERT_EQ(r.messages.size(), 1u);
  EXPECT_EQ(r.messages[0], path + ": truncated zstd frame at byte 0 dropped (file ends mid-frame)");
}

}  // namespace
}  // namespace provio::rdf
