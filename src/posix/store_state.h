// libprovio's recording state of the calling thread (store::thread_state()), looked up once per
// thread and kept here.
//
// Hard rule: only the thread itself reads its entry. Why: every recorded call passes it to
// libprovio, and a use of libprovio's own thread-locals costs a __tls_get_addr call (libprovio
// may be dlopen'ed with the VOL plugin), while this initial-exec one (the shim is loaded at
// start-up) is a load.
#pragma once

#include "store/recorder.h"

namespace provio::posix {

inline thread_local store::ThreadState* tls_store_state __attribute__((tls_model("initial-exec"))) = nullptr;

inline store::ThreadState* store_state() {
  store::ThreadState* s = tls_store_state;
  return s ? s : (tls_store_state = store::thread_state());
}

}  // namespace provio::posix
