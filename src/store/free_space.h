// The free-space reserve: provio's output must never be what fills the file system the
// application writes its data to (a small scratch quota, a tmpfs). Before each write the file
// system of the output file must keep PROVIO_RESERVE bytes free after it (docs/configuration.md);
// below that provio stops writing, warns once and marks the record incomplete.
#pragma once

#include <cstddef>

namespace provio::store {

// Whether writing `bytes` through `fd` leaves at least `reserve` bytes available to unprivileged
// writers on its file system. true when the file system cannot say (fstatfs fails).
bool leaves_reserve(int fd, std::size_t bytes, std::size_t reserve);

}  // namespace provio::store
