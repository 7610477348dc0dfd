/* A preload library for tests/prov_merge/store_update_test.py: kills the process (SIGKILL, which
 * nothing can catch or clean up after) at the rename that puts an output in place, so a test can
 * stop a real prov-merge exactly there without a hook in prov-merge itself.
 *
 *   KILL_AT_RENAME=PATH        the output: a rename(2), renameat(2) or renameat2(2) whose source or
 *                              target is PATH (as prov-merge spells it) is the one
 *   KILL_AT_RENAME_WHEN=before|after   kill just before it, or just after it succeeded (default after)
 *   KILL_AT_RENAME_NO_EXCHANGE=1       renameat2(RENAME_EXCHANGE) fails with EINVAL, as on a file
 *                              system without it
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static int is_target(const char* a, const char* b) {
  const char* target = getenv("KILL_AT_RENAME");
  return target && ((a && strcmp(a, target) == 0) || (b && strcmp(b, target) == 0));
}

static int kill_after(void) {
  const char* when = getenv("KILL_AT_RENAME_WHEN");
  return !when || strcmp(when, "before") != 0;
}

static int done(int rc, const char* from, const char* to) {
  if (rc == 0 && is_target(from, to) && kill_after()) kill(getpid(), SIGKILL);
  return rc;
}

static void before(const char* from, const char* to) {
  if (is_target(from, to) && !kill_after()) kill(getpid(), SIGKILL);
}

int rename(const char* from, const char* to) {
  int (*real)(const char*, const char*) = (int (*)(const char*, const char*))dlsym(RTLD_NEXT, "rename");
  before(from, to);
  return done(real(from, to), from, to);
}

int renameat(int fd1, const char* from, int fd2, const char* to) {
  int (*real)(int, const char*, int, const char*) =
      (int (*)(int, const char*, int, const char*))dlsym(RTLD_NEXT, "renameat");
  before(from, to);
  return done(real(fd1, from, fd2, to), from, to);
}

int renameat2(int fd1, const char* from, int fd2, const char* to, unsigned flags) {
  int (*real)(int, const char*, int, const char*, unsigned) =
      (int (*)(int, const char*, int, const char*, unsigned))dlsym(RTLD_NEXT, "renameat2");
  if ((flags & RENAME_EXCHANGE) && getenv("KILL_AT_RENAME_NO_EXCHANGE")) {
    errno = EINVAL;
    return -1;
  }
  before(from, to);
  return done(real(fd1, from, fd2, to, flags), from, to);
}
