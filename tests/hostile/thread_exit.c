/* A non-main thread ends the process with exit() while the main thread is blocked; another thread
 * records meanwhile. The exit status is the thread's; provio's exit flush keeps every thread's I/O.
 *   thread_exit <dir> */
#include <fcntl.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

static const char* g_dir;

static void* writer(void* arg) {
  (void)arg;
  char path[4096];
  snprintf(path, sizeof path, "%s/busy.dat", g_dir);
  int fd = open(path, O_CREAT | O_WRONLY | O_TRUNC, 0644);
  for (;;) {
    if (pwrite(fd, "b", 1, 0) != 1) return NULL;
  }
}

static void* finisher(void* arg) {
  (void)arg;
  char path[4096];
  snprintf(path, sizeof path, "%s/last.txt", g_dir);
  FILE* f = fopen(path, "w");
  fputs("last words\n", f);
  fclose(f);
  usleep(50000);
  puts("exiting from a thread");
  exit(7);
}

int main(int argc, char** argv) {
  if (argc != 2) return 2;
  g_dir = argv[1];
  pthread_t w, e;
  pthread_create(&w, NULL, writer, NULL);
  pthread_create(&e, NULL, finisher, NULL);
  pause();
  return 0;
}
