// Process lifecycle of the per-thread logs: creation on a thread's first event, flush at thread
// exit, at process exit (atexit) and before fork; fresh state in a fork child.
//
// The registry of live logs is guarded by a mutex that only slow paths take (thread start and
// exit, process exit, fork). The recording path reads one thread_local pointer.
#include "store/recorder.h"

#include <pthread.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <mutex>
#include <vector>

#include "model/entities.h"
#include "model/identity.h"
#include "model/log.h"
#include "store/background_writer.h"
#include "store/incomplete.h"
#include "store/memory_budget.h"
#include "store/reentry.h"
#include "store/thread_log.h"

namespace provio::store {

// The calling thread's recording state (recorder.h) is one thread-local, so that recording an
// event costs one TLS lookup (libprovio may be loaded by dlopen, with the VOL plugin: its TLS is
// reached through __tls_get_addr), or none for a caller that keeps its address (thread_state()).
namespace {

thread_local ThreadState tls;

constexpr std::size_t kMinCapacity = 64;
constexpr std::uint64_t kExitPatienceNs = 100'000'000;  // wait for a busy thread at exit
constexpr long kDrainMs = 5000;                         // wait for the writer thread (it takes milliseconds)

struct Registry {
  std::mutex mutex;
  std::vector<ThreadLog*> logs;      // guarded by mutex
  unsigned next_thread_index = 0;    // guarded by mutex
  bool exit_hook_installed = false;  // guarded by mutex
};

void on_fork_prepare();
void on_fork_parent();
void on_fork_child();

Registry& registry() {
  static Registry* r = [] {
    auto* created = new Registry;  // never destroyed: thread exits may follow static teardown
    // Before any thread can hold the mutex: a fork child must never inherit it locked.
    pthread_atfork(on_fork_prepare, on_fork_parent, on_fork_child);
    return created;
  }();
  return *r;
}
// Built as the library loads, before the program starts threads: a fork while another thread ran
// the initialiser above would leave the child waiting for it forever (hostile.fork_at_start).
[[maybe_unused]] Registry& g_registry_at_load = registry();

void on_process_exit();

// Owns the calling thread's log; its destructor runs at thread exit.
struct ThreadOwner {
  ThreadLog* log = nullptr;
  ~ThreadOwner();
};
thread_local ThreadOwner tls_owner;

using detail::g_level;

model::Level level() {
  std::uint8_t l = g_level.load(std::memory_order_relaxed);
  if (l == 0) {
    l = static_cast<std::uint8_t>(model::config().level) + 1;
    g_level.store(l, std::memory_order_relaxed);
  }
  return static_cast<model::Level>(l - 1);
}

ThreadLog* attach_thread() {
  if (tls.detached) return nullptr;
  model::Level lvl = level();
  if (lvl == model::Level::kOff) return nullptr;
  const model::Config& cfg = model::config();
  model::identity();  // read the identity now, off any flush path
  Registry& r = registry();
  pid_t tid = static_cast<pid_t>(syscall(SYS_gettid));
  ThreadLog* log = nullptr;
  {
    std::lock_guard<std::mutex> lock(r.mutex);
    if (!r.exit_hook_installed) {
      r.exit_hook_installed = true;
      std::atexit(on_process_exit);
    }
    std::size_t capacity = lvl == model::Level::kTrace ? cfg.trace_events : cfg.summary_slots;
    // A trace log has two buffers (one may be with the background writer).
    std::size_t table =
        lvl == model::Level::kTrace ? capacity * 2 * sizeof(model::Event) : SummaryTable::bytes(capacity);
    if (memory_in_use() + table + ThreadLog::kWriteChunk > cfg.memory_limit) {
      // Degrade, never stop: a small summary table (coarser records, more frequent flushes).
      model::warn_once("memory-limit",
                       "memory limit PROVIO_MEMORY=%zu reached with %zu threads: new threads get "
                       "small summary buffers",
                       cfg.memory_limit, r.logs.size());
      lvl = model::Level::kSummary;
      capacity = kMinCapacity;
    }
    log = new ThreadLog(lvl, capacity, r.next_thread_index++, tid);
    take_memory(log->memory_bytes());
    r.logs.push_back(log);
  }
  tls.log = log;
  tls_owner.log = log;  // registers the thread-exit destructor
  return log;
}

void destroy(ThreadLog* log) {
  Registry& r = registry();
  std::lock_guard<std::mutex> lock(r.mutex);
  auto it = std::find(r.logs.begin(), r.logs.end(), log);
  if (it == r.logs.end()) return;
  release_memory(log->memory_bytes());
  r.logs.erase(it);
  delete log;
}

ThreadOwner::~ThreadOwner() {
  if (!log) return;
  log->flush_now();
  // The main thread's TLS dies inside exit(), before atexit handlers that may still do I/O
  // (HDF5 closing files): keep its log registered; the exit handler flushes it again.
  if (syscall(SYS_gettid) == getpid()) return;
  tls.log = nullptr;
  tls.detached = true;
  destroy(log);
  log = nullptr;
}

void flush_every_log(bool closing) {
  FlushingOutside here;
  Registry& r = registry();
  // Held while flushing: a thread that is exiting meanwhile (its log flushed and deleted by
  // destroy()) must wait, or this loop would flush a deleted log. Python's Thread.join() returns
  // before the OS thread has run its thread-exit destructors, so exit handlers meet this race.
  std::lock_guard<std::mutex> lock(r.mutex);
  const std::vector<ThreadLog*>& logs = r.logs;
  ThreadLog* own = tls.log;
  bool closed = false;
  for (ThreadLog* log : logs) {
    // The end time goes into one file: this thread's if it has one, else the first.
    bool close_here = closing && !closed && (log == own || own == nullptr);
    if (log->flush_from_outside(kExitPatienceNs, close_here) && close_here) closed = true;
  }
}

void on_process_exit() {
  flush_at_process_end();
}

void on_fork_prepare() {
  if (tls.log) tls.log->flush_now();
  background_fork_prepare();
  registry().mutex.lock();
}

void on_fork_parent() {
  registry().mutex.unlock();
  background_fork_parent();
}

void on_fork_child() {
  Registry& r = registry();
  // Only this thread exists now. The parent's logs and their descriptors stay the parent's: drop
  // our copies without writing, and start a new program execution with fresh files.
  for (ThreadLog* log : r.logs) {
    log->abandon();
    delete log;
  }
  r.logs.clear();
  reset_memory();
  r.next_thread_index = 0;
  r.mutex.unlock();
  background_fork_child();
  tls.log = nullptr;
  tls_owner.log = nullptr;
  model::renew_identity_after_fork();
}

// The calling thread's log, created on its first event; nullptr when recording is off.
inline ThreadLog* current_log() {
  if (ThreadLog* log = tls.log) return log;
  if (g_level.load(std::memory_order_relaxed) == 1) return nullptr;  // off
  if (tls_flushing_outside) {  // a signal handler: this thread holds the registry
    count_loss(Loss::kSignalHandler);
    return nullptr;
  }
  return attach_thread();
}

}  // namespace

void record(const model::Event& ev) {
  if (ev.entity == model::kNoEntity) return;
  if (ThreadLog* log = current_log()) log->record(ev);
}

void record(const Record& r) {
  if (ThreadLog* log = current_log()) log->record(r);
}

ThreadState* thread_state() {
  return &tls;
}

void record_as_owner(ThreadState* state, const model::Event& ev) {
  if (ev.entity == model::kNoEntity) return;
  if (ThreadLog* log = state->log ? state->log : current_log()) log->record(ev);
}

namespace detail {
std::atomic<std::uint8_t> g_level{0};
bool read_level_enabled() {
  return level() != model::Level::kOff;
}
}  // namespace detail

void apply_overrides(std::vector<std::pair<std::string, std::string>> settings) {
  model::set_overrides(std::move(settings));
  g_level.store(0, std::memory_order_relaxed);  // re-read on the next thread's first event
}

void flush_all() {
  flush_every_log(false);
}

void flush_all_to_files() {
  flush_all();
  drain_background_within(kDrainMs);
}

void flush_at_process_end() {
  // A signal handler that interrupted this thread's own flush of every log: the registry is held
  // by the frame below us, and what it flushes is what there is.
  if (tls_flushing_outside) return;
  ThreadLog::set_write_through(true);
  flush_every_log(true);
}

Stats stats() {
  Registry& r = registry();
  std::lock_guard<std::mutex> lock(r.mutex);
  Stats s;
  s.threads = r.logs.size();
  s.memory_bytes = memory_in_use();
  for (ThreadLog* log : r.logs) s.recorded += log->recorded();
  return s;
}

void reset_for_testing() {
  flush_all();
  Registry& r = registry();
  {
    std::lock_guard<std::mutex> lock(r.mutex);
    for (ThreadLog* log : r.logs) delete log;
    r.logs.clear();
    reset_memory();
    r.next_thread_index = 0;
  }
  tls.log = nullptr;
  tls_owner.log = nullptr;
  tls.detached = false;
  ThreadLog::set_write_through(false);
  model::reload_config();
  g_level.store(0, std::memory_order_relaxed);
}

}  // namespace provio::store
