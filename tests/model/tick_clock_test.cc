// The call timer shared by the preload shim and the VOL connector (model/tick_clock.h): its start
// times are wall-clock times and its durations cover the call, whether it reads the time-stamp
// counter or the monotonic clock.
#include "model/tick_clock.h"

#include <gtest/gtest.h>
#include <time.h>

namespace provio::model::clock {
namespace {

void sleep_ms(long ms) {
  timespec ts{0, ms * 1000000L};
  nanosleep(&ts, nullptr);
}

// One timed 2 ms sleep: its start lies between the wall-clock times read around it, and its
// duration is at least the sleep and at most the whole bracket.
void expect_timed_sleep(ThreadClock& c) {
  std::uint64_t before = wall_ns(), mono_before = mono_ns();
  CallTimer timer;
  sleep_ms(2);
  Timing t = timer.stop(c);
  std::uint64_t after = wall_ns(), mono_after = mono_ns();
  constexpr std::uint64_t kSlackNs = 200000;  // the counter's scale and base are estimates
  EXPECT_GE(t.start_ns + kSlackNs, before);
  EXPECT_LE(t.start_ns, after + kSlackNs);
  EXPECT_GE(t.elapsed_ns + kSlackNs, 2000000u);
  EXPECT_LE(t.elapsed_ns, mono_after - mono_before + kSlackNs);
}

TEST(TickClock, TimesACallBeforeAndAfterCalibration) {
  start_tick_clock();
  start_tick_clock();  // idempotent
  ThreadClock c = {0, 0, 0, 0, 0, 0};
  expect_timed_sleep(c);  // the first 50 ms: monotonic reads
  sleep_ms(60);
  expect_timed_sleep(c);  // calibrated now, where the counter is usable
  expect_timed_sleep(c);
}

}  // namespace
}  // namespace provio::model::clock
