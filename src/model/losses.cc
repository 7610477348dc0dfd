// Loss counters (see losses.h).
#include "model/losses.h"

#include <atomic>

namespace provio::model {
namespace {

constexpr int kReasons = static_cast<int>(Loss::kCount_);

// Counted and not yet written, per reason; and counted in all.
std::atomic<std::uint64_t> g_pending[kReasons];
std::atomic<std::uint64_t> g_total[kReasons];
static_assert(std::atomic<std::uint64_t>::is_always_lock_free, "count_loss must be async-signal-safe");

}  // namespace

std::string_view loss_reason(Loss l) {
  switch (l) {
    case Loss::kSignalHandler: return "signal-handler";
    case Loss::kBusy: return "log-busy";
    case Loss::kOutputFailed: return "output-failed";
    case Loss::kFreeSpace: return "free-space-reserve";
    case Loss::kUnresolvedName: return "unresolved-name";
    case Loss::kMemoryLimit: return "memory-limit";
    case Loss::kCount_: break;
  }
  return "unknown";
}

void count_loss(Loss l, std::uint64_t n) noexcept {
  g_pending[static_cast<int>(l)].fetch_add(n, std::memory_order_relaxed);
  g_total[static_cast<int>(l)].fetch_add(n, std::memory_order_relaxed);
}

std::uint64_t losses(Loss l) {
  return g_total[static_cast<int>(l)].load(std::memory_order_relaxed);
}

std::uint64_t take_unwritten_losses(Loss l) {
  std::atomic<std::uint64_t>& pending = g_pending[static_cast<int>(l)];
  // A load first: most flushes have nothing to take, and a load does not own the cache line.
  return pending.load(std::memory_order_relaxed) == 0 ? 0 : pending.exchange(0, std::memory_order_relaxed);
}

}  // namespace provio::model
