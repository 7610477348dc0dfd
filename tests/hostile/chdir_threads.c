/* Two threads of one process with a chdir between their first flushes (issue 29 item 9): a
 * relative output directory (the default ./provio/<job>, or a relative PROVIO_DIR) must be
 * resolved once, from the directory the process started in, so both threads' files land in one
 * directory. Thread 1 writes one.txt and exits (its log is flushed), the process moves to sub/,
 * thread 2 writes two.txt and exits.
 *   chdir_threads <dir> */
#include <fcntl.h>
#include <pthread.h>
#include <stdio.h>
#include <sys/stat.h>
#include <unistd.h>

static void* write_file(void* name) {
  int fd = open((const char*)name, O_CREAT | O_WRONLY | O_TRUNC, 0644);
  if (fd < 0 || write(fd, "x\n", 2) != 2) return (void*)1;
  close(fd);
  return NULL;
}

static int run_thread(const char* name) {
  pthread_t t;
  void* result = NULL;
  if (pthread_create(&t, NULL, write_file, (void*)name) != 0 || pthread_join(t, &result) != 0) return 1;
  return result != NULL;
}

int main(int argc, char** argv) {
  if (argc != 2 || chdir(argv[1]) != 0) return 2;
  if (run_thread("one.txt") != 0) return 3;
  if (mkdir("sub", 0755) != 0 || chdir("sub") != 0) return 4;
  if (run_thread("two.txt") != 0) return 5;
  puts("done");
  return 0;
}
