/* fork while the application's threads make their first calls: the moment provio builds its
 * process-wide tables. A fork then must not leave the child waiting for a table another thread
 * was building. One race per process, so the program re-executes itself for each round.
 *   fork_at_start <dir> [round] */
#include <fcntl.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

enum { kRounds = 40, kThreads = 3 };

static const char* g_dir;

static void* first_calls(void* arg) {
  char path[4096];
  snprintf(path, sizeof path, "%s/t%ld.dat", g_dir, (long)arg);
  int fd = open(path, O_CREAT | O_WRONLY | O_TRUNC, 0644);
  for (int i = 0; i < 100; ++i) {
    if (write(fd, "t", 1) != 1) return (void*)1;
  }
  close(fd);
  struct stat st;
  stat(path, &st);
  return NULL;
}

int main(int argc, char** argv) {
  if (argc < 2) return 2;
  g_dir = argv[1];
  int round = argc > 2 ? atoi(argv[2]) : 0;
  pthread_t t[kThreads];
  for (long i = 0; i < kThreads; ++i) pthread_create(&t[i], NULL, first_calls, (void*)i);
  pid_t child = fork();
  if (child == 0) {
    char path[4096];
    snprintf(path, sizeof path, "%s/child.txt", g_dir);
    FILE* f = fopen(path, "w");
    fprintf(f, "round %d\n", round);
    fclose(f);
    _exit(0);
  }
  int status = 0;
  waitpid(child, &status, 0);
  if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) return 3;
  for (int i = 0; i < kThreads; ++i) pthread_join(t[i], NULL);
  if (round + 1 == kRounds) {
    puts("done");
    return 0;
  }
  char next[16];
  snprintf(next, sizeof next, "%d", round + 1);
  execl("/proc/self/exe", argv[0], g_dir, next, (char*)NULL);
  return 4;
}
