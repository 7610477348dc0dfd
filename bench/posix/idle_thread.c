/* A control for trace level's cost on the application thread: preloaded alone, it gives a program
 * one idle thread and nothing else, so that `perf stat` of posix_bench natively with and without
 * it shows what a second thread costs each system call (the kernel shares the descriptor table:
 * a file reference and the file position lock per read or write; glibc takes its cancellation
 * path). docs/performance.md, "Clock reads and a second thread".
 *   LD_PRELOAD=build/bench/posix/libposix_idle_thread.so build/bench/posix/posix_bench DIR N write_1B */
#include <pthread.h>
#include <unistd.h>

static void* idle(void* arg) {
  (void)arg;
  for (;;) pause();
  return NULL;
}

__attribute__((constructor)) static void start_idle_thread(void) {
  pthread_t t;
  if (pthread_create(&t, NULL, idle, NULL) == 0) pthread_detach(t);
}
