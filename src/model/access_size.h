// Darshan's access-size buckets (SIZE_READ_0_100 … SIZE_READ_1G_PLUS): the one bucket rule of
// the summary table's histograms (store/summary_table.h) and of the tools reading them
// (tools/query/io_view.h). The raw terms naming the buckets are in raw_terms.h.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>

namespace provio::model {

inline constexpr std::size_t kSizeBuckets = 10;
// The buckets' names as Darshan's counters end: "0_100", "100_1k", …, "1g_plus".
inline constexpr std::array<const char*, kSizeBuckets> kSizeBucketNames = {
    "0_100", "100_1k", "1k_10k", "10k_100k", "100k_1m", "1m_4m", "4m_10m", "10m_100m", "100m_1g", "1g_plus"};

// The bucket of one access of `bytes` bytes. Upper bounds are inclusive, as Darshan's
// DARSHAN_BUCKET_INC (darshan-common.h) compares them: 100 bytes is in 0_100, 101 in 100_1k.
constexpr std::size_t size_bucket(std::uint64_t bytes) {
  constexpr std::uint64_t kUpper[kSizeBuckets - 1] = {100,     1024,     10240,     102400,    1048576,
                                                      4194304, 10485760, 104857600, 1073741824};
  std::size_t b = 0;
  while (b < kSizeBuckets - 1 && bytes > kUpper[b]) ++b;
  return b;
}

}  // namespace provio::model
