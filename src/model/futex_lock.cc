// The contended half of FutexLock (see futex_lock.h), as in U. Drepper's "Futexes Are Tricky"
// (mutex 3): a waiter marks the lock contended before it sleeps, so the holder's unlock wakes one.
#include "model/futex_lock.h"

#include <linux/futex.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <atomic>

#include "model/errno_saver.h"

namespace provio::model {
namespace {

int* word(std::atomic<int>& a) {
  static_assert(sizeof(std::atomic<int>) == sizeof(int), "a futex is one int");
  return reinterpret_cast<int*>(&a);
}

}  // namespace

void FutexLock::lock_contended() {
  ErrnoSaver saved;  // a failed or interrupted wait must not change the application's errno
  while (state_.exchange(kContended, std::memory_order_acquire) != kFree) {
    // Sleeps only while the word still says contended; a wake or a signal ends it early.
    syscall(SYS_futex, word(state_), FUTEX_WAIT_PRIVATE, kContended, nullptr, nullptr, 0);
  }
}

void FutexLock::wake_one() {
  ErrnoSaver saved;
  syscall(SYS_futex, word(state_), FUTEX_WAKE_PRIVATE, 1, nullptr, nullptr, 0);
}

}  // namespace provio::model
