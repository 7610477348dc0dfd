/* The output's file system fills up between two of provio's writes (issue 33): a thread makes
 * empty files and flushes (its provenance file exists), fills the disk, stats the files and ends
 * while the disk is full, so its last flush cannot be written (with compressed files, on provio's
 * writer thread). Its events must be counted lost and shown in the graph (provio:incomplete
 * "output-failed"), which the main thread's exit flush writes once the program has freed the
 * space again. provio_flush is looked up with dlsym: called only when provio is loaded; it
 * returns once the writer thread has written (or failed to write) what was flushed.
 *   full_disk <dir>      (on a small tmpfs, with PROVIO_RESERVE=0: full_disk.sh) */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static const char* g_dir;
static void (*g_flush)(void);

enum { kNames = 1500 };

/* The i-th of kNames empty files: names that compress badly, so that the last flush is larger
 * than what is left of the last page of provio's file, whatever the compression makes of it. */
static void name(char* path, size_t size, int i) {
  unsigned x = 33u + (unsigned)i * 2654435761u;
  snprintf(path, size, "%s/e-%08x-%d", g_dir, x * 1103515245u + 12345u, i);
}

static void* worker(void* arg) {
  (void)arg;
  char path[4096];
  for (int i = 0; i < kNames; ++i) { /* empty: no space taken */
    name(path, sizeof path, i);
    int fd = open(path, O_CREAT | O_WRONLY | O_TRUNC, 0644);
    if (fd < 0 || close(fd) != 0) return (void*)1;
  }
  if (g_flush) g_flush(); /* this thread's provenance file now exists */

  snprintf(path, sizeof path, "%s/fill.dat", g_dir);
  int fd = open(path, O_CREAT | O_WRONLY | O_TRUNC, 0644);
  if (fd < 0) return (void*)1;
  static char block[1 << 16];
  while (write(fd, block, sizeof block) > 0) {
  }
  int full = errno == ENOSPC;
  close(fd);
  if (!full) return (void*)1;
  struct stat st;
  for (int i = 0; i < kNames; ++i) { /* a new activity each */
    name(path, sizeof path, i);
    if (stat(path, &st) != 0) return (void*)1;
  }
  return NULL; /* the thread's last flush meets the full disk */
}

int main(int argc, char** argv) {
  if (argc != 2) return 2;
  g_dir = argv[1];
  g_flush = (void (*)(void))dlsym(RTLD_DEFAULT, "provio_flush");
  pthread_t t;
  void* status = NULL;
  if (pthread_create(&t, NULL, worker, NULL) != 0 || pthread_join(t, &status) != 0 || status) return 3;
  if (g_flush) g_flush();  // the writer thread has met the full disk
  char path[4096];
  snprintf(path, sizeof path, "%s/fill.dat", g_dir);
  if (unlink(path) != 0) return 4;
  snprintf(path, sizeof path, "%s/after.txt", g_dir);
  int fd = open(path, O_CREAT | O_WRONLY | O_TRUNC, 0644);
  if (fd < 0 || write(fd, "after\n", 6) != 6 || close(fd) != 0) return 5;
  puts("ok");
  return 0;
}
