/* A data loader's pattern in one thread: create, write and close N distinct files (issue 29
 * item 8: past ~16,400 files in one thread main recorded later files on no entity, silently).
 *   many_files <dir> <n> */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

int main(int argc, char** argv) {
  if (argc != 3) return 2;
  long n = strtol(argv[2], NULL, 10);
  char name[4096];
  for (long i = 0; i < n; ++i) {
    snprintf(name, sizeof name, "%s/f%05ld", argv[1], i);
    int fd = open(name, O_CREAT | O_WRONLY | O_TRUNC, 0644);
    if (fd < 0 || write(fd, "x", 1) != 1 || close(fd) != 0) return 3;
  }
  printf("%ld files\n", n);
  return 0;
}
