/* A program ended by a signal, as a batch system ends a job at its time limit. It writes a file,
 * then (mode):
 *   default   SIGTERM with the default disposition: dies of it; provio keeps what was written
 *   handler   installs its own SIGTERM handler (which writes and calls _exit(3)) after checking
 *             that the disposition it finds is the default one; the handler runs unchanged
 *   restore   ignores SIGINT (survives a raise), restores the default, then dies of SIGINT
 * Exit status, output and files are the same with and without provio (issue 10 item 5).
 *   end_signal <dir> <mode> */
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

static void on_term(int sig) {
  (void)sig;
  static const char msg[] = "handler ran\n";
  if (write(1, msg, sizeof msg - 1) != sizeof msg - 1) _exit(4);
  _exit(3);
}

static int is_default(int sig) {
  struct sigaction old;
  return sigaction(sig, NULL, &old) == 0 && !(old.sa_flags & SA_SIGINFO) && old.sa_handler == SIG_DFL;
}

int main(int argc, char** argv) {
  if (argc != 3) return 2;
  char path[4096];
  snprintf(path, sizeof path, "%s/result.txt", argv[1]);
  int fd = open(path, O_CREAT | O_WRONLY | O_TRUNC, 0644);
  if (fd < 0 || write(fd, "result\n", 7) != 7) return 2;
  close(fd);
  printf("SIGTERM default: %d, SIGINT default: %d\n", is_default(SIGTERM), is_default(SIGINT));
  fflush(stdout);
  if (strcmp(argv[2], "handler") == 0) {
    struct sigaction sa, old;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_term;
    if (sigaction(SIGTERM, &sa, &old) != 0 || old.sa_handler != SIG_DFL) return 5;
    if (sigaction(SIGTERM, NULL, &old) != 0 || old.sa_handler != on_term) return 6;
    kill(getpid(), SIGTERM);
  } else if (strcmp(argv[2], "restore") == 0) {
    if (signal(SIGINT, SIG_IGN) != SIG_DFL) return 7;
    raise(SIGINT);
    puts("survived SIGINT");
    fflush(stdout);
    if (signal(SIGINT, SIG_DFL) != SIG_IGN || !is_default(SIGINT)) return 8;
    raise(SIGINT);
  } else {
    kill(getpid(), SIGTERM);
  }
  for (;;) pause();
}
