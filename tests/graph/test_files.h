// Files for the graph engine's tests: a directory of a test's own, and zstd frames made as
// provio's writer makes them (store/frame_compressor.h: content size and checksum).
#pragma once

#include <gtest/gtest.h>
#include <unistd.h>
#include <zstd.h>

#include <filesystem>
#include <fstream>
#include <string>

namespace provio::rdf::test {

// <tmp>/provio_graph_test.<pid>.<test name>, empty at construction, removed at destruction.
class TempDir {
 public:
  TempDir() {
    path_ = std::filesystem::temp_directory_path() /
            ("provio_graph_test." + std::to_string(getpid()) + "." +
             ::testing::UnitTest::GetInstance()->current_test_info()->name());
    std::filesystem::remove_all(path_);
    std::filesystem::create_directories(path_);
  }
  ~TempDir() { std::filesystem::remove_all(path_); }
  TempDir(const TempDir&) = delete;
  TempDir& operator=(const TempDir&) = delete;
  // Writes `bytes` to the file `name` in the directory; returns its path.
  std::string file(const std::string& name, const std::string& bytes) const {
    std::string p = (path_ / name).string();
    std::ofstream(p, std::ios::binary) << bytes;
    return p;
  }
  std::string path() const { return path_.string(); }

 private:
  std::filesystem::path path_;
};

// `plain` as one zstd frame.
inline std::string zstd_frame(const std::string& plain) {
  std::string out(ZSTD_compressBound(plain.size()), '\0');
  ZSTD_CCtx* c = ZSTD_createCCtx();
  ZSTD_CCtx_setParameter(c, ZSTD_c_checksumFlag, 1);
  std::size_t n = ZSTD_compress2(c, out.data(), out.size(), plain.data(), plain.size());
  ZSTD_freeCCtx(c);
  EXPECT_FALSE(ZSTD_isError(n));
  out.resize(ZSTD_isError(n) ? 0 : n);
  return out;
}

}  // namespace provio::rdf::test
