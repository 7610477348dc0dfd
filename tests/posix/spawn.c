/* posix_spawnp of cat, which reads a file the spawner wrote: the child is a new program execution
 * whose parent is the spawner, and the spawn is recorded on the executable. Then system(), which
 * glibc runs through its own internal spawn (no wrapper sees it): /bin/sh still names the spawner
 * as its parent, through the environment the library set up at start.
 *   spawn <input> */
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/wait.h>

extern char** environ;

int main(int argc, char** argv) {
  if (argc < 2) return 2;
  FILE* f = fopen(argv[1], "w");
  fputs("spawned\n", f);
  fclose(f);
  char* args[] = {"cat", argv[1], NULL};
  pid_t pid;
  if (posix_spawnp(&pid, "cat", NULL, NULL, args, environ) != 0) return 3;
  int status = 0;
  waitpid(pid, &status, 0);
  if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) return 1;
  fflush(stdout);
  char cmd[4200];
  snprintf(cmd, sizeof cmd, "cat '%s' > /dev/null", argv[1]);
  return system(cmd) == 0 ? 0 : 1;
}
