/* A SIGALRM handler writes to a file while the main thread writes and asks provio to flush, over
 * and over (provio_flush, looked up with dlsym: called only when provio is loaded). The handler
 * must never wait for the flush its own thread is in: on main it spun there for ever (issue 10
 * item 2, 5 runs of 5). It rewrites the same byte, so its file is the same however often it ran.
 *   signal_flush <dir> */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/time.h>
#include <unistd.h>

static int handler_fd = -1;

static void on_alarm(int sig) {
  (void)sig;
  int saved = errno;
  if (pwrite(handler_fd, "s", 1, 0) != 1) _exit(5);
  errno = saved;
}

int main(int argc, char** argv) {
  if (argc != 2) return 2;
  char path[4096];
  snprintf(path, sizeof path, "%s/handler.dat", argv[1]);
  handler_fd = open(path, O_CREAT | O_WRONLY | O_TRUNC, 0644);
  if (handler_fd < 0 || pwrite(handler_fd, "s", 1, 0) != 1) return 3;
  snprintf(path, sizeof path, "%s/main.dat", argv[1]);
  int fd = open(path, O_CREAT | O_WRONLY | O_TRUNC, 0644);
  if (fd < 0) return 3;
  void (*flush)(void) = (void (*)(void))dlsym(RTLD_DEFAULT, "provio_flush");
  struct sigaction sa;
  memset(&sa, 0, sizeof sa);
  sa.sa_handler = on_alarm;
  sa.sa_flags = SA_RESTART;
  sigaction(SIGALRM, &sa, NULL);
  struct itimerval it = {{0, 100}, {0, 100}};
  setitimer(ITIMER_REAL, &it, NULL);
  for (int i = 0; i < 1500; ++i) {
    if (write(fd, "m", 1) != 1) return 4;
    if (flush) flush();
  }
  struct itimerval off = {{0, 0}, {0, 0}};
  setitimer(ITIMER_REAL, &off, NULL);
  close(fd);
  close(handler_fd);
  puts("done");
  return 0;
}
