// Background writer (see background_writer.h).
#include "store/background_writer.h"

#include <pthread.h>
#include <signal.h>

#include <condition_variable>
#include <deque>
#include <mutex>
#include <thread>

#include "store/thread_log.h"

namespace provio::store {
namespace {

struct Queue {
  std::mutex mutex;
  std::condition_variable work, idle;
  std::deque<ThreadLog*> jobs;  // guarded by mutex
  bool running = false;         // a job is being written; guarded by mutex
  bool started = false;         // the writer thread exists (in this process); guarded by mutex
};

// Never destroyed (exit-time flushes still drain it); replaced in a fork child, whose copy of the
// condition variables may still count the parent's writer thread as a waiter.
Queue* g_queue = new Queue;

Queue& queue() {
  return *g_queue;
}

void writer_loop() {
  Queue& q = queue();
  std::unique_lock<std::mutex> lock(q.mutex);
  while (true) {
    q.work.wait(lock, [&] { return !q.jobs.empty(); });
    ThreadLog* log = q.jobs.front();
    q.jobs.pop_front();
    q.running = true;
    lock.unlock();
    log->write_handed_off();  // the log's last touch of it: its owner may delete it right after
    lock.lock();
    q.running = false;
    if (q.jobs.empty()) q.idle.notify_all();
  }
}

// Starts the writer with every signal blocked, so that the application's handlers never run on
// it. Returns false if no thread can be made (the caller then writes synchronously).
bool start_writer() {
  sigset_t all, old;
  sigfillset(&all);
  pthread_sigmask(SIG_SETMASK, &all, &old);
  bool ok = true;
  try {
    std::thread(writer_loop).detach();
  } catch (...) {
    ok = false;
  }
  pthread_sigmask(SIG_SETMASK, &old, nullptr);
  return ok;
}

}  // namespace

bool submit(ThreadLog* log) {
  Queue& q = queue();
  std::lock_guard<std::mutex> lock(q.mutex);
  if (q.jobs.size() >= kMaxJobs) return false;
  if (!q.started) {
    if (!start_writer()) return false;
    q.started = true;
  }
  q.jobs.push_back(log);
  q.work.notify_one();
  return true;
}

void drain_background() {
  Queue& q = queue();
  std::unique_lock<std::mutex> lock(q.mutex);
  q.idle.wait(lock, [&] { return q.jobs.empty() && !q.running; });
}

void background_fork_prepare() {
  drain_background();
  queue().mutex.lock();
}

void background_fork_parent() {
  queue().mutex.unlock();
}

void background_fork_child() {
  g_queue = new Queue;  // the parent's (locked by prepare) is left as it is
}

}  // namespace provio::store
