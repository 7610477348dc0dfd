/* A read that blocks for a known time, after the shim has run long enough to time calls with the
 * CPU's counter: its recorded duration and start must be right.
 *   timing <dir>      writes dir/busy.dat for 100 ms, then reads dir/fifo, which a child
 *                     feeds 300 ms after opening it */
#define _GNU_SOURCE
#include <fcntl.h>
#include <stdio.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static double now(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return ts.tv_sec + ts.tv_nsec / 1e9;
}

int main(int argc, char** argv) {
  if (argc < 2) return 2;
  char busy[4096], fifo[4096];
  snprintf(busy, sizeof busy, "%s/busy.dat", argv[1]);
  snprintf(fifo, sizeof fifo, "%s/fifo", argv[1]);
  if (mkfifo(fifo, 0600) != 0) return 3;
  int fd = open(busy, O_CREAT | O_WRONLY | O_TRUNC, 0644);
  double t0 = now();
  while (now() - t0 < 0.1) {
    if (write(fd, "x", 1) != 1) return 3;
  }
  close(fd);
  pid_t pid = fork();
  if (pid == 0) {
    int w = open(fifo, O_WRONLY);
    usleep(300000);
    _exit(write(w, "y", 1) == 1 ? 0 : 1);
  }
  int r = open(fifo, O_RDONLY);
  char c;
  ssize_t n = read(r, &c, 1);
  close(r);
  int status = 0;
  waitpid(pid, &status, 0);
  return n == 1 && WIFEXITED(status) && WEXITSTATUS(status) == 0 ? 0 : 1;
}
