// Free-space check (see free_space.h). One fstatfs per write: writes happen per flush, not per
// recorded call.
#include "store/free_space.h"

#include <sys/statfs.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <cstdint>

namespace provio::store {

bool leaves_reserve(int fd, std::size_t bytes, std::size_t reserve) {
  if (reserve == 0) return true;
  struct statfs fs;
  if (syscall(SYS_fstatfs, fd, &fs) != 0) return true;
  unsigned __int128 available =
      static_cast<unsigned __int128>(fs.f_bavail) * static_cast<std::uint64_t>(fs.f_bsize);
  return available >= static_cast<unsigned __int128>(bytes) + reserve;
}

}  // namespace provio::store
