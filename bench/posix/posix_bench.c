/* Nanoseconds per call of a few hot POSIX calls, for bench/posix/run to compare natively and under
 * libprovio_posix.so. Prints "<op> <ns per call>" lines. Time is the thread's CPU time
 * (CLOCK_THREAD_CPUTIME_ID, user + kernel, ns-precise): on a shared machine, wall time mostly
 * measures who else was running. fopen_fwrite_fclose appends to one file ("a": truncating makes
 * ext4 wait for the disk at each close); at summary level its write epochs are one run, two
 * versions in all (docs/format.md, "Versions").
 * With OP (write_1B, pread_4KiB, open_close, stat, fopen_fwrite_fclose; "all" for every one) only
 * that loop runs: bench/posix/instructions counts one call's instructions from two runs of one loop.
 * With ROUNDS, a paired run: each loop runs ROUNDS times through libc's own functions (looked up in
 * libc itself, so that a preloaded library's wrappers are not called) and through the functions
 * as the program calls them, in an order swapped every round, printing "<op> <native ns> <ns>"
 * per round: this host's speed moves by up to ±40 % between processes, and adjacent loops in one
 * process share its state (bench/posix/run --paired).
 *   posix_bench <dir> <iterations> [OP [ROUNDS]] */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

/* The calls a loop makes: libc's own, or the ones the program's calls reach (a wrapper, if one is
 * preloaded). */
struct calls {
  ssize_t (*write)(int, const void*, size_t);
  ssize_t (*pread)(int, void*, size_t, off_t);
  int (*open)(const char*, int, ...);
  int (*close)(int);
  int (*stat)(const char*, struct stat*);
  FILE* (*fopen)(const char*, const char*);
  size_t (*fwrite)(const void*, size_t, size_t, FILE*);
  int (*fclose)(FILE*);
};

static const struct calls k_called = {write, pread, open, close, stat, fopen, fwrite, fclose};

static int libc_calls(struct calls* c) {
  void* libc = dlopen("libc.so.6", RTLD_NOW | RTLD_NOLOAD);
  if (!libc) return 0;
  void* f[] = {dlsym(libc, "write"), dlsym(libc, "pread"), dlsym(libc, "open"),   dlsym(libc, "close"),
               dlsym(libc, "stat"),  dlsym(libc, "fopen"), dlsym(libc, "fwrite"), dlsym(libc, "fclose")};
  for (size_t i = 0; i < sizeof f / sizeof f[0]; ++i)
    if (!f[i]) return 0;
  memcpy(c, f, sizeof *c); /* the struct is eight function pointers, in this order */
  return 1;
}

static double now_ns(void) {
  struct timespec ts;
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
  return ts.tv_sec * 1e9 + ts.tv_nsec;
}

static char g_path[4096], g_rpath[4096]; /* the file written, the file read */
static char g_buf[4096];

/* Each loop returns nanoseconds per call, or -1 when a call failed. */
static double write_1B(const struct calls* c, long n) {
  int fd = c->open(g_path, O_CREAT | O_WRONLY | O_TRUNC, 0644);
  double t = now_ns();
  for (long i = 0; i < n; ++i)
    if (c->write(fd, "x", 1) != 1) return -1;
  t = (now_ns() - t) / n;
  c->close(fd);
  return t;
}

/* Read through a descriptor of its own, as a program reads its input: each read names the version
 * of the file it reads (docs/format.md, "Versions"). */
static double pread_4KiB(const struct calls* c, long n) {
  int fd = c->open(g_rpath, O_RDONLY);
  if (fd < 0) return -1;
  double t = now_ns();
  for (long i = 0; i < n; ++i)
    if (c->pread(fd, g_buf, sizeof g_buf, 0) != sizeof g_buf) return -1;
  t = (now_ns() - t) / n;
  c->close(fd);
  return t;
}

static double open_close(const struct calls* c, long n) {
  double t = now_ns();
  for (long i = 0; i < n / 4; ++i) {
    int f = c->open(g_rpath, O_RDONLY);
    if (f < 0) return -1;
    c->close(f);
  }
  return (now_ns() - t) / (n / 4);
}

static double stat_(const struct calls* c, long n) {
  struct stat st;
  double t = now_ns();
  for (long i = 0; i < n / 4; ++i)
    if (c->stat(g_rpath, &st) != 0) return -1;
  return (now_ns() - t) / (n / 4);
}

static double fopen_fwrite_fclose(const struct calls* c, long n) {
  double t = now_ns();
  for (long i = 0; i < n / 4; ++i) {
    FILE* f = c->fopen(g_path, "a");
    if (!f || c->fwrite("x", 1, 1, f) != 1 || c->fclose(f) != 0) return -1;
  }
  return (now_ns() - t) / (n / 4);
}

static const struct {
  const char* name;
  double (*loop)(const struct calls*, long);
} k_ops[] = {{"write_1B", write_1B},
             {"pread_4KiB", pread_4KiB},
             {"open_close", open_close},
             {"stat", stat_},
             {"fopen_fwrite_fclose", fopen_fwrite_fclose}};

int main(int argc, char** argv) {
  if (argc < 3) return 2;
  long n = atol(argv[2]);
  const char* only = argc > 3 && strcmp(argv[3], "all") != 0 ? argv[3] : NULL;
  int rounds = argc > 4 ? atoi(argv[4]) : 0;
  struct calls libc;
  if (rounds > 0 && !libc_calls(&libc)) return 4;
  snprintf(g_path, sizeof g_path, "%s/bench-write.dat", argv[1]);
  snprintf(g_rpath, sizeof g_rpath, "%s/bench-read.dat", argv[1]);
  int fd = open(g_rpath, O_CREAT | O_WRONLY | O_TRUNC, 0644);
  if (fd < 0 || write(fd, g_buf, sizeof g_buf) != sizeof g_buf || close(fd) != 0) return 3;
  for (size_t i = 0; i < sizeof k_ops / sizeof k_ops[0]; ++i) {
    if (only && strcmp(only, k_ops[i].name) != 0) continue;
    if (rounds == 0) {
      double ns = k_ops[i].loop(&k_called, n);
      if (ns < 0) return 3;
      printf("%s %.1f\n", k_ops[i].name, ns);
    }
    for (int r = 0; r < rounds; ++r) {
      double native, called;
      if (r % 2 == 0) { /* swapped every round: neither side always runs first */
        native = k_ops[i].loop(&libc, n);
        called = k_ops[i].loop(&k_called, n);
      } else {
        called = k_ops[i].loop(&k_called, n);
        native = k_ops[i].loop(&libc, n);
      }
      if (native < 0 || called < 0) return 3;
      printf("%s %.1f %.1f\n", k_ops[i].name, native, called);
    }
  }
  unlink(g_path);
  unlink(g_rpath);
  return 0;
}
