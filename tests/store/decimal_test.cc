// The trace writer's decimal digits against std::to_chars, at every length and both ends.
#include "store/decimal.h"

#include <gtest/gtest.h>

#include <charconv>
#include <cstdint>
#include <limits>
#include <string>
#include <vector>

namespace provio::store {
namespace {

template <typename T>
std::string expected(T v) {
  char buf[32];
  auto r = std::to_chars(buf, buf + sizeof buf, v);
  return std::string(buf, r.ptr);
}

template <typename T>
std::string written(T v) {
  char buf[32];
  return std::string(buf, put_decimal(buf, v));
}

TEST(Decimal, EveryLengthAndBoundary) {
  std::vector<std::uint64_t> values = {0, std::numeric_limits<std::uint64_t>::max()};
  for (std::uint64_t p = 1; p <= 10'000'000'000'000'000'000ull; p *= 10) {
    values.insert(values.end(), {p - 1, p, p + 1, 3 * p, 99 * p / 10});
    if (p > std::numeric_limits<std::uint64_t>::max() / 10) break;
  }
  // The length comes from the bit length: the neighbours of every power of two below 2^63.
  for (int bit = 1; bit < 63; ++bit) {
    std::uint64_t p = std::uint64_t{1} << bit;
    values.insert(values.end(), {p - 1, p, p + 1});
  }
  for (std::uint64_t v : values) {
    EXPECT_EQ(written(v), expected(v)) << v;
    auto s = static_cast<std::int64_t>(v);
    EXPECT_EQ(written(s), expected(s)) << s;
    EXPECT_EQ(written(-s), expected(-s)) << -s;
  }
  EXPECT_EQ(written(std::numeric_limits<std::int64_t>::min()), "-9223372036854775808");
}

TEST(Decimal, NineDigitsArePadded) {
  for (std::uint32_t v : {0u, 1u, 10u, 99u, 100u, 1234u, 9999u, 10000u, 10001u, 500000000u, 999999999u,
                          100000000u, 99999999u}) {
    char buf[9];
    std::string got(buf, put_nine_digits(buf, v));
    std::string want = expected(v);
    EXPECT_EQ(got, std::string(9 - want.size(), '0') + want) << v;
  }
}

}  // namespace
}  // namespace provio::store
