/* Nanoseconds per call of a few hot POSIX calls, for bench/posix/run to compare natively and under
 * libprovio_posix.so. Prints "<op> <ns per call>" lines. Time is the thread's CPU time
 * (CLOCK_THREAD_CPUTIME_ID, user + kernel, ns-precise): on a shared machine, wall time mostly
 * measures who else was running.
 *   posix_bench <dir> <iterations> */
#define _GNU_SOURCE
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

static double now_ns(void) {
  struct timespec ts;
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
  return ts.tv_sec * 1e9 + ts.tv_nsec;
}

int main(int argc, char** argv) {
  if (argc < 3) return 2;
  long n = atol(argv[2]);
  char path[4096], rpath[4096];
  snprintf(path, sizeof path, "%s/bench-write.dat", argv[1]);
  snprintf(rpath, sizeof rpath, "%s/bench-read.dat", argv[1]);
  static char buf[4096];

  int fd = open(path, O_CREAT | O_WRONLY | O_TRUNC, 0644);
  double t = now_ns();
  for (long i = 0; i < n; ++i) {
    if (write(fd, "x", 1) != 1) return 3;
  }
  printf("write_1B %.1f\n", (now_ns() - t) / n);
  close(fd);

  fd = open(rpath, O_CREAT | O_RDWR | O_TRUNC, 0644);
  if (write(fd, buf, sizeof buf) != sizeof buf) return 3;
  t = now_ns();
  for (long i = 0; i < n; ++i) {
    if (pread(fd, buf, sizeof buf, 0) != sizeof buf) return 3;
  }
  printf("pread_4KiB %.1f\n", (now_ns() - t) / n);
  close(fd);

  long m = n / 4;
  t = now_ns();
  for (long i = 0; i < m; ++i) {
    int f = open(rpath, O_RDONLY);
    if (f < 0) return 3;
    close(f);
  }
  printf("open_close %.1f\n", (now_ns() - t) / m);

  struct stat st;
  t = now_ns();
  for (long i = 0; i < m; ++i) {
    if (stat(rpath, &st) != 0) return 3;
  }
  printf("stat %.1f\n", (now_ns() - t) / m);
  unlink(path);
  unlink(rpath);
  return 0;
}
