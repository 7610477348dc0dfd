// FutexLock: mutual exclusion under contention, and waiters woken (a lost wake-up hangs the test).
#include "model/futex_lock.h"

#include <gtest/gtest.h>

#include <mutex>
#include <thread>
#include <vector>

namespace provio::model {
namespace {

TEST(FutexLock, ExcludesAndWakesUnderContention) {
  FutexLock lock;
  long counter = 0;  // a plain int: a lost update shows a broken lock (and TSan a race)
  std::vector<std::thread> threads;
  for (int t = 0; t < 4; ++t) {
    threads.emplace_back([&] {
      for (int i = 0; i < 20000; ++i) {
        std::lock_guard<FutexLock> hold(lock);
        long seen = counter;
        if (i % 1000 == 0) std::this_thread::yield();  // hold it while others queue in the kernel
        counter = seen + 1;
      }
    });
  }
  for (auto& th : threads) th.join();
  EXPECT_EQ(counter, 4 * 20000);
}

}  // namespace
}  // namespace provio::model
