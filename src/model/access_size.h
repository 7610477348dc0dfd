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
//
// Every read and write a summary records passes here, so it takes no loop and no branch: each
// range of equal bit width [2^w, 2^(w+1)) holds at most one upper bound, so a size's bucket is
// the first bucket its width reaches plus one if it is above the bound inside that range.
// (tests/store/summary_table_test.cc checks it against the bounds one by one.)
namespace access_size_detail {
inline constexpr std::uint64_t kUpper[kSizeBuckets - 1] = {100,     1024,     10240,     102400,    1048576,
                                                           4194304, 10485760, 104857600, 1073741824};
// Per bit width w (the sizes [2^w, 2^(w+1)); 0 counts as 1): the bucket of 2^w, and the upper
// bound inside the range (else the range's top, which no size of that width exceeds).
struct ByWidth {
  std::uint8_t first[64];
  std::uint64_t above[64];
};
constexpr ByWidth by_width() {
  ByWidth t{};
  for (int w = 0; w < 64; ++w) {
    std::uint64_t low = std::uint64_t{1} << w, high = low + (low - 1);
    std::size_t b = 0;
    while (b < kSizeBuckets - 1 && low > kUpper[b]) ++b;
    t.first[w] = static_cast<std::uint8_t>(b);
    t.above[w] = b < kSizeBuckets - 1 && kUpper[b] < high ? kUpper[b] : high;
  }
  return t;
}
inline constexpr ByWidth kByWidth = by_width();
}  // namespace access_size_detail

constexpr std::size_t size_bucket(std::uint64_t bytes) {
  using namespace access_size_detail;
  int w = 63 - __builtin_clzll(bytes | 1);
  return kByWidth.first[w] + (bytes > kByWidth.above[w]);
}

}  // namespace provio::model
