// Writes the raw provenance of a metadata-heavy campaign through the real core (provio's C API),
// the shape issue 33 measured the tools on: datasets with many attributes each, every call an
// activity of its own when PROVIO_LEVEL=trace. `ranks` threads stand for the job's ranks (one
// raw file each, run in batches); rank r owns the file step<r>.h5 and, per dataset, writes it,
// writes and reads back each of its attributes, and reads one dataset of the previous rank's
// file, so a file's lineage reaches back through the ranks before it.
//
//   campaign_gen --datasets N [--attributes A] [--ranks R]   (PROVIO_DIR names the output)
#include <provio/provio.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <thread>
#include <vector>

namespace {

struct Shape {
  long datasets = 1000, attributes = 50, ranks = 16;
};

void rank_work(const Shape& shape, long rank) {
  long first = shape.datasets * rank / shape.ranks, last = shape.datasets * (rank + 1) / shape.ranks;
  provio_entity_t file = provio_file(("step" + std::to_string(rank) + ".h5").c_str());
  provio_entity_t before = rank > 0 ? provio_file(("step" + std::to_string(rank - 1) + ".h5").c_str()) : 0;
  std::uint64_t t = provio_now_ns();
  for (long d = first; d < last; ++d) {
    provio_entity_t ds = provio_object(file, ("/d" + std::to_string(d)).c_str(), PROVIO_DATASET);
    if (rank > 0) {
      std::string source = "/d" + std::to_string(d - first + shape.datasets * (rank - 1) / shape.ranks);
      provio_record_io(PROVIO_READ, "H5Dread", provio_object(before, source.c_str(), PROVIO_DATASET), 8192,
                       t += 1000, 700);
    }
    provio_record_io(PROVIO_WRITE, "H5Dwrite", ds, 8192, t += 1000, 900);
    for (long a = 0; a < shape.attributes; ++a) {
      provio_entity_t attr = provio_attribute(ds, ("a" + std::to_string(a)).c_str());
      provio_record_io(PROVIO_WRITE, "H5Awrite", attr, 8, t += 1000, 300);
      provio_record_io(PROVIO_READ, "H5Aread", attr, 8, t += 1000, 200);
    }
  }
}

}  // namespace

int main(int argc, char** argv) {
  Shape shape;
  for (int i = 1; i + 1 < argc; i += 2) {
    long v = std::atol(argv[i + 1]);
    if (!std::strcmp(argv[i], "--datasets"))
      shape.datasets = v;
    else if (!std::strcmp(argv[i], "--attributes"))
      shape.attributes = v;
    else if (!std::strcmp(argv[i], "--ranks"))
      shape.ranks = v;
    else {
      std::fprintf(stderr, "campaign_gen: unknown option %s\n", argv[i]);
      return 1;
    }
  }
  if (shape.datasets < 1 || shape.attributes < 0 || shape.ranks < 1) {
    std::fprintf(stderr, "campaign_gen: --datasets and --ranks must be positive\n");
    return 1;
  }
  const long batch = 16;
  for (long first = 0; first < shape.ranks; first += batch) {
    std::vector<std::thread> pool;
    for (long r = first; r < std::min(shape.ranks, first + batch); ++r)
      pool.emplace_back([&shape, r] { rank_work(shape, r); });
    for (auto& th : pool) th.join();
  }
  return 0;
}
