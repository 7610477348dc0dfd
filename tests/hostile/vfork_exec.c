/* vfork + exec, as shells and old daemons start commands: the child execs cat on a file the
 * parent wrote; a second child execs a program that does not exist and _exits 127.
 *   vfork_exec <dir> */
#include <fcntl.h>
#include <stdio.h>
#include <sys/wait.h>
#include <unistd.h>

static int run(char* const argv[]) {
  pid_t pid = vfork();
  if (pid == 0) {
    execv(argv[0], argv);
    _exit(127);
  }
  int status = 0;
  waitpid(pid, &status, 0);
  return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}

int main(int argc, char** argv) {
  if (argc != 2) return 2;
  char path[4096];
  snprintf(path, sizeof path, "%s/in.txt", argv[1]);
  FILE* f = fopen(path, "w");
  fputs("through vfork\n", f);
  fclose(f);
  fflush(stdout);
  char* cat[] = {"/bin/cat", path, NULL};
  char* missing[] = {"/nonexistent/program", NULL};
  printf("cat: %d\n", run(cat));
  printf("missing: %d\n", run(missing));
  return 0;
}
