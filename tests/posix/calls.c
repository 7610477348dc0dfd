/* Calls every interposed function, in success and failure cases, and prints each result, errno
 * and the file offsets that matter. The test runs it natively and under libprovio_posix.so and
 * requires identical output; it then checks the provenance of the files it touched.
 * Built twice: plainly, and with -O2 -D_FORTIFY_SOURCE=2 so that glibc's fortified entry points
 * (__open_2, __read_chk, __fprintf_chk, …) are what it calls.
 *   calls <dir>        dir: an empty directory; dir/secret may exist (EACCES when not root) */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/uio.h>
#include <unistd.h>

#define SENTINEL 4242 /* errno before each call: a successful call must leave it alone */

static char path_buf[4096];
static const char* dir;

static const char* at(const char* name) {
  snprintf(path_buf, sizeof path_buf, "%s/%s", dir, name);
  return path_buf;
}

static void report(const char* label, long ret) {
  int e = errno;
  fprintf(stderr, "%-28s ret=%ld errno=%d\n", label, ret, e == SENTINEL ? -1 : e);
  errno = SENTINEL;
}

/* Non-constant arguments, so that the fortified build goes through the _chk / _2 entry points. */
static volatile int v_rdonly = O_RDONLY;
static volatile size_t v_eight = 8;

