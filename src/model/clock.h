// Clocks for events. Both read the vDSO (no syscall on Linux/x86-64 and aarch64).
// Start times are wall clock (they become xsd:dateTime); durations are monotonic, so a clock
// step during a call cannot make it negative.
#pragma once

#include <time.h>

#include <cstdint>

namespace provio::model::clock {

inline std::uint64_t read(clockid_t id) {
  timespec ts;
  clock_gettime(id, &ts);
  return static_cast<std::uint64_t>(ts.tv_sec) * 1000000000u + static_cast<std::uint64_t>(ts.tv_nsec);
}
inline std::uint64_t wall_ns() {
  return read(CLOCK_REALTIME);
}
inline std::uint64_t mono_ns() {
  return read(CLOCK_MONOTONIC);
}

// Times one underlying call: start it before, read elapsed after.
class Stopwatch {
 public:
  Stopwatch() : wall_(wall_ns()), mono_(mono_ns()) {}
  std::uint64_t start_wall_ns() const { return wall_; }
  std::uint64_t elapsed_ns() const { return mono_ns() - mono_; }

 private:
  std::uint64_t wall_;
  std::uint64_t mono_;
};

}  // namespace provio::model::clock
