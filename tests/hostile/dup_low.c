/* dup2 over the lowest descriptor numbers: stdout goes to a file through dup2(fd, 1), stderr is
 * closed and its number reused by open, then more traced I/O happens. provio's output must never
 * land in these files, and what the program prints must be byte-identical.
 *   dup_low <dir> */
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

int main(int argc, char** argv) {
  if (argc != 2) return 2;
  char path[4096];
  snprintf(path, sizeof path, "%s/stdout.txt", argv[1]);
  int out = open(path, O_CREAT | O_WRONLY | O_TRUNC, 0644);
  if (out < 0 || dup2(out, 1) != 1) return 3;
  close(out);
  close(2);
  snprintf(path, sizeof path, "%s/reused2.txt", argv[1]);
  int two = open(path, O_CREAT | O_WRONLY | O_TRUNC, 0644); /* gets number 2 */
  if (two != 2) return 4;
  for (int i = 0; i < 200; ++i) {
    snprintf(path, sizeof path, "%s/f%d.txt", argv[1], i % 10);
    int fd = open(path, O_CREAT | O_WRONLY | O_APPEND, 0644);
    if (fd < 0 || write(fd, "x", 1) != 1) return 5;
    close(fd);
    printf("line %d\n", i);
  }
  fflush(stdout);
  dprintf(2, "to two\n");
  return 0;
}
