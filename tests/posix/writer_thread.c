/* A single-threaded program traced with small trace buffers: after its writes have filled several
 * buffers (each handed to provio's background writer), the process must be back to one thread,
 * since a second thread makes every system call of the program dearer (docs/performance.md,
 * issue 11 fifth pass).
 *   writer_thread <dir> <writes>   writes <writes> bytes to dir/out.dat one at a time, then waits
 *                                  up to 5 s for /proc/self/status to show one thread; exit 0 if
 *                                  it does, 1 if not (3 on an I/O error) */
#define _GNU_SOURCE
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static int threads(void) {
  FILE* f = fopen("/proc/self/status", "r");
  if (!f) return -1;
  char line[256];
  int n = -1;
  while (fgets(line, sizeof line, f))
    if (strncmp(line, "Threads:", 8) == 0) n = atoi(line + 8);
  fclose(f);
  return n;
}

int main(int argc, char** argv) {
  if (argc < 3) return 2;
  char path[4096];
  snprintf(path, sizeof path, "%s/out.dat", argv[1]);
  long writes = atol(argv[2]);
  int fd = open(path, O_CREAT | O_WRONLY | O_TRUNC, 0644);
  if (fd < 0) return 3;
  for (long i = 0; i < writes; ++i)
    if (write(fd, "x", 1) != 1) return 3;
  if (close(fd) != 0) return 3;
  for (int tries = 0; tries < 500; ++tries) {
    if (threads() == 1) return 0;
    usleep(10000);
  }
  fprintf(stderr, "writer_thread: %d threads 5 s after the last write\n", threads());
  return 1;
}
