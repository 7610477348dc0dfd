// The memory bound's counter (see memory_budget.h).
#include "store/memory_budget.h"

#include <algorithm>
#include <atomic>

#include "model/config.h"

namespace provio::store {
namespace {

std::atomic<std::size_t> g_memory{0};

}  // namespace

bool reserve_memory(std::size_t bytes) {
  std::size_t limit = model::config().memory_limit;
  std::size_t used = g_memory.load(std::memory_order_relaxed);
  do {
    if (used + bytes > limit) return false;
  } while (!g_memory.compare_exchange_weak(used, used + bytes, std::memory_order_relaxed));
  return true;
}

void take_memory(std::size_t bytes) {
  g_memory.fetch_add(bytes, std::memory_order_relaxed);
}

void release_memory(std::size_t bytes) {
  std::size_t used = g_memory.load(std::memory_order_relaxed);
  while (!g_memory.compare_exchange_weak(used, used - std::min(used, bytes), std::memory_order_relaxed)) {
  }
}

std::size_t memory_in_use() {
  return g_memory.load(std::memory_order_relaxed);
}

void reset_memory() {
  g_memory.store(0, std::memory_order_relaxed);
}

}  // namespace provio::store
