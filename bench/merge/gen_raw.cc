// Writes raw provenance for the merge benchmark through the real core: `files` threads (one file
// each, run in batches), each recording writes and reads on its own objects in several passes,
// until about `triples` statements are written in all. A small summary table (64 slots, set here
// unless PROVIO_SUMMARY_SLOTS is set) makes each thread flush on its own during every pass, so
// every activity gets one part per pass. (provio_flush() from many threads at once is avoided:
// it crashed the core on 2026-11-21, reported to the lead.)
//
//   merge_bench_gen --files N --triples T   (PROVIO_DIR names the output directory)
#include <provio/provio.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <thread>
#include <vector>

namespace {
// Statements one (object, flush) pair costs: 2 activities x (4 description + 2 relations +
// 1 partial + 5 measures) = 24, plus the object's declaration once.
constexpr long kPerObjectFlush = 24;
}  // namespace

int main(int argc, char** argv) {
  long files = 16, triples = 1000000;
  for (int i = 1; i + 1 < argc; i += 2) {
    if (!std::strcmp(argv[i], "--files"))
      files = std::atol(argv[i + 1]);
    else if (!std::strcmp(argv[i], "--triples"))
      triples = std::atol(argv[i + 1]);
    else {
      std::fprintf(stderr, "merge_bench_gen: unknown option %s\n", argv[i]);
      return 1;
    }
  }
  long per_file = std::max(100L, triples / files);
  long flushes = std::clamp(per_file / (kPerObjectFlush * 64), 1L, 8L);
  long objects = std::max(1L, per_file / (kPerObjectFlush * flushes));
  setenv("PROVIO_SUMMARY_SLOTS", "64", 0);
  provio_entity_t file = provio_file("bench.h5");
  const long batch = 32;
  for (long first = 0; first < files; first += batch) {
    std::vector<std::thread> pool;
    for (long t = first; t < std::min(files, first + batch); ++t) {
      pool.emplace_back([=] {
        std::vector<provio_entity_t> objs;
        for (long o = 0; o < objects; ++o) {
          std::string path = "/t" + std::to_string(t) + "/d" + std::to_string(o);
          objs.push_back(provio_object(file, path.c_str(), PROVIO_DATASET));
        }
        std::uint64_t now = provio_now_ns();
        for (long f = 0; f < flushes; ++f) {
          for (long o = 0; o < objects; ++o) {
            provio_record_io(PROVIO_WRITE, "H5Dwrite", objs[static_cast<std::size_t>(o)], 4096,
                             now + f * 1000, 1234);
            provio_record_io(PROVIO_READ, "H5Dread", objs[static_cast<std::size_t>(o)], 4096,
                             now + f * 1000 + 500, 987);
          }
        }
      });
    }
    for (auto& th : pool) th.join();
  }
  return 0;
}
