// What a call's arguments say, read the way libc reads them: the descriptor under a stream or a
// directory stream, the optional mode of open, whether open flags or a stdio mode make new
// content. The recorders of recorders.h read the wrapped calls' arguments through these.
//
// Hard rule: inline, and no call into libc where the answer is a field or a flag (every stdio
// transfer and close asks for its descriptor).
#pragma once

#include <dirent.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <sys/types.h>

namespace provio::posix {

// The descriptor under a stream, as fileno() answers, inline and without touching errno: every
// stdio transfer and close asks, and the call into libc cost ~25 instructions per fopen + fwrite
// + fclose cycle. glibc's fileno (libio/fileno.c) reads these two fields: a stream that is not a
// file buffer (open_memstream) or has no descriptor (fmemopen, fopencookie) gives -1.
inline int stream_fd(FILE* f) {
#ifdef __GLIBC__
  constexpr int kIsFileBuf = 0x2000;  // glibc's _IO_IS_FILEBUF (internal libio.h)
  return f && (f->_flags & kIsFileBuf) && f->_fileno >= 0 ? f->_fileno : -1;
#else
  return f ? fileno(f) : -1;
#endif
}
inline int dir_fd(DIR* d) {
  return d ? dirfd(d) : -1;
}

inline bool needs_mode(int flags) {
  return (flags & O_CREAT) != 0 || (flags & __O_TMPFILE) == __O_TMPFILE;
}

// The optional mode argument of open and openat (read only when the flags say it was passed).
inline mode_t mode_arg(int flags, va_list ap) {
  return needs_mode(flags) ? va_arg(ap, mode_t) : 0;
}

// O_CREAT with O_EXCL or O_TRUNC makes new content; O_CREAT alone may open an existing file
// (append logs) and is recorded as an open.
inline bool creates(int flags) {
  return (flags & O_CREAT) != 0 && (flags & (O_EXCL | O_TRUNC)) != 0;
}

// A stdio mode makes new content when it writes from scratch ('w') or creates exclusively ('x').
// Modes are a few characters: one inline scan (two strchr calls cost as much as the rest of an
// fopen's record).
inline bool mode_creates(const char* mode) {
  for (const char* c = mode; c && *c; ++c) {
    if (*c == 'w' || *c == 'x') return true;
  }
  return false;
}

}  // namespace provio::posix
