/* Threads that record one activity each as fast as they can while the main thread flushes every
 * log over and over: each flush claims the recording threads' logs from outside while their owners
 * claim them for every record (thread_log.h: a store and a load, the flusher paying a process-wide
 * barrier, or a compare-and-swap on both sides). A flush that read and reset an activity's totals
 * while its owner added to them would lose or double calls. With KEYS > 1, each thread cycles
 * through KEYS objects of its own, more than a log keeps among its recent keys: most calls then
 * wait in the log's pending batch, which a flush from outside must add to the table first.
 *   claim_race THREADS EVENTS [KEYS]   (prints the number of events recorded) */
#include <provio/provio.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>

static provio_entity_t g_file;
static long g_events;
static long g_keys;
static atomic_int g_running;

static void* worker(void* arg) {
  provio_entity_t objects[1000];
  for (long k = 0; k < g_keys; ++k) {
    char path[48];
    snprintf(path, sizeof path, "/t%ld/k%ld", (long)arg, k);
    objects[k] = provio_object(g_file, path, PROVIO_DATASET);
  }
  for (long i = 0; i < g_events; ++i) {
    provio_entity_t d = objects[i % g_keys];
    if (!d || provio_record_io(PROVIO_WRITE, "claim_write", d, 1, 0, 1) != PROVIO_OK) {
      fprintf(stderr, "claim_race: record failed: %s\n", provio_last_error());
      exit(1);
    }
  }
  atomic_fetch_sub(&g_running, 1);
  return NULL;
}

int main(int argc, char** argv) {
  int threads = argc > 1 ? atoi(argv[1]) : 2;
  g_events = argc > 2 ? atol(argv[2]) : 1000000;
  g_keys = argc > 3 ? atol(argv[3]) : 1;
  if (threads < 1 || threads > 64 || g_events < 1 || g_keys < 1 || g_keys > 1000) {
    fprintf(stderr, "usage: claim_race THREADS(1-64) EVENTS [KEYS(1-1000)]\n");
    return 1;
  }
  g_file = provio_file("/claim/file.h5");
  pthread_t th[64];
  atomic_store(&g_running, threads);
  for (long t = 0; t < threads; ++t) pthread_create(&th[t], NULL, worker, (void*)t);
  while (atomic_load(&g_running) > 0) provio_flush();
  for (int t = 0; t < threads; ++t) pthread_join(th[t], NULL);
  printf("%ld\n", (long)threads * g_events);
  return 0;
}
