// Whether the calling thread is inside a store operation that a signal handler on the same thread
// must not wait for: flushing logs from outside (flush_all, process exit, a fatal signal) holds
// the log registry and marks each log as being flushed. A handler that interrupts that thread and
// records would wait for its own thread forever, so it drops its event and counts it instead
// (store/incomplete.h).
#pragma once

namespace provio::store {

inline thread_local bool tls_flushing_outside = false;

class FlushingOutside {
 public:
  FlushingOutside() : was_(tls_flushing_outside) { tls_flushing_outside = true; }
  ~FlushingOutside() { tls_flushing_outside = was_; }
  FlushingOutside(const FlushingOutside&) = delete;
  FlushingOutside& operator=(const FlushingOutside&) = delete;

 private:
  bool was_;
};

}  // namespace provio::store
