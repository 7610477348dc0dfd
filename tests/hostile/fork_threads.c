/* fork without exec while other threads record: the child (only the forking thread) records on
 * its own and exits normally, the parent's threads keep recording. Files and output identical;
 * both processes' provenance parses.
 *   fork_threads <dir> */
#include <fcntl.h>
#include <pthread.h>
#include <stdio.h>
#include <sys/wait.h>
#include <unistd.h>

static const char* g_dir;

static void* worker(void* arg) {
  long id = (long)arg;
  char path[4096];
  snprintf(path, sizeof path, "%s/t%ld.dat", g_dir, id);
  int fd = open(path, O_CREAT | O_WRONLY | O_TRUNC, 0644);
  for (int i = 0; i < 20000; ++i) {
    if (write(fd, "t", 1) != 1) return (void*)1;
  }
  close(fd);
  return NULL;
}

int main(int argc, char** argv) {
  if (argc != 2) return 2;
  g_dir = argv[1];
  pthread_t t[3];
  for (long i = 0; i < 3; ++i) pthread_create(&t[i], NULL, worker, (void*)i);
  int status = 0;
  for (int round = 0; round < 5; ++round) {
    pid_t child = fork();
    if (child == 0) {
      char path[4096];
      snprintf(path, sizeof path, "%s/child%d.txt", g_dir, round);
      FILE* f = fopen(path, "w");
      fprintf(f, "child %d\n", round);
      fclose(f);
      return 0;
    }
    waitpid(child, &status, 0);
    if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) return 3;
  }
  for (int i = 0; i < 3; ++i) pthread_join(t[i], NULL);
  puts("done");
  return 0;
}
