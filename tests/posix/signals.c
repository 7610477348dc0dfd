/* A signal handler that does I/O while the main loop does I/O: under the shim the program must
 * behave exactly as without it (no deadlock, no lost or extra bytes, errno intact in the handler).
 * Handler writes that interrupt a wrapped call go through unrecorded; the main loop's are exact.
 *   signals <dir>     prints the number of handler runs */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/time.h>
#include <unistd.h>

static int log_fd = -1;
static volatile sig_atomic_t handled = 0;
static volatile sig_atomic_t errno_broken = 0;

static void on_alarm(int sig) {
  (void)sig;
  int saved = errno;
  errno = 777;
  if (write(log_fd, "s", 1) != 1) errno_broken = 1;
  if (errno != 777) errno_broken = 1; /* a successful write leaves errno alone */
  errno = saved;
  handled = handled + 1;
}

int main(int argc, char** argv) {
  if (argc < 2) return 2;
  char path[4096];
  snprintf(path, sizeof path, "%s/handler.log", argv[1]);
  log_fd = open(path, O_CREAT | O_WRONLY | O_TRUNC | O_APPEND, 0644);
  snprintf(path, sizeof path, "%s/main.dat", argv[1]);
  int fd = open(path, O_CREAT | O_RDWR | O_TRUNC, 0644);
  struct sigaction sa;
  memset(&sa, 0, sizeof sa);
  sa.sa_handler = on_alarm;
  sa.sa_flags = SA_RESTART;
  sigaction(SIGALRM, &sa, NULL);
  struct itimerval it = {{0, 200}, {0, 200}};
  setitimer(ITIMER_REAL, &it, NULL);
  char buf[16];
  for (int i = 0; i < 20000; ++i) {
    if (write(fd, "m", 1) != 1) return 3;
    if (pread(fd, buf, 1, i) != 1) return 3;
  }
  struct itimerval off = {{0, 0}, {0, 0}};
  setitimer(ITIMER_REAL, &off, NULL);
  close(fd);
  close(log_fd);
  if (errno_broken) return 4;
  printf("%d\n", (int)handled);
  return 0;
}
