/* A program that does I/O, lets a fork child finish normally, then crashes:
 *   abort     calls abort()
 *   handler   raises SIGSEGV, whose handler (as MPI libraries' do) prints and calls _exit(3)
 * provio does not flush in either (the heap may be what is broken, and a flush allocates) but
 * must not change the status, the output or the files; what was flushed (at the fork) parses, and
 * after prov-merge the crashed run is marked no-end-time.
 *   crash_after_io <dir> abort|handler */
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

static void on_segv(int sig) {
  (void)sig;
  static const char msg[] = "crash handler\n";
  if (write(1, msg, sizeof msg - 1) != sizeof msg - 1) _exit(4);
  _exit(3);
}

int main(int argc, char** argv) {
  if (argc != 3) return 2;
  char path[4096];
  snprintf(path, sizeof path, "%s/before.txt", argv[1]);
  FILE* f = fopen(path, "w");
  fputs("before the crash\n", f);
  fclose(f);
  pid_t child = fork();
  if (child == 0) {
    snprintf(path, sizeof path, "%s/child.txt", argv[1]);
    f = fopen(path, "w");
    fputs("child\n", f);
    fclose(f);
    exit(0);
  }
  waitpid(child, NULL, 0);
  puts("crashing");
  fflush(stdout);
  if (strcmp(argv[2], "handler") == 0) {
    signal(SIGSEGV, on_segv);
    raise(SIGSEGV);
  }
  abort();
}
