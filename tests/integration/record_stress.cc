// A program that records a known number of events, for the integration tests.
//
//   record_stress --threads T --events N [--entities K] [--fork-after M --child-events C]
//                 [--forever] --truth FILE
//
// Each of T threads records N write events spread over K entities of its own. With --fork-after,
// the main thread forks while the other threads are recording; the child records C events of its
// own and exits. With --forever the threads record until the process is killed (event i of a
// thread carries offset i, so a checker can see which events reached the disk; about 10,000
// events per second per thread).
// Every process appends "<pid> <events it recorded>" to FILE when it is done.
#include <fcntl.h>
#include <sys/wait.h>
#include <unistd.h>

#include <atomic>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <thread>
#include <vector>

#include "model/api_names.h"
#include "model/clock.h"
#include "model/entities.h"
#include "store/recorder.h"

namespace {

struct Options {
  int threads = 8;
  long events = 100000;
  int entities = 4;
  long fork_after = -1;
  long child_events = 0;
  bool forever = false;
  std::string truth;
};

void append_truth(const std::string& path, long events) {
  char line[64];
  int n = std::snprintf(line, sizeof line, "%d %ld\n", getpid(), events);
  int fd = open(path.c_str(), O_WRONLY | O_APPEND | O_CREAT, 0644);
  if (fd < 0 || write(fd, line, static_cast<size_t>(n)) != n) std::perror("truth");
  if (fd >= 0) close(fd);
}

void record_events(int thread, int entities, long first, long count, const char* tag) {
  using namespace provio::model;
  static const ApiId api = api_id("stress_write");
  std::vector<EntityId> ents;
  for (int k = 0; k < entities; ++k) {
    ents.push_back(canonical_file_entity(std::string("/stress/") + tag + "/t" + std::to_string(thread) +
                                         "/f" + std::to_string(k)));
  }
  for (long i = first; count < 0 || i < first + count; ++i) {
    Event ev;
    ev.op = Op::kWrite;
    ev.api = api;
    ev.entity = ents[static_cast<std::size_t>(i) % ents.size()];
    ev.bytes = 8;
    ev.offset = i;
    ev.start_ns = clock::wall_ns();
    ev.elapsed_ns = 1;
    provio::store::record(ev);
    if (count < 0 && i % 10 == 9) usleep(1000);  // --forever: a steady pace until the kill
  }
}

}  // namespace

int main(int argc, char** argv) {
  Options o;
  for (int i = 1; i < argc; ++i) {
    std::string a = argv[i];
    auto next = [&] {
      return i + 1 < argc ? argv[++i] : (std::fprintf(stderr, "missing value\n"), std::exit(2), "");
    };
    if (a == "--threads")
      o.threads = std::atoi(next());
    else if (a == "--events")
      o.events = std::atol(next());
    else if (a == "--entities")
      o.entities = std::atoi(next());
    else if (a == "--fork-after")
      o.fork_after = std::atol(next());
    else if (a == "--child-events")
      o.child_events = std::atol(next());
    else if (a == "--forever")
      o.forever = true;
    else if (a == "--truth")
      o.truth = next();
    else
      return std::fprintf(stderr, "record_stress: unknown option %s\n", a.c_str()), 2;
  }
  if (o.truth.empty()) return std::fprintf(stderr, "record_stress: --truth FILE is required\n"), 2;
  if (o.entities < 1) return std::fprintf(stderr, "record_stress: --entities must be at least 1\n"), 2;

  std::atomic<int> started{0};
  std::atomic<bool> forked{o.fork_after < 0};
  std::vector<std::thread> workers;
  // Thread 0 is the main thread; it forks when asked. Workers stay alive until the fork: a thread
  // that had ended unjoined would be a leak in the child's eyes (ThreadSanitizer reports it).
  for (int t = 1; t < o.threads; ++t) {
    workers.emplace_back([&, t] {
      started++;
      record_events(t, o.entities, 0, o.forever ? -1 : o.events, "parent");
      while (!forked.load()) std::this_thread::yield();
    });
  }
  long main_events = o.forever ? -1 : o.events;
  if (o.fork_after >= 0) {
    record_events(0, o.entities, 0, o.fork_after, "parent");
    while (started.load() < o.threads - 1) std::this_thread::yield();
    pid_t pid = fork();
    forked = true;
    if (pid == 0) {
      record_events(0, o.entities, 0, o.child_events, "child");
      append_truth(o.truth, o.child_events);
      std::exit(0);  // atexit flush
    }
    record_events(0, o.entities, o.fork_after, o.events - o.fork_after, "parent");
    int status = 0;
    waitpid(pid, &status, 0);
    if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) return std::fprintf(stderr, "child failed\n"), 1;
  } else {
    record_events(0, o.entities, 0, main_events, "parent");
  }
  for (auto& w : workers) w.join();
  append_truth(o.truth, static_cast<long>(o.threads) * o.events);
  return 0;
}
