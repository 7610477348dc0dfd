/* Issue 11's reproduction: a program that rewrites one file in a loop.
 *
 *   rewrite_loop write FILE CYCLES MODE [PAUSE]   CYCLES × (fopen FILE MODE, fwrite 1 byte, fclose);
 *                                                 after cycle PAUSE it writes "paused\n" to stdout
 *                                                 and waits for a byte on stdin (a reader's turn)
 *   rewrite_loop thread FILE CYCLES MODE          the same loop in a thread that ends before the
 *                                                 process (its runs end with it)
 *   rewrite_loop copy SRC DST                     reads SRC with stdio and writes it to DST
 */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static int write_loop(const char* path, long cycles, const char* mode, long pause) {
  for (long i = 1; i <= cycles; ++i) {
    FILE* f = fopen(path, mode);
    if (!f || fwrite("x", 1, 1, f) != 1 || fclose(f) != 0) {
      perror(path);
      return 1;
    }
    if (i == pause) {
      char go;
      if (write(1, "paused\n", 7) != 7 || read(0, &go, 1) != 1) return 1;
    }
  }
  return 0;
}

static int copy(const char* src, const char* dst) {
  FILE* in = fopen(src, "r");
  FILE* out = fopen(dst, "w");
  if (!in || !out) {
    perror("fopen");
    return 1;
  }
  char buf[4096];
  size_t n;
  while ((n = fread(buf, 1, sizeof buf, in)) > 0) fwrite(buf, 1, n, out);
  return fclose(in) != 0 || fclose(out) != 0;
}

struct Loop {
  const char* path;
  long cycles;
  const char* mode;
  int status;
};

static void* loop_thread(void* arg) {
  struct Loop* l = arg;
  l->status = write_loop(l->path, l->cycles, l->mode, 0);
  return NULL;
}

int main(int argc, char** argv) {
  if (argc == 5 && strcmp(argv[1], "thread") == 0) {
    struct Loop l = {argv[2], atol(argv[3]), argv[4], 1};
    pthread_t t;
    if (pthread_create(&t, NULL, loop_thread, &l) != 0 || pthread_join(t, NULL) != 0) return 1;
    return l.status;
  }
  if (argc >= 5 && strcmp(argv[1], "write") == 0)
    return write_loop(argv[2], atol(argv[3]), argv[4], argc > 5 ? atol(argv[5]) : 0);
  if (argc == 4 && strcmp(argv[1], "copy") == 0) return copy(argv[2], argv[3]);
  fprintf(stderr,
          "usage: rewrite_loop write FILE CYCLES MODE [PAUSE] | thread FILE CYCLES MODE | copy SRC DST\n");
  return 2;
}
