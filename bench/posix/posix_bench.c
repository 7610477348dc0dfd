/* Nanoseconds per call of a few hot POSIX calls, for bench/posix/run to compare natively and under
 * libprovio_posix.so. Prints "<op> <ns per call>" lines. Time is the thread's CPU time
 * (CLOCK_THREAD_CPUTIME_ID, user + kernel, ns-precise): on a shared machine, wall time mostly
 * measures who else was running. fopen_fwrite_fclose appends to one file ("a": truncating makes
 * ext4 wait for the disk at each close); at summary level its write epochs are one run, two
 * versions in all (docs/format.md, "Versions").
 * With OP (write_1B, pread_4KiB, open_close, stat, fopen_fwrite_fclose) only that loop runs:
 * bench/posix/instructions counts one call's instructions from two runs of one loop. posix_bench <dir>
 * <iterations> [OP] */
#define _GNU_SOURCE
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

static double now_ns(void) {
  struct timespec ts;
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
  return ts.tv_sec * 1e9 + ts.tv_nsec;
}

static const char* g_only;  // the one loop to run, or NULL for all

static int runs(const char* op) {
  return !g_only || strcmp(g_only, op) == 0;
}

int main(int argc, char** argv) {
  if (argc < 3) return 2;
  long n = atol(argv[2]);
  g_only = argc > 3 ? argv[3] : NULL;
  char path[4096], rpath[4096];
  snprintf(path, sizeof path, "%s/bench-write.dat", argv[1]);
  snprintf(rpath, sizeof rpath, "%s/bench-read.dat", argv[1]);
  static char buf[4096];

  int fd = open(path, O_CREAT | O_WRONLY | O_TRUNC, 0644);
  double t = now_ns();
  for (long i = 0; runs("write_1B") && i < n; ++i) {
    if (write(fd, "x", 1) != 1) return 3;
  }
  if (runs("write_1B")) printf("write_1B %.1f\n", (now_ns() - t) / n);
  close(fd);

  /* Read back through a descriptor of its own, as a program reads its input: each read names the
   * version of the file it reads (docs/format.md, "Versions"). */
  fd = open(rpath, O_CREAT | O_WRONLY | O_TRUNC, 0644);
  if (write(fd, buf, sizeof buf) != sizeof buf || close(fd) != 0) return 3;
  fd = open(rpath, O_RDONLY);
  if (fd < 0) return 3;
  t = now_ns();
  for (long i = 0; runs("pread_4KiB") && i < n; ++i) {
    if (pread(fd, buf, sizeof buf, 0) != sizeof buf) return 3;
  }
  if (runs("pread_4KiB")) printf("pread_4KiB %.1f\n", (now_ns() - t) / n);
  close(fd);

  long m = n / 4;
  t = now_ns();
  for (long i = 0; runs("open_close") && i < m; ++i) {
    int f = open(rpath, O_RDONLY);
    if (f < 0) return 3;
    close(f);
  }
  if (runs("open_close")) printf("open_close %.1f\n", (now_ns() - t) / m);

  struct stat st;
  t = now_ns();
  for (long i = 0; runs("stat") && i < m; ++i) {
    if (stat(rpath, &st) != 0) return 3;
  }
  if (runs("stat")) printf("stat %.1f\n", (now_ns() - t) / m);

  t = now_ns();
  for (long i = 0; runs("fopen_fwrite_fclose") && i < m; ++i) {
    FILE* f = fopen(path, "a");
    if (!f || fwrite("x", 1, 1, f) != 1 || fclose(f) != 0) return 3;
  }
  if (runs("fopen_fwrite_fclose")) printf("fopen_fwrite_fclose %.1f\n", (now_ns() - t) / m);
  unlink(path);
  unlink(rpath);
  return 0;
}
