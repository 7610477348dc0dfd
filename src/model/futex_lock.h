// A mutex whose uncontended lock and unlock are one atomic instruction each, inline. The entity
// registry takes its lock on every new object a program names; pthread_mutex_lock and _unlock
// were two calls into libc there (~20 instructions and their own code lines per intern). A
// waiter sleeps in the kernel (futex), never spins, so a preempted holder costs no CPU.
// Hard rule: like pthread's default mutex it is not recursive, and a fork child resets it
// (pthread_atfork: the parent takes it before fork, reset_in_child() after), never unlocks it
// for a thread that no longer exists. A signal handler that takes it while its own thread holds
// it waits forever, as it did on the pthread mutex this replaces.
#pragma once

#include <atomic>

namespace provio::model {

class FutexLock {
 public:
  void lock() {
    int expected = kFree;
    if (!state_.compare_exchange_strong(expected, kLocked, std::memory_order_acquire,
                                        std::memory_order_relaxed)) {
      lock_contended();
    }
  }
  void unlock() {
    if (state_.exchange(kFree, std::memory_order_release) == kContended) wake_one();
  }
  // In a fork child, where the thread that took the lock before fork is the only one left.
  void reset_in_child() { state_.store(kFree, std::memory_order_relaxed); }

 private:
  static constexpr int kFree = 0;
  static constexpr int kLocked = 1;
  static constexpr int kContended = 2;  // locked, and a thread may be waiting in the kernel

  void lock_contended();  // out of line: the syscalls stay off the inline path
  void wake_one();

  std::atomic<int> state_{kFree};
};

}  // namespace provio::model
