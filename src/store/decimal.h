// Decimal digits written into a caller's buffer, for the numbers of every traced call (count,
// bytes, elapsed, start, span, call number): the trace writer formats six per call, and
// std::to_chars's out-of-line length loop and digit pairs cost more than the rest of the
// statement (cachegrind, bench/posix/instructions).
//
// Hard rule: the caller provides room — 20 bytes for an unsigned number, 21 for a signed one, 9
// for put_nine_digits. Nothing is checked here.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <cstring>

namespace provio::store {

namespace detail {
// "00" "01" … "99": two digits per table load.
inline constexpr char kDigitPairs[201] =
    "0001020304050607080910111213141516171819202122232425262728293031323334353637383940414243444546474849"
    "5051525354555657585960616263646566676869707172737475767778798081828384858687888990919293949596979899";

inline void put_pair(char* p, std::uint32_t two_digits) {
  std::memcpy(p, kDigitPairs + 2 * two_digits, 2);
}

// 10^0 … 10^19.
inline constexpr auto kPowersOf10 = [] {
  std::array<std::uint64_t, 20> p{};
  p[0] = 1;
  for (std::size_t i = 1; i < p.size(); ++i) p[i] = p[i - 1] * 10;
  return p;
}();

// Digits of `v` (> 0) without a loop: its bit length times log10(2) (1233 / 4096) is the digit
// count or one more, which one comparison settles.
inline unsigned decimal_length(std::uint64_t v) {
  unsigned t = static_cast<unsigned>(64 - __builtin_clzll(v)) * 1233 >> 12;
  return t + 1 - (v < kPowersOf10[t]);
}
}  // namespace detail

// `v` in decimal at `p`; returns the end.
inline char* put_decimal(char* p, std::uint64_t v) {
  if (v < 10) {
    *p = static_cast<char>('0' + v);
    return p + 1;
  }
  unsigned n = detail::decimal_length(v);
  char* end = p + n;
  char* q = end;
  // Four digits a step: one 64-bit division, then 32-bit ones for the pairs.
  while (v >= 10000) {
    auto four = static_cast<std::uint32_t>(v % 10000);
    v /= 10000;
    q -= 4;
    detail::put_pair(q, four / 100);
    detail::put_pair(q + 2, four % 100);
  }
  if (v >= 100) {
    q -= 2;
    detail::put_pair(q, static_cast<std::uint32_t>(v % 100));
    v /= 100;
  }
  if (v >= 10) {
    detail::put_pair(q - 2, static_cast<std::uint32_t>(v));
  } else {
    q[-1] = static_cast<char>('0' + v);
  }
  return end;
}

inline char* put_decimal(char* p, std::int64_t v) {
  if (v >= 0) return put_decimal(p, static_cast<std::uint64_t>(v));
  *p = '-';
  return put_decimal(p + 1, ~static_cast<std::uint64_t>(v) + 1);  // also right for INT64_MIN
}

// `v` (below 10^9) as exactly nine digits, zero-padded: the ns of a seconds value.
inline char* put_nine_digits(char* p, std::uint32_t v) {
  if (v < 10000) {  // a traced call's elapsed ns, mostly: five zeros and two pairs
    std::memcpy(p, "00000", 5);
    detail::put_pair(p + 5, v / 100);
    detail::put_pair(p + 7, v % 100);
    return p + 9;
  }
  p[0] = static_cast<char>('0' + v / 100000000);
  v %= 100000000;
  detail::put_pair(p + 1, v / 1000000);
  detail::put_pair(p + 3, v / 10000 % 100);
  detail::put_pair(p + 5, v / 100 % 100);
  detail::put_pair(p + 7, v % 100);
  return p + 9;
}

}  // namespace provio::store
