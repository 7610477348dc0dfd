// One I/O event, as the VOL connector, the preload shim and the public API hand it to the core.
// Plain data, 48 bytes, copied into the thread's buffer as is: nothing in it owns memory.
#pragma once

#include <cstdint>

#include "model/vocabulary.h"

namespace provio::model {

using EntityId = std::uint32_t;  // from model/entities.h; 0 is "no entity"
using ApiId = std::uint16_t;     // from model/api_names.h

inline constexpr EntityId kNoEntity = 0;
inline constexpr std::int64_t kNoOffset = -1;

struct Event {
  Op op = Op::kAccess;
  std::uint8_t flags = kFlagNone;   // EventFlag bits
  ApiId api = 0;                    // the concrete call: H5Dwrite, pwrite, …
  EntityId entity = kNoEntity;      // what the call acted on
  EntityId other = kNoEntity;       // rename/copy/link target: derived from `entity`
  std::uint64_t bytes = 0;          // bytes moved, 0 when the call moves none
  std::int64_t offset = kNoOffset;  // file offset of a positioned transfer (trace level only)
  std::uint64_t start_ns = 0;       // wall clock, ns since the epoch (clock::wall_ns)
  std::uint64_t elapsed_ns = 0;     // duration of the underlying call only
};

}  // namespace provio::model
