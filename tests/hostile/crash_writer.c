/* Writes one byte per call to <dir>/data.bin until it is killed, pausing 5 ms every 16 calls
 * so that a kill can land anywhere: in a call, in a flush, between them. The file's size is the
 * number of calls made, the ground truth crash_consistency.py compares provenance against.
 *   crash_writer <dir> */
#include <fcntl.h>
#include <stdio.h>
#include <unistd.h>

int main(int argc, char** argv) {
  if (argc != 2) return 2;
  char path[4096];
  snprintf(path, sizeof path, "%s/data.bin", argv[1]);
  int fd = open(path, O_CREAT | O_WRONLY | O_TRUNC | O_APPEND, 0644);
  if (fd < 0) return 3;
  for (unsigned long i = 0;; ++i) {
    if (write(fd, "x", 1) != 1) return 4;
    if (i % 16 == 15) usleep(5000);
  }
}
