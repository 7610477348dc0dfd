/* Traced writes to three files whose statements are short, ~400 and ~900 bytes long (a file name
 * of 250 letters, and one of 250 bytes that are not ASCII, each percent-encoded in its term),
 * interleaved call by call and then in runs of 50: the trace writer gathers repeated calls'
 * statements in a window of its own, two of the longest to a window
 * (src/store/thread_log_turtle.cc); every call must still be one statement.
 *   long_heads <dir> <writes>   <writes> one-byte writes in each of the two patterns; exit 0, or
 *                               3 on an I/O error */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

int main(int argc, char** argv) {
  if (argc < 3) return 2;
  long writes = atol(argv[2]);
  int fds[3];
  for (int k = 0; k < 3; ++k) {
    char name[256] = "f";
    if (k > 0) {
      memset(name, k == 1 ? 'a' : 0xE9, 250);
      name[250] = 0;
    }
    char path[4096];
    snprintf(path, sizeof path, "%s/%s", argv[1], name);
    fds[k] = open(path, O_CREAT | O_WRONLY | O_TRUNC, 0644);
    if (fds[k] < 0) return 3;
  }
  for (long i = 0; i < writes; ++i)
    if (write(fds[i % 3], "x", 1) != 1) return 3;
  for (long i = 0; i < writes; ++i)
    if (write(fds[(i / 50) % 3], "x", 1) != 1) return 3;
  for (int k = 0; k < 3; ++k) close(fds[k]);
  return 0;
}
