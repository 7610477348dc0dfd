// The writer's signed :start values in a compressed file (store/raw_writer.h StartBase,
// docs/format.md "Signed starts"), end to end: a traced thread's calls, out of start order, are
// written over several frames; every frame, decompressed alone and resolved alone
// (graph/start_deltas.h), gives back each call's start and span, and carries deltas both ways. (The
// reader's side, frames that cannot resolve: tests/graph/start_deltas_test.cc.)
#include <dirent.h>
#include <gtest/gtest.h>
#include <unistd.h>
#include <zstd.h>

#include <cstdlib>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "graph/start_deltas.h"
#include "model/api_names.h"
#include "model/entities.h"
#include "model/identity.h"
#include "store/output_file.h"
#include "store/recorder.h"

namespace provio::store {
namespace {

std::string only_file(const std::string& dir) {
  std::string found;
  if (DIR* d = opendir(dir.c_str())) {
    while (dirent* e = readdir(d)) {
      std::string n = e->d_name;
      if (n.size() > 8 && n.substr(n.size() - 8) == ".ttl.zst") found = dir + "/" + n;
    }
    closedir(d);
  }
  return found;
}

// The values of `term` ("start", "span") in `text`, in order, as written.
std::vector<std::string> values(const std::string& text, const std::string& term) {
  std::vector<std::string> out;
  std::string find = ":" + term + " ";
  for (std::size_t p = text.find(find); p != std::string::npos; p = text.find(find, p + 1)) {
    std::size_t v = p + find.size();
    out.push_back(text.substr(v, text.find_first_of(" ;.\n", v + 1) - v));
  }
  return out;
}

TEST(StartDeltaWriter, EveryFrameResolvesAloneToTheCallsStarts) {
  char tmpl[] = "/tmp/provio-start-delta-XXXXXX";
  ASSERT_NE(mkdtemp(tmpl), nullptr);
  std::string dir = tmpl;
  setenv("PROVIO_DIR", dir.c_str(), 1);
  setenv("PROVIO_COMPRESS", "zstd", 1);
  setenv("PROVIO_LEVEL", "trace", 1);
  reset_for_testing();
  // Each write its own frame (as at process exit), so that frames begin mid-flush: with the
  // writer thread, writes queued together share one (each still beginning with an absolute value).
  OutputFile::set_write_through(true);
  const model::ApiId api = model::api_id("test_write");
  model::EntityId f = model::canonical_file_entity("/rec/start-delta.dat");
  std::uint64_t run_start = model::identity().start_ns;
  std::vector<std::string> want, want_spans;
  constexpr int kCalls = 6000;  // several 64 KiB writes
  for (int i = 0; i < kCalls; ++i) {
    std::uint64_t us = 1000000 + static_cast<std::uint64_t>(i) * 10 + (i * 7919) % 500;  // not in order
    model::Event ev;
    ev.op = model::Op::kWrite;
    ev.api = api;
    ev.entity = f;
    ev.bytes = 10;
    ev.start_ns = run_start + us * 1000;
    ev.elapsed_ns = static_cast<std::uint64_t>(i) * 337 % 3000;  // spans of 0 to 3 µs
    record(ev);
    want.push_back(std::to_string(us));
    want_spans.push_back(std::to_string((ev.start_ns + ev.elapsed_ns) / 1000 - ev.start_ns / 1000));
  }
  flush_all_to_files();
  std::string path = only_file(dir);
  ASSERT_FALSE(path.empty());
  std::ifstream in(path, std::ios::binary);
  std::stringstream ss;
  ss << in.rdbuf();
  std::string data = ss.str();

  std::vector<std::string> got, got_spans;
  std::size_t frames = 0, up = 0, down = 0, spans_written = 0;
  for (std::size_t at = 0; at < data.size(); ++frames) {
    std::size_t size = ZSTD_findFrameCompressedSize(data.data() + at, data.size() - at);
    ASSERT_FALSE(ZSTD_isError(size));
    unsigned long long plain = ZSTD_getFrameContentSize(data.data() + at, size);
    ASSERT_LT(plain, ZSTD_CONTENTSIZE_ERROR);
    std::string text(plain, '\0');
    ASSERT_EQ(ZSTD_decompress(text.data(), text.size(), data.data() + at, size), plain);
    at += size;
    std::vector<std::string> written = values(text, "start");
    spans_written += values(text, "span").size();
    if (written.empty()) continue;
    EXPECT_TRUE(written[0][0] >= '0' && written[0][0] <= '9') << "frame " << frames << ": " << written[0];
    for (const std::string& s : written) up += s[0] == '+', down += s[0] == '-';
    std::string resolved;
    rdf::StartDeltas r = rdf::resolve_start_deltas(text, resolved);
    EXPECT_EQ(r.dropped, 0u) << r.first_dropped;
    for (const std::string& s : values(resolved, "start")) got.push_back(s);
    for (const std::string& s : values(resolved, "span")) got_spans.push_back(s);
  }
  EXPECT_GE(frames, 3u);
  EXPECT_GT(up, 500u);
  EXPECT_GT(down, 500u);
  EXPECT_EQ(spans_written, std::size_t{kCalls});
  ASSERT_EQ(got.size(), want.size());
  ASSERT_EQ(got_spans.size(), want_spans.size());
  for (std::size_t i = 0; i < got.size(); ++i) {
    ASSERT_EQ(got[i], want[i]) << "call " << i;
    ASSERT_EQ(got_spans[i], want_spans[i]) << "call " << i;
  }

  OutputFile::set_write_through(false);
  for (const char* v : {"PROVIO_DIR", "PROVIO_COMPRESS", "PROVIO_LEVEL"}) unsetenv(v);
  reset_for_testing();
  std::system(("rm -rf '" + dir + "'").c_str());
}

}  // namespace
}  // namespace provio::store
