// Descriptor table (see fd_table.h).
#include "posix/fd_table.h"

#include <atomic>
#include <mutex>
#include <unordered_map>

namespace provio::posix {
namespace {

struct Overflow {
  std::mutex mutex;
  std::unordered_map<int, std::uint32_t> map;  // guarded by mutex
};

Overflow& overflow() {
  static Overflow* o = new Overflow;  // never destroyed: descriptors are used during exit
  return *o;
}
// Built as the library loads, before the program starts threads: a fork while another thread ran
// the initialiser above would leave the child waiting for it forever (hostile.fork_at_start).
[[maybe_unused]] Overflow& g_overflow_at_load = overflow();

}  // namespace

std::atomic<std::uint32_t> FdTable::direct_[FdTable::kDirect];
std::atomic<int> FdTable::direct_end_{0};

void FdTable::raise_direct_end(int end) {
  int seen = direct_end_.load(std::memory_order_relaxed);
  while (seen < end && !direct_end_.compare_exchange_weak(seen, end, std::memory_order_relaxed)) {
  }
}

std::uint32_t FdTable::get_overflow(int fd) const {
  if (fd < 0) return kIgnored;
  Overflow& o = overflow();
  std::lock_guard<std::mutex> lock(o.mutex);
  auto it = o.map.find(fd);
  return it == o.map.end() ? kUnknown : it->second;
}

void FdTable::set_overflow(int fd, std::uint32_t value) {
  if (fd < 0) return;
  Overflow& o = overflow();
  std::lock_guard<std::mutex> lock(o.mutex);
  if (value == kUnknown)
    o.map.erase(fd);
  else
    o.map[fd] = value;
}

void FdTable::clear_range(unsigned first, unsigned last) {
  for (unsigned fd = first; fd <= last && fd < static_cast<unsigned>(kDirect); ++fd) {
    direct_[fd].store(kUnknown, std::memory_order_relaxed);
  }
  if (last < static_cast<unsigned>(kDirect)) return;
  Overflow& o = overflow();
  std::lock_guard<std::mutex> lock(o.mutex);
  for (auto it = o.map.begin(); it != o.map.end();) {
    unsigned fd = static_cast<unsigned>(it->first);
    it = (fd >= first && fd <= last) ? o.map.erase(it) : std::next(it);
  }
}

void FdTable::lock_for_fork() {
  overflow().mutex.lock();
}
void FdTable::unlock_after_fork() {
  overflow().mutex.unlock();
}

}  // namespace provio::posix
