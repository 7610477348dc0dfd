// A process-wide immutable value published through an atomic pointer: made on first use,
// replaced whole when it changes (configuration reload, MPI rank known, fork child). Readers on
// any thread — flushes at exit included — read it without a lock. Replaced values are leaked on
// purpose: a reader may still hold a reference, and there are a handful per process at most.
#pragma once

#include <atomic>
#include <mutex>
#include <new>

namespace provio::model {

template <typename T>
class Snapshot {
 public:
  // The current value; `make()` (returning a new T*) builds it on first use.
  template <typename Make>
  const T& get(Make&& make) {
    if (T* v = value_.load(std::memory_order_acquire)) return *v;
    std::lock_guard<std::mutex> lock(mutex_);
    T* v = value_.load(std::memory_order_relaxed);
    if (!v) {
      v = make();
      value_.store(v, std::memory_order_release);
    }
    return *v;
  }

  // The current value, or nullptr before the first get(): the lock-free part of get(), for
  // callers that inline it.
  const T* peek() const { return value_.load(std::memory_order_acquire); }

  // Publishes `next(current)` (a new T*) in place of the current value, made first if needed.
  template <typename Make, typename Next>
  void update(Make&& make, Next&& next) {
    get(make);
    std::lock_guard<std::mutex> lock(mutex_);
    T* replacement = next(*value_.load(std::memory_order_relaxed));
    if (replacement) value_.store(replacement, std::memory_order_release);
  }

  // In a fork child only: the mutex may have been copied locked by a thread that is gone.
  T* current_in_fork_child() const { return value_.load(std::memory_order_relaxed); }
  void replace_in_fork_child(T* next) {
    new (&mutex_) std::mutex;
    value_.store(next, std::memory_order_release);
  }

 private:
  std::atomic<T*> value_{nullptr};
  std::mutex mutex_;
};

}  // namespace provio::model
