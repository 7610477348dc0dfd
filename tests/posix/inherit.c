/* Descriptors the program did not open under the name it uses: copies made by dup2 and
 * fcntl(F_DUPFD), and descriptors handed on across exec (docs/format.md, "Versions").
 *   inherit dup-write OUT      open OUT truncating, dup2 it onto 7, close the original, write 10
 *                              bytes through the copy, exit with the copy open
 *   inherit dup-read IN        read 4 bytes of IN, copy the descriptor with F_DUPFD, close the
 *                              original, read the rest through the copy
 *   inherit exec-write OUT     open OUT truncating, dup2 it onto 1, close the original, exec
 *                              itself as `write-stdout`
 *   inherit write-stdout       write 7 bytes to descriptor 1 (inherited) and exit */
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

static int write_all(int fd, const char* text) {
  size_t n = strlen(text);
  return write(fd, text, n) == (ssize_t)n ? 0 : 1;
}

static int dup_write(const char* out) {
  int fd = open(out, O_WRONLY | O_CREAT | O_TRUNC, 0644);
  if (fd < 0 || dup2(fd, 7) != 7 || close(fd) != 0) return 3;
  return write_all(7, "0123456789");
}

static int dup_read(const char* in) {
  char buf[64];
  int fd = open(in, O_RDONLY);
  if (fd < 0 || read(fd, buf, 4) != 4) return 3;
  int copy = fcntl(fd, F_DUPFD, 20);
  if (copy < 20 || close(fd) != 0) return 3;
  ssize_t rest = read(copy, buf, sizeof buf);
  return rest > 0 && close(copy) == 0 ? 0 : 1;
}

static int exec_write(const char* self, const char* out) {
  int fd = open(out, O_WRONLY | O_CREAT | O_TRUNC, 0644);
  if (fd < 0 || dup2(fd, 1) != 1 || close(fd) != 0) return 3;
  execl(self, self, "write-stdout", (char*)NULL);
  return 4;
}

int main(int argc, char** argv) {
  if (argc >= 3 && strcmp(argv[1], "dup-write") == 0) return dup_write(argv[2]);
  if (argc >= 3 && strcmp(argv[1], "dup-read") == 0) return dup_read(argv[2]);
  if (argc >= 3 && strcmp(argv[1], "exec-write") == 0) return exec_write(argv[0], argv[2]);
  if (argc >= 2 && strcmp(argv[1], "write-stdout") == 0) return write_all(1, "exec'd\n");
  return 2;
}
