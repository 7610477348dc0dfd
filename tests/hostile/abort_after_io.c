/* A program that does I/O, lets a fork child finish normally, then calls abort(): provio does not
 * flush on SIGABRT (the heap may be what is broken) but must not change the status (SIGABRT), the
 * output or the files; what was flushed (the child's) parses.
 *   abort_after_io <dir> */
#include <stdio.h>
#include <stdlib.h>
#include <sys/wait.h>
#include <unistd.h>

int main(int argc, char** argv) {
  if (argc != 2) return 2;
  char path[4096];
  snprintf(path, sizeof path, "%s/before.txt", argv[1]);
  FILE* f = fopen(path, "w");
  fputs("before abort\n", f);
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
  puts("aborting");
  fflush(stdout);
  abort();
}