int main(int argc, char** argv) {
  if (argc < 2) return 2;
  dir = argv[1];
  char buf[64];
  char name2[4096];
  errno = SENTINEL;

  /* open family */
  report("open missing", open(at("missing"), v_rdonly));
  int fd = open(at("data.bin"), O_CREAT | O_WRONLY | O_TRUNC, 0644);
  report("open create", fd);
  report("open dir for write", open(dir, O_WRONLY));
  report("open secret", open(at("secret"), v_rdonly));
  for (int i = 0; i < 10; ++i) report("write 1", write(fd, "x", 1));
  report("write badfd", write(-1, "x", 1));
  report("write closed", write(1000, "x", 1));
  report("pwrite", pwrite(fd, "abcd", 4, 100));
  report("lseek cur", lseek(fd, 0, SEEK_CUR));
  struct iovec iov[2] = {{"abc", 3}, {"defg", 4}};
  report("writev", writev(fd, iov, 2));
  report("fsync", fsync(fd));
  report("fdatasync", fdatasync(fd));
  report("ftruncate", ftruncate(fd, 50));
  report("ftruncate bad", ftruncate(-1, 50));
  struct stat st;
  report("fstat", fstat(fd, &st));
  report("fstat size", (long)st.st_size);
  report("fstat bad", fstat(-5, &st));

  /* descriptors */
  int fd2 = dup(fd);
  report("dup", fd2);
  report("write dup", write(fd2, "y", 1));
  report("dup2", dup2(fd, 20));
  report("write dup2", write(20, "z", 1));
  report("fcntl dupfd", fcntl(fd, F_DUPFD, 30));
  report("write fcntl", write(30, "w", 1));
  report("fcntl getfl", fcntl(fd, F_GETFL) & O_ACCMODE);
  report("dup bad", dup(-1));
  report("dup3 same", dup3(fd, fd, 0));
  report("close 20", close(20));
  report("close 30", close(30));
  report("close dup", close(fd2));
  report("close", close(fd));
  report("close again", close(fd));

  /* reading */
  fd = open(at("data.bin"), v_rdonly);
  report("open read", fd);
  report("read 8", read(fd, buf, v_eight));
  report("pread 4@0", pread(fd, buf, 4, 0));
  report("lseek cur", lseek(fd, 0, SEEK_CUR));
  char a[2], b[3];
  struct iovec riov[2] = {{a, 2}, {b, 3}};
  report("readv", readv(fd, riov, 2));
  report("lseek end", lseek(fd, 0, SEEK_END));
  report("read eof", read(fd, buf, v_eight));
  report("read badfd", read(-1, buf, v_eight));
  report("lseek bad", lseek(fd, -100, SEEK_SET));
  void* map = mmap(NULL, 16, PROT_READ, MAP_PRIVATE, fd, 0);
  report("mmap", map != MAP_FAILED);
  if (map != MAP_FAILED) munmap(map, 16);
  report("mmap bad", mmap(NULL, 16, PROT_READ, MAP_PRIVATE, -1, 0) != MAP_FAILED);
  report("close", close(fd));
  int dfd = open(dir, O_RDONLY | O_DIRECTORY);
  report("open dir", dfd);
  report("read dir", read(dfd, buf, v_eight));
  int afd = openat(dfd, "data.bin", v_rdonly);
  report("openat", afd);
  report("pread at", pread(afd, buf, 2, 1));
  report("close at", close(afd));
  report("openat missing", openat(dfd, "nope", v_rdonly));

  /* stat family */
  report("stat", stat(at("data.bin"), &st));
  report("stat size", (long)st.st_size);
  report("stat missing", stat(at("missing"), &st));
  report("lstat", lstat(at("data.bin"), &st));
  report("fstatat", fstatat(dfd, "data.bin", &st, 0));
  report("fstatat missing", fstatat(dfd, "nope", &st, 0));
  struct statx stx;
  report("statx", statx(AT_FDCWD, at("data.bin"), 0, STATX_BASIC_STATS, &stx));
  report("statx size", (long)stx.stx_size);
  report("stat secret", stat(at("secret"), &st));

  /* names */
  report("mkdir", mkdir(at("sub"), 0755));
  report("mkdir again", mkdir(at("sub"), 0755));
  report("mkdirat", mkdirat(dfd, "sub2", 0755));
  report("rmdir", rmdir(at("sub")));
  report("rmdir missing", rmdir(at("sub")));
  report("unlinkat dir", unlinkat(dfd, "sub2", AT_REMOVEDIR));
  snprintf(name2, sizeof name2, "%s/data2.bin", dir);
  report("rename", rename(at("data.bin"), name2));
  report("rename missing", rename(at("data.bin"), name2));
  report("link", link(name2, at("hard.bin")));
  report("link exists", link(name2, at("hard.bin")));
  report("symlink", symlink("data2.bin", at("soft.bin")));
  report("truncate", truncate(name2, 10));
  report("truncate missing", truncate(at("missing"), 10));
  report("unlink soft", unlink(at("soft.bin")));
  report("unlinkat hard", unlinkat(dfd, "hard.bin", 0));
  report("unlink missing", unlink(at("missing")));
  report("creat", fd = creat(at("c.bin"), 0600));
  report("close", close(fd));
  report("close dir", close(dfd));

  /* stdio */
  FILE* f = fopen(at("s.txt"), "w");
  report("fopen w", f != NULL);
  for (int i = 0; i < 3; ++i) report("fprintf", fprintf(f, "line %d\n", i));
  report("fputs", fputs("tail\n", f));
  report("fwrite", (long)fwrite("0123456789", 2, 5, f));
  report("fflush", fflush(f));
  report("fseek", fseek(f, 0, SEEK_SET));
  report("ftell", ftell(f));
  report("fclose", fclose(f));
  report("fopen missing", fopen(at("missing"), "r") != NULL);
  f = fopen(at("s.txt"), "r");
  report("fopen r", f != NULL);
  while (fgets(buf, (int)v_eight, f)) report("fgets", (long)strlen(buf));
  report("feof", feof(f) != 0);
  report("rewind fseek", fseek(f, 0, SEEK_SET));
  report("fread", (long)fread(buf, 1, v_eight, f));
  char* line = NULL;
  size_t cap = 0;
  report("getline", (long)getline(&line, &cap, f));
  free(line);
  report("fclose", fclose(f));
  fd = open(at("s.txt"), O_RDONLY);
  f = fdopen(fd, "r");
  report("fdopen", f != NULL);
  report("fread fdopen", (long)fread(buf, 1, 4, f));
  f = freopen(at("c.bin"), "w", f);
  report("freopen", f != NULL);
  report("fputs freopen", fputs("new\n", f));
  report("fclose", fclose(f));
  report("fclose closed fd", close(fd));
  return 0;
}
