// API name interning (see api_names.h). A fixed table: there are a few hundred API names in all.
#include "model/api_names.h"

#include <pthread.h>

#include <array>
#include <atomic>
#include <mutex>
#include <string>

namespace provio::model {
namespace {

constexpr std::size_t kMaxApis = 2048;

struct Table {
  std::mutex mutex;
  std::array<std::string, kMaxApis> names;  // slot 0 unused; each written once under mutex
  std::atomic<std::size_t> count{1};
};

Table& table() {
  static Table* t = [] {
    auto* created = new Table;  // never destroyed: exit-time flushes read it
    // A fork child must not inherit the mutex locked by another thread.
    pthread_atfork([] { table().mutex.lock(); }, [] { table().mutex.unlock(); },
                   [] { table().mutex.unlock(); });
    return created;
  }();
  return *t;
}
// Built as the library loads, before the program starts threads: a fork while another thread ran
// the initialiser above would leave the child waiting for it forever (hostile.fork_at_start).
[[maybe_unused]] Table& g_table_at_load = table();

}  // namespace

ApiId api_id(std::string_view name) {
  Table& t = table();
  std::lock_guard<std::mutex> lock(t.mutex);
  std::size_t n = t.count.load(std::memory_order_relaxed);
  for (std::size_t i = 1; i < n; ++i) {
    if (t.names[i] == name) return static_cast<ApiId>(i);
  }
  if (n == kMaxApis) return 0;
  t.names[n] = name;
  t.count.store(n + 1, std::memory_order_release);
  return static_cast<ApiId>(n);
}

std::string_view api_name(ApiId id) {
  Table& t = table();
  if (id == 0 || id >= t.count.load(std::memory_order_acquire)) return "?";
  return t.names[id];
}

}  // namespace provio::model
