/* Threads that record, flush the whole process and exit, all at once: flush_all() claims other
 * threads' logs while those threads are recording or exiting. Must neither crash nor lose events.
 *   flush_race BATCHES THREADS_PER_BATCH   (prints the number of events recorded) */
#include <provio/provio.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>

static provio_entity_t g_file;

static void* worker(void* arg) {
  long id = (long)arg;
  char path[64];
  for (int i = 0; i < 80; ++i) {
    snprintf(path, sizeof path, "/t%ld/d%d", id, i);
    provio_entity_t d = provio_object(g_file, path, PROVIO_DATASET);
    if (!d || provio_record_io(PROVIO_WRITE, "race_write", d, 8, 0, 1) != PROVIO_OK) {
      fprintf(stderr, "flush_race: record failed: %s\n", provio_last_error());
      exit(1);
    }
  }
  provio_flush();
  provio_flush();
  return NULL;
}

int main(int argc, char** argv) {
  int batches = argc > 1 ? atoi(argv[1]) : 8, per = argc > 2 ? atoi(argv[2]) : 32;
  g_file = provio_file("/race/file.h5");
  long id = 0;
  for (int b = 0; b < batches; ++b) {
    pthread_t th[256];
    for (int t = 0; t < per && t < 256; ++t) pthread_create(&th[t], NULL, worker, (void*)id++);
    for (int t = 0; t < per && t < 256; ++t) pthread_join(th[t], NULL);
  }
  printf("%ld\n", id * 80);
  return 0;
}
