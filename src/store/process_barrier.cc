// Process-wide memory barriers (see process_barrier.h).
#include "store/process_barrier.h"

#include <linux/membarrier.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "model/errno_saver.h"

namespace provio::store {

bool register_process_barrier() {
  model::ErrnoSaver saved;
  return syscall(SYS_membarrier, MEMBARRIER_CMD_REGISTER_PRIVATE_EXPEDITED, 0, 0) == 0;
}

bool process_barrier() {
  model::ErrnoSaver saved;
  return syscall(SYS_membarrier, MEMBARRIER_CMD_PRIVATE_EXPEDITED, 0, 0) == 0;
}

}  // namespace provio::store
