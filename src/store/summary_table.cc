// The activity table (see summary_table.h).
#include "store/summary_table.h"

#include <algorithm>
#include <atomic>
#include <iterator>
#include <new>

#include "model/config.h"
#include "model/entities.h"
#include "model/log.h"
#include "store/incomplete.h"
#include "store/memory_budget.h"

namespace provio::store {
namespace {

std::atomic<bool> g_memory_limit_warned{false};  // the warning that comes with Loss::kMemoryLimit

static_assert(offsetof(SummarySlot, op) == offsetof(model::Event, op) &&
                  offsetof(SummarySlot, flags) == offsetof(model::Event, flags) &&
                  offsetof(SummarySlot, api) == offsetof(model::Event, api) &&
                  offsetof(SummarySlot, entity) == offsetof(model::Event, entity) &&
                  offsetof(SummarySlot, other) == offsetof(model::Event, other) &&
                  offsetof(model::Event, other) == 8,
              "a summary key is compared as the first 12 bytes of both");

std::size_t round_up_pow2(std::size_t n) {
  std::size_t p = 16;
  while (p < n) p <<= 1;
  return p;
}

// An event's key (bytes 0–11: operation, flags, API, entity, other entity) and the task hashed to
// the 32 bits an index entry keeps above its slot number. The index compares them before reading a slot, and
// places an entry by their low bits (entry_home), so that growing moves entries without reading
// slots or hashing again. Multiplicative: a product's high bits are its well-mixed ones, and
// entities numbered in a row (as interning numbers them) get distinct low bits of these.
inline std::uint64_t key_tag(const model::Event& ev, std::uint64_t task) {
  std::uint64_t a;
  std::uint32_t b;
  std::memcpy(&a, &ev, 8);
  std::memcpy(&b, reinterpret_cast<const char*>(&ev) + 8, 4);
  return (a * 0x9E3779B97F4A7C15ull ^ b * 0xBF58476D1CE4E5B9ull ^ task * 0x94D049BB133111EBull) &
         ~std::uint64_t{0xFFFFFFFF};
}

// An index entry's first probe position in an index of mask + 1 entries.
inline std::size_t entry_home(std::uint64_t entry, std::size_t mask) {
  return static_cast<std::size_t>(entry >> 32) & mask;
}

}  // namespace

void SummaryTable::allocate(std::size_t capacity) {
  std::size_t n = round_up_pow2(capacity);
  pending_.reset(new model::Event[kPending]);
  while ((std::size_t{8} << chunk_shift_) < n) ++chunk_shift_;  // chunks of n / 8 slots
  if (!allocate_index(n)) throw std::bad_alloc();               // as new[] would
}

std::uint64_t SummaryTable::held_calls() const {
  std::uint64_t n = pending_used_;
  for (std::size_t k = 0; k < dirty_used_; ++k) n += dirty_[k]->count;  // calls since the last flush
  return n;
}

void SummaryTable::add_pending(void (*full)(void*), void* context) {
  // Taken at once: `full` writes what the table holds, and these events are then added to the
  // emptied table, as they would have been one by one.
  std::size_t n = pending_used_;
  pending_used_ = 0;
  // Every event's first index entry is requested before the first is used, so that their misses
  // overlap each other and the work on the events before them (a batch is 4 KiB of index lines
  // at most, in a 32 KiB L1).
  std::uint64_t tags[kPending];
  for (std::size_t k = 0; k < n; ++k) {
    tags[k] = key_tag(pending_[k], task_);
    __builtin_prefetch(&index_[entry_home(tags[k], slot_mask_)]);
  }
  for (std::size_t k = 0; k < n; ++k) {
    while (!add_new_key(pending_[k], tags[k])) full(context);  // an empty table has room
  }
}

// Inline in add_pending's loop: its one caller, once per new key.
[[gnu::always_inline]] inline bool SummaryTable::add_new_key(const model::Event& ev, std::uint64_t tag) {
  SummarySlot*& recent = recent_[recent_index(ev)];
  bool added = false;
  SummarySlot* s = find_or_add(ev, tag, fine_limit_, added);
  if (!s && grow()) s = find_or_add(ev, tag, fine_limit_, added);
  if (s) {  // a coarse slot (below) never has an event's own key: not kept
    recent = s;
  } else {
    // Degrade: an object's call is recorded on its file, a file's on no entity, in one coarse
    // activity per (API, operation, file), so the table keeps room while the program meets ever
    // more objects. Counts and bytes stay exact; which objects is what is lost, and said so.
    model::Event coarse = ev;
    model::EntityId file = model::file_of(ev.entity);
    coarse.entity = file != ev.entity ? file : model::kNoEntity;
    coarse.other = model::kNoEntity;
    coarse.flags = static_cast<std::uint8_t>(ev.flags | model::kFlagCoarse);
    s = find_or_add(coarse, key_tag(coarse, task_), slots_limit_, added);
    if (!s) return false;
    count_loss(Loss::kMemoryLimit);
    if (!g_memory_limit_warned.exchange(true, std::memory_order_relaxed)) {  // warn_once locks
      model::warn_once("summary-memory-limit",
                       "memory limit PROVIO_MEMORY=%zu reached: calls on new objects are recorded on "
                       "their file only (provio:incomplete \"memory-limit\")",
                       model::config().memory_limit);
    }
  }
  if (!added) add(*s, ev);
  return true;
}

inline SummarySlot* SummaryTable::find_or_add(const model::Event& key, std::uint64_t tag, std::size_t limit,
                                              bool& added) {
  for (std::size_t i = entry_home(tag, slot_mask_);; i = (i + 1) & slot_mask_) {
    std::uint64_t entry = index_[i];
    if (entry == 0) {
      if (slots_used_ >= limit) return nullptr;
      // Written once with the event's measures: most metadata calls make a new slot.
      SummarySlot& s = slot(slots_used_);
      dirty_[dirty_used_++] = &s;
      // Field by field: a metadata slot's access sizes stay unwritten.
      s.op = key.op;
      s.flags = key.flags;
      s.api = key.api;
      s.entity = key.entity;
      s.other = key.other;
      s.described = false;
      s.task = task_;
      s.count = 1;
      s.bytes = key.bytes;
      s.elapsed_ns = key.elapsed_ns;
      s.first_start_ns = key.start_ns;
      s.last_end_ns = key.start_ns + key.elapsed_ns;
      s.run_bytes = key.bytes;
      s.run_from = 0;
      if (keeps_sizes(key.op)) std::fill(std::begin(s.sizes), std::end(s.sizes), 0);
      index_[i] = tag | ++slots_used_;
      added = true;
      return &s;
    }
    if ((entry & ~std::uint64_t{0xFFFFFFFF}) == tag) {
      SummarySlot& s = slot((entry & 0xFFFFFFFF) - 1);
      if (has_key(&s, key) && s.task == task_) return &s;
    }
  }
}

void SummaryTable::start_run(SummarySlot& s, std::uint64_t bytes) {
  // A bucket that wraps makes the buckets' sum differ from the count: the sizes are then left out.
  if (keeps_sizes(s.op))
    s.sizes[model::size_bucket(s.run_bytes)] += static_cast<std::uint32_t>(s.count - s.run_from);
  s.run_bytes = bytes;
  s.run_from = s.count;
}

std::array<std::uint64_t, model::kSizeBuckets> sizes_of(const SummarySlot& s) {
  std::array<std::uint64_t, model::kSizeBuckets> out{};
  for (std::size_t b = 0; b < out.size(); ++b) out[b] = s.sizes[b];
  out[model::size_bucket(s.run_bytes)] += s.count - s.run_from;
  return out;
}

bool SummaryTable::allocate_index(std::size_t n) {
  std::size_t limit = n - n / 8;  // a multiple of the chunk size (n / 8 at first, then more)
  std::unique_ptr<std::uint64_t[]> index(new (std::nothrow) std::uint64_t[n]());
  std::unique_ptr<SummarySlot*[]> dirty(new (std::nothrow) SummarySlot*[limit]);
  if (!index || !dirty) return false;
  if (slot_chunks_.size() < limit >> chunk_shift_) {
    try {
      slot_chunks_.resize(limit >> chunk_shift_);
    } catch (const std::bad_alloc&) {
      return false;
    }
  }
  // The chunks that hold slots up to the new limit; those that exist stay where they are. Slots
  // are written before they are read: no need to clear them. A chunk made before a later one
  // fails stays, for the next attempt.
  for (std::size_t c = 0; c < limit >> chunk_shift_; ++c) {
    if (!slot_chunks_[c])
      slot_chunks_[c].reset(new (std::nothrow) SummarySlot[std::size_t{1} << chunk_shift_]);
    if (!slot_chunks_[c]) return false;
  }
  if (dirty_used_) std::memcpy(dirty.get(), dirty_.get(), dirty_used_ * sizeof(SummarySlot*));
  index_.swap(index);
  dirty_.swap(dirty);
  slot_mask_ = n - 1;
  fine_limit_ = n - n / 4;
  slots_limit_ = limit;
  return true;
}

bool SummaryTable::grow() {
  std::size_t n = slot_mask_ + 1, m = 2 * n;
  // An index entry holds a slot number in 32 bits; PROVIO_MEMORY bounds the table long before.
  if (m > (std::size_t{1} << 31) || !reserve_memory(bytes(m) - bytes(n))) return false;
  std::unique_ptr<std::uint64_t[]> old(index_.release());
  if (!allocate_index(m)) {  // the reservation stays: this table keeps its claim
    index_.reset(old.release());
    return false;
  }
  // No slot moved (nor recent_ and dirty_, which point at them). Only the index is rebuilt, from
  // the old one: its entries carry their positions (entry_home).
  for (std::size_t k = 0; k < n; ++k) {
    std::uint64_t entry = old[k];
    if (entry == 0) continue;
    std::size_t i = entry_home(entry, slot_mask_);
    while (index_[i] != 0) i = (i + 1) & slot_mask_;
    index_[i] = entry;
  }
  return true;
}

void SummaryTable::clear() {
  std::memset(index_.get(), 0, (slot_mask_ + 1) * sizeof(std::uint64_t));
  slots_used_ = 0;
  dirty_used_ = 0;
  std::fill(std::begin(recent_), std::end(recent_), nullptr);
}

}  // namespace provio::store
