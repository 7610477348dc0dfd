// The reader of compressed raw files (graph/zstd_frames.h, docs/format.md "Compressed raw
// files"): zstd frames read as the plain file, a cut last frame and a damaged frame each cost that
// frame alone and are reported with their offset.
#include <gtest/gtest.h>
#include <unistd.h>
#include <zstd.h>

#include <filesystem>
#include <fstream>
#include <string>

#include "graph/graph.h"
#include "graph/reader.h"
#include "model/vocabulary.h"

namespace provio::rdf {
namespace {

namespace fs = std::filesystem;

std::string frame(const std::string& plain) {
  std::string out(ZSTD_compressBound(plain.size()), '\0');
  ZSTD_CCtx* c = ZSTD_createCCtx();
  ZSTD_CCtx_setParameter(c, ZSTD_c_checksumFlag, 1);
  std::size_t n = ZSTD_compress2(c, out.data(), out.size(), plain.data(), plain.size());
  ZSTD_freeCCtx(c);
  EXPECT_FALSE(ZSTD_isError(n));
  out.resize(n);
  return out;
}

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
  void SetUp() override {
    dir_ = fs::temp_directory_path() / ("provio_zstd_test." + std::to_string(getpid()) + "." +
                                        ::testing::UnitTest::GetInstance()->current_test_info()->name());
    fs::remove_all(dir_);
    fs::create_directories(dir_);
  }
  void TearDown() override { fs::remove_all(dir_); }
  std::string file(const std::string& name, const std::string& bytes) {
    std::string p = (dir_ / name).string();
    std::ofstream(p, std::ios::binary) << bytes;
    return p;
  }
  std::size_t triples(const std::string& path, ReadResult& r) {
    Graph g;
    read_files({path}, 1, g, r);
    return g.size();
  }
  fs::path dir_;
};

const std::string kHead(model::kTurtlePrefixes);

TEST_F(ZstdRead, FramesReadAsThePlainFile) {
  std::string a = kHead + lines(0, 10), b = lines(10, 10);
  ReadResult plain, packed;
  std::size_t want = triples(file("t.ttl", a + b), plain);
  EXPECT_EQ(want, 40u);
  EXPECT_EQ(triples(file("t.ttl.zst", frame(a) + frame(b)), packed), want);
  EXPECT_EQ(packed.messages, std::vector<std::string>{});
  EXPECT_EQ(packed.damaged, 0u);
  // recognised by its first bytes, whatever the name
  ReadResult renamed;
  EXPECT_EQ(triples(file("odd.ttl", frame(a) + frame(b)), renamed), want);
  EXPECT_EQ(renamed.damaged, 0u);
}

TEST_F(ZstdRead, AFrameLargerThanAReadStreams) {
  std::string big = kHead + lines(0, 60000);  // several MiB once decompressed, one frame
  ReadResult r;
  EXPECT_EQ(triples(file("big.ttl.zst", frame(big) + frame(lines(60000, 1))), r), 2u * 60001u);
  EXPECT_EQ(r.damaged, 0u);
}

TEST_F(ZstdRead, ACutLastFrameCostsThatFrameAlone) {
  std::string first = frame(kHead + lines(0, 10)), second = frame(lines(10, 10));
  std::string path = file("cut.ttl.zst", first + second.substr(0, second.size() / 2));
  ReadResult r;
  EXPECT_EQ(triples(path, r), 20u);
  EXPECT_EQ(r.damaged, 1u);
  ASSERT_EQ(r.messages.size(), 1u);
  EXPECT_EQ(r.messages[0], path + ": truncated zstd frame at byte " + std::to_string(first.size()) +
                               " dropped (file ends mid-frame)");
}

TEST_F(ZstdRead, ADamagedFrameIsReportedWithItsOffset) {
  std::string first = frame(kHead + lines(0, 10)), second = frame(lines(10, 10));
  second[second.size() - 2] ^= 0x55;  // its checksum no longer matches
  std::string path = file("bad.ttl.zst", first + second + frame(lines(20, 10)));
  ReadResult r;
  EXPECT_EQ(triples(path, r), 20u);
  EXPECT_EQ(r.damaged, 1u);
  ASSERT_EQ(r.messages.size(), 1u);
  EXPECT_EQ(
      r.messages[0].rfind(path + ": damaged zstd frame at byte " + std::to_string(first.size()) + " (", 0),
      0u)
      << r.messages[0];
  EXPECT_NE(r.messages[0].find("; rest of file dropped"), std::string::npos);
}

TEST_F(ZstdRead, OnlyACutFrameIsNotAnEmptyFile) {
  std::string only = frame(kHead + lines(0, 3));
  std::string path = file("one.ttl.zst", only.substr(0, only.size() - 1));
  ReadResult r;
  EXPECT_EQ(triples(path, r), 0u);
  ASSERT_EQ(r.messages.size(), 1u);
  EXPECT_EQ(r.messages[0], path + ": truncated zstd frame at byte 0 dropped (file ends mid-frame)");
}

}  // namespace
}  // namespace provio::rdf
