/* What one timing read costs on this machine: the preload library reads the CPU's time-stamp
 * counter twice per recorded call (src/posix/wrapper.h), or the vDSO's CLOCK_MONOTONIC where the
 * counter is not usable. Prints "<clock> <ns per read>" lines, thread CPU time per read, so that
 * docs/performance.md can say how much of a call's added time is the two reads.
 *   clock_bench [reads] */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#if defined(__x86_64__)
#include <x86intrin.h>
#endif

static double cpu_ns(void) {
  struct timespec ts;
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
  return ts.tv_sec * 1e9 + ts.tv_nsec;
}

int main(int argc, char** argv) {
  long n = argc > 1 ? atol(argv[1]) : 10000000;
  if (n <= 0) return 2;
  volatile unsigned long long sink = 0;
  double t;
#if defined(__x86_64__)
  t = cpu_ns();
  for (long i = 0; i < n; ++i) sink += __rdtsc();
  printf("rdtsc %.1f\n", (cpu_ns() - t) / n);
#endif
  t = cpu_ns();
  for (long i = 0; i < n; ++i) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    sink += (unsigned long long)ts.tv_nsec;
  }
  printf("clock_gettime_monotonic %.1f\n", (cpu_ns() - t) / n);
  return (int)(sink & 0);
}
