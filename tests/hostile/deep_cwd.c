/* Works in a directory deeper than PATH_MAX, where getcwd fails: a file made there by a relative
 * name must never be recorded as another file (on main it was file:///rel.txt; issue 10 item 4b).
 * provio marks what it could not name (provio:incomplete "unresolved-name"). Cleans up after.
 *   deep_cwd <dir> */
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

enum { kLevels = 24, kNameLen = 250 };

int main(int argc, char** argv) {
  if (argc != 2 || chdir(argv[1]) != 0) return 2;
  char name[kNameLen + 1];
  memset(name, 'd', kNameLen);
  name[kNameLen] = '\0';
  for (int i = 0; i < kLevels; ++i) {
    if (mkdir(name, 0755) != 0 || chdir(name) != 0) return 3;
  }
  int fd = open("rel.txt", O_CREAT | O_WRONLY | O_TRUNC, 0644);
  if (fd < 0 || write(fd, "deep\n", 5) != 5) return 4;
  close(fd);
  char buf[16] = {0};
  fd = open("rel.txt", O_RDONLY);
  if (fd < 0 || read(fd, buf, sizeof buf - 1) != 5) return 5;
  close(fd);
  fputs(buf, stdout);
  if (unlink("rel.txt") != 0) return 6;
  for (int i = 0; i < kLevels; ++i) {
    if (chdir("..") != 0 || rmdir(name) != 0) return 7;
  }
  return 0;
}
