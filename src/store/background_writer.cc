// Background writer (see background_writer.h).
#include "store/background_writer.h"

#include <pthread.h>
#include <signal.h>

#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <deque>
#include <mutex>
#include <thread>

namespace provio::store {
namespace {

constexpr std::chrono::seconds kStartPatience{1};  // submit()'s wait for a new writer

thread_local bool t_writer = false;  // this thread is the writer

struct Queue {
  std::mutex mutex;
  std::condition_variable idle;   // no job queued or running
  std::condition_variable taken;  // a writer took a job from the queue (taken_count grew)
  std::deque<HandOff> jobs;       // guarded by mutex
  bool running = false;           // a job is being written; guarded by mutex
  bool started = false;           // a writer thread serves the queue (in this process); guarded by mutex
  std::uint64_t taken_count = 0;  // jobs taken from the queue so far; guarded by mutex
};

// Never destroyed (exit-time flushes still drain it); replaced in a fork child, whose copy of the
// condition variables may still count the parent's writer thread as a waiter.
Queue* g_queue = new Queue;

Queue& queue() {
  return *g_queue;
}

// Writes the queued jobs, then ends: the next submit() starts a writer again. Why not wait for
// more work: while a second thread exists, every system call of a program that has only one of
// its own pays for sharing its descriptor table (the kernel takes a reference and the file
// position lock per read or write, glibc its cancellation bookkeeping): +375 cycles per 1-byte
// write here, natively, with one idle thread beside it (CHANGELOG.md, issue 11 fifth
// pass). A thread per full trace buffer (8,192 calls) costs far less than that.
void writer_loop() {
  t_writer = true;
  Queue& q = queue();
  std::unique_lock<std::mutex> lock(q.mutex);
  while (!q.jobs.empty()) {
    HandOff job = q.jobs.front();
    q.jobs.pop_front();
    q.running = true;
    ++q.taken_count;
    q.taken.notify_all();
    lock.unlock();
    job.write(job.owner);  // the last touch of the owner: it may be deleted right after
    lock.lock();
    q.running = false;
  }
  q.started = false;
  q.idle.notify_all();
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

bool submit(HandOff job) {
  Queue& q = queue();
  std::unique_lock<std::mutex> lock(q.mutex);
  if (q.jobs.size() >= kMaxJobs) return false;
  if (q.started) {
    q.jobs.push_back(job);
    return true;
  }
  if (!start_writer()) return false;
  q.started = true;
  q.jobs.push_back(job);
  // Until the new thread has taken the buffer, this one records nothing more. Why: a new thread
  // waits longer for a CPU than a woken one, and a process killed meanwhile would lose the
  // buffer in flight and the calls recorded after it, more than the one buffer a kill may cost
  // (hostile.crash_consistency, under load). Blocked here, this thread also leaves its CPU to the
  // writer. Bounded, as every wait inside the application: a writer that cannot be scheduled
  // for a whole second still gets the buffer, and this thread goes on.
  std::uint64_t ticket = q.taken_count + q.jobs.size();  // taken once taken_count reaches it
  q.taken.wait_for(lock, kStartPatience, [&] { return q.taken_count >= ticket; });
  return true;
}

bool on_background_writer() {
  return t_writer;
}

void drain_background() {
  Queue& q = queue();
  std::unique_lock<std::mutex> lock(q.mutex);
  q.idle.wait(lock, [&] { return q.jobs.empty() && !q.running; });
}

bool drain_background_within(long patience_ms) {
  auto give_up = std::chrono::steady_clock::now() + std::chrono::milliseconds(patience_ms);
  Queue& q = queue();
  std::unique_lock<std::mutex> lock(q.mutex, std::defer_lock);
  while (!lock.try_lock()) {
    if (std::chrono::steady_clock::now() > give_up) return false;
    std::this_thread::yield();
  }
  return q.idle.wait_until(lock, give_up, [&] { return q.jobs.empty() && !q.running; });
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
