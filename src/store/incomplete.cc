// Loss counters and their statements (see incomplete.h).
#include "store/incomplete.h"

#include <atomic>

#include "store/turtle.h"

namespace provio::store {
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

void append_losses(std::string& out, const std::string& exec_iri, const std::string& node_base) {
  for (int i = 0; i < kReasons; ++i) {
    if (g_pending[i].load(std::memory_order_relaxed) == 0) continue;
    std::uint64_t n = g_pending[i].exchange(0, std::memory_order_relaxed);
    if (n == 0) continue;
    std::string_view reason = loss_reason(static_cast<Loss>(i));
    std::string node = node_base + "/" + std::string(reason);
    Turtle(out).iri(exec_iri).name("provio:incomplete").iri(node).end();
    Turtle(out).iri(node).name("rdf:type").name("provio:Incomplete").end();
    Turtle(out).iri(node).name("provio:reason").str(reason).end();
    Turtle(out).iri(node).name("provio:lost").u64(n).end();
  }
}

}  // namespace provio::store
