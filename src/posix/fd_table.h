// Which file each open descriptor names, for the wrappers of calls that only get a descriptor
// (read, write, fsync, …) or a FILE* (through fileno).
//
// Hard rule: lookups are lock-free and allocation-free. Descriptors below kDirect live in a fixed
// array of atomics indexed by the descriptor; the rare larger ones in a mutex-guarded map.
//
// A slot holds an entity id (with the kUsed bit), kIgnored (a pipe, socket, excluded path, …) or kUnknown
// (never seen: a descriptor inherited from the parent or opened by a call the shim does not wrap). Unknown
// slots are resolved on first use through /proc/self/fd (paths.h). The table survives dup, dup2,
// dup3 and fcntl(F_DUPFD*) (the wrappers copy the slot, and the version it reads: versions.h) and
// fork (the child inherits the same open files, so it keeps the table; only the overflow lock is
// re-made). exec starts a new image with an empty table: inherited descriptors are resolved again
// on first use, and read as the version the file holds then.
#pragma once

#include <atomic>
#include <cstdint>

#include "model/event.h"

namespace provio::posix {

inline constexpr std::uint32_t kUnknown = 0;            // == model::kNoEntity
inline constexpr std::uint32_t kIgnored = 0xFFFFFFFFu;  // not a tracked file
// Set beside the entity once this image opened the descriptor or moved data through it. Flushes,
// closes, seeks and fstats of a descriptor that was only inherited (a program's stdout, which
// stdio flushes and closes at exit) are not provenance and are not recorded.
inline constexpr std::uint32_t kUsed = 1u << 30;
// Set once data was written through the descriptor (or it was opened truncating): its close ends
// a write epoch and names the version it leaves (posix/versions.h).
inline constexpr std::uint32_t kWritten = 1u << 29;
// Set once the version the descriptor reads is recorded (at its first read).
inline constexpr std::uint32_t kVersionKnown = 1u << 28;
// Set on both descriptors of a dup: closing one copy of a written file while another is still
// open and written does not end the write epoch (versions.h).
inline constexpr std::uint32_t kDuplicated = 1u << 27;
inline constexpr std::uint32_t kSlotFlags =
    kUsed | kWritten | kVersionKnown | kDuplicated;  // entity ids stay below 2^24

// The entity in a slot value (kNoEntity for kUnknown and kIgnored).
constexpr std::uint32_t slot_entity(std::uint32_t v) {
  return v == kIgnored ? 0 : v & ~kSlotFlags;
}
constexpr bool slot_used(std::uint32_t v) {
  return v != kIgnored && (v & kUsed) != 0;
}

class FdTable {
 public:
  static constexpr int kDirect = 1 << 16;

  // Inline: every recorded transfer reads its descriptor's slot.
  std::uint32_t get(int fd) const {
    if (fd >= 0 && fd < kDirect) return direct_[fd].load(std::memory_order_relaxed);
    return get_overflow(fd);
  }
  void set(int fd, std::uint32_t value) {
    if (fd >= 0 && fd < kDirect) {
      direct_[fd].store(value, std::memory_order_relaxed);
      if (fd >= direct_end_.load(std::memory_order_relaxed)) raise_direct_end(fd + 1);
    } else {
      set_overflow(fd, value);
    }
  }
  // One past the highest direct slot ever set: what a scan of every descriptor needs to read
  // (versions at exit), instead of all kDirect slots, 256 KiB, in every process that wrote.
  int direct_end() const { return direct_end_.load(std::memory_order_relaxed); }
  // Forgets a descriptor (every close). Not through set(): a slot past direct_end() is kUnknown
  // already, so forgetting never raises it, and every close then skips its load.
  void clear(int fd) {
    if (fd >= 0 && fd < kDirect)
      direct_[fd].store(kUnknown, std::memory_order_relaxed);
    else
      set_overflow(fd, kUnknown);
  }
  // close_range / closefrom: forget [first, last].
  void clear_range(unsigned first, unsigned last);

  // pthread_atfork handlers for the overflow lock.
  static void lock_for_fork();
  static void unlock_after_fork();

 private:
  std::uint32_t get_overflow(int fd) const;
  void set_overflow(int fd, std::uint32_t value);
  static void raise_direct_end(int end);
  // Zero-initialised .bss (256 KiB of address space, touched only where descriptors are used).
  static std::atomic<std::uint32_t> direct_[kDirect];
  static std::atomic<int> direct_end_;
};

inline FdTable& fd_table() {
  static FdTable t;  // stateless (the slots are static members): no guard, no constructor
  return t;
}

}  // namespace provio::posix
