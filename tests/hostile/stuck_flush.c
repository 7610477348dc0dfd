/* A SIGTERM that lands while the program is inside malloc: provio's handler flushes, the flush
 * allocates, and malloc's lock is held by the frame the signal interrupted — the flush can never
 * finish. This program brings its own malloc (a bump allocator behind a mutex, which provio's
 * allocations go through too), takes that lock and raises SIGTERM. Without provio it dies of
 * SIGTERM at once; with provio the process must still end (PROVIO_EXIT_TIMEOUT: killed after that
 * many seconds) instead of hanging for ever.
 *   stuck_flush <dir> */
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

static pthread_mutex_t g_lock = PTHREAD_MUTEX_INITIALIZER;
static _Alignas(64) unsigned char g_heap[256 << 20];
static size_t g_used;

/* Every block starts with its size, 64-byte aligned. */
static void* take(size_t n, size_t align) {
  if (align < 64) align = 64;
  pthread_mutex_lock(&g_lock);
  size_t start = (g_used + 64 + align - 1) / align * align;
  if (start + n > sizeof g_heap) {
    pthread_mutex_unlock(&g_lock);
    errno = ENOMEM;
    return NULL;
  }
  g_used = start + n;
  pthread_mutex_unlock(&g_lock);
  *(size_t*)(g_heap + start - sizeof(size_t)) = n;
  return g_heap + start;
}

void* malloc(size_t n) {
  return take(n, 64);
}
void free(void* p) {
  (void)p;
}
void* calloc(size_t n, size_t m) {
  return take(n * m, 64);
} /* the heap starts zeroed, never reused */
void* realloc(void* p, size_t n) {
  void* q = take(n, 64);
  if (p && q) {
    size_t old = *(size_t*)((unsigned char*)p - sizeof(size_t));
    memcpy(q, p, old < n ? old : n);
  }
  return q;
}
void* memalign(size_t align, size_t n) {
  return take(n, align);
}
void* aligned_alloc(size_t align, size_t n) {
  return take(n, align);
}
int posix_memalign(void** out, size_t align, size_t n) {
  *out = take(n, align);
  return *out ? 0 : ENOMEM;
}
size_t malloc_usable_size(void* p) {
  return p ? *(size_t*)((unsigned char*)p - sizeof(size_t)) : 0;
}

int main(int argc, char** argv) {
  if (argc != 2) return 2;
  char path[4096];
  snprintf(path, sizeof path, "%s/data.txt", argv[1]);
  int fd = open(path, O_CREAT | O_WRONLY | O_TRUNC, 0644);
  if (fd < 0 || write(fd, "data\n", 5) != 5) return 3;
  close(fd);
  pthread_mutex_lock(&g_lock); /* "inside malloc" */
  raise(SIGTERM);
  pthread_mutex_unlock(&g_lock);
  return 0;
}
