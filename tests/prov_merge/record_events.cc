// A real program for prov-merge's tests: records a known number of I/O events through provio's C
// API from several threads, flushing in between so every summary activity has several parts.
//
//   record_events [--threads N] [--events N] [--flushes N] [--write FILE] [--read FILE]
//
// Each thread t records, per round, `events` writes of (t+1)*100 bytes on dataset /d of the write
// file (if given) and `events` reads of 10 bytes on the read file (if given); a round ends with a
// flush; elapsed per call is 1000 ns + t. The totals per thread (count = rounds * events, ...)
// are what the merged graph must say. Under mpirun every rank does the same.
#include <provio/provio.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <thread>
#include <vector>

int main(int argc, char** argv) {
  int threads = 3, events = 5, flushes = 3;
  const char* write_file = nullptr;
  const char* read_file = nullptr;
  for (int i = 1; i + 1 < argc; i += 2) {
    if (!std::strcmp(argv[i], "--threads")) threads = std::atoi(argv[i + 1]);
    else if (!std::strcmp(argv[i], "--events")) events = std::atoi(argv[i + 1]);
    else if (!std::strcmp(argv[i], "--flushes")) flushes = std::atoi(argv[i + 1]);
    else if (!std::strcmp(argv[i], "--write")) write_file = argv[i + 1];
    else if (!std::strcmp(argv[i], "--read")) read_file = argv[i + 1];
    else {
      std::fprintf(stderr, "record_events: unknown option %s\n", argv[i]);
      return 1;
    }
  }
  provio_entity_t wf = write_file ? provio_file(write_file) : 0;
  provio_entity_t ds = wf ? provio_object(wf, "/d", PROVIO_DATASET) : 0;
  provio_entity_t rf = read_file ? provio_file(read_file) : 0;
  int failures = 0;
  std::vector<std::thread> pool;
  std::vector<int> fail(static_cast<std::size_t>(threads), 0);
  for (int t = 0; t < threads; ++t) {
    pool.emplace_back([&, t] {
      std::uint64_t now = provio_now_ns();
      for (int round = 0; round < flushes; ++round) {
        for (int e = 0; e < events; ++e) {
          std::uint64_t start = now + static_cast<std::uint64_t>(round * 1000000 + e * 1000);
          if (ds && provio_record_io(PROVIO_WRITE, "H5Dwrite", ds, static_cast<std::uint64_t>(t + 1) * 100, start,
                                     1000 + static_cast<std::uint64_t>(t)) != PROVIO_OK) {
            ++fail[static_cast<std::size_t>(t)];
          }
          if (rf && provio_record_io(PROVIO_READ, "pread", rf, 10, start, 1000 + static_cast<std::uint64_t>(t)) != PROVIO_OK) {
            ++fail[static_cast<std::size_t>(t)];
          }
        }
        provio_flush();
      }
    });
  }
  for (auto& th : pool) th.join();
  for (int f : fail) failures += f;
  if (failures) std::fprintf(stderr, "record_events: %d failed calls: %s\n", failures, provio_last_error());
  return failures ? 1 : 0;
}
