/* posix_spawnp of cat, which reads a file the spawner wrote: the child is a new program execution
 * whose parent is the spawner, and the spawn is recorded on the executable.
 *   spawn <input> */
#include <spawn.h>
#include <stdio.h>
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
  return WIFEXITED(status) ? WEXITSTATUS(status) : 1;
}
