// The C ABI of the preload shim: every interposed POSIX and stdio function, including the glibc
// entry points that Debian-built programs call instead of the plain names (__open_2, __read_chk,
// __fprintf_chk, …) and the pre-2.33 stat family (__xstat, …). docs/posix.md lists them and what
// each records.
//
// Hard rule: each exported function is one call of the skeleton in wrapper.h (resolve, guard,
// time, call, save errno, record, restore errno), with a recorder from recorders.h (exec and
// spawn: exec_calls.h); nothing here returns anything but the real function's result. Failed
// calls record nothing. A variadic function only reads its list (va_start, one va_arg or
// exec_list, va_end); the call it then makes is written once, in the helper it calls.
#include <dirent.h>
#include <fcntl.h>
#include <spawn.h>
#include <stdarg.h>
#include <stdio.h>
#include <sys/mman.h>
#include <sys/sendfile.h>
#include <sys/stat.h>
#include <sys/uio.h>
#include <unistd.h>

#include "posix/call_args.h"
#include "posix/exec_calls.h"
#include "posix/export.h"
#include "posix/fd_table.h"
#include "posix/paths.h"
#include "posix/recorders.h"
#include "posix/wrapper.h"

// decltype(&::open) carries glibc's nonnull / warn_unused_result attributes, which a function
// pointer type cannot hold; dropping them is what we want.
#pragma GCC diagnostic ignored "-Wignored-attributes"

// glibc's fortified and compatibility entry points, which its headers declare only under
// _FORTIFY_SOURCE or not at all any more.
extern "C" {
int __open_2(const char* path, int flags);
int __open64_2(const char* path, int flags);
int __openat_2(int dirfd, const char* path, int flags);
int __openat64_2(int dirfd, const char* path, int flags);
ssize_t __read_chk(int fd, void* buf, size_t n, size_t buflen);
ssize_t __pread_chk(int fd, void* buf, size_t n, off_t offset, size_t buflen);
ssize_t __pread64_chk(int fd, void* buf, size_t n, off64_t offset, size_t buflen);
size_t __fread_chk(void* ptr, size_t ptrlen, size_t size, size_t n, FILE* f);
size_t __fread_unlocked_chk(void* ptr, size_t ptrlen, size_t size, size_t n, FILE* f);
char* __fgets_chk(char* s, size_t size, int n, FILE* f);
char* __fgets_unlocked_chk(char* s, size_t size, int n, FILE* f);
int __fprintf_chk(FILE* f, int flag, const char* fmt, ...);
int __vfprintf_chk(FILE* f, int flag, const char* fmt, va_list ap);
int __printf_chk(int flag, const char* fmt, ...);
int __vprintf_chk(int flag, const char* fmt, va_list ap);
int __xstat(int ver, const char* path, struct stat* st);
int __xstat64(int ver, const char* path, struct stat64* st);
int __lxstat(int ver, const char* path, struct stat* st);
int __lxstat64(int ver, const char* path, struct stat64* st);
int __fxstat(int ver, int fd, struct stat* st);
int __fxstat64(int ver, int fd, struct stat64* st);
int __fxstatat(int ver, int dirfd, const char* path, struct stat* st, int flags);
int __fxstatat64(int ver, int dirfd, const char* path, struct stat64* st, int flags);
}

namespace provio::posix {
namespace {

// ---- the symbols ----

Symbol<decltype(&::open)> s_open{"open"};
Symbol<decltype(&::open64)> s_open64{"open64", "open"};
Symbol<decltype(&::__open_2)> s_open_2{"__open_2", "open"};
Symbol<decltype(&::__open64_2)> s_open64_2{"__open64_2", "open"};
Symbol<decltype(&::openat)> s_openat{"openat"};
Symbol<decltype(&::openat64)> s_openat64{"openat64", "openat"};
Symbol<decltype(&::__openat_2)> s_openat_2{"__openat_2", "openat"};
Symbol<decltype(&::__openat64_2)> s_openat64_2{"__openat64_2", "openat"};
Symbol<decltype(&::creat)> s_creat{"creat"};
Symbol<decltype(&::creat64)> s_creat64{"creat64", "creat"};
Symbol<decltype(&::close)> s_close{"close"};
Symbol<decltype(&::close_range)> s_close_range{"close_range"};
Symbol<decltype(&::closefrom)> s_closefrom{"closefrom"};

Symbol<decltype(&::read)> s_read{"read"};
Symbol<decltype(&::__read_chk)> s_read_chk{"__read_chk", "read"};
Symbol<decltype(&::write)> s_write{"write"};
Symbol<decltype(&::pread)> s_pread{"pread"};
Symbol<decltype(&::pread64)> s_pread64{"pread64", "pread"};
Symbol<decltype(&::__pread_chk)> s_pread_chk{"__pread_chk", "pread"};
Symbol<decltype(&::__pread64_chk)> s_pread64_chk{"__pread64_chk", "pread"};
Symbol<decltype(&::pwrite)> s_pwrite{"pwrite"};
Symbol<decltype(&::pwrite64)> s_pwrite64{"pwrite64", "pwrite"};
Symbol<decltype(&::readv)> s_readv{"readv"};
Symbol<decltype(&::writev)> s_writev{"writev"};
Symbol<decltype(&::preadv)> s_preadv{"preadv"};
Symbol<decltype(&::preadv64)> s_preadv64{"preadv64", "preadv"};
Symbol<decltype(&::pwritev)> s_pwritev{"pwritev"};
Symbol<decltype(&::pwritev64)> s_pwritev64{"pwritev64", "pwritev"};
Symbol<decltype(&::copy_file_range)> s_copy_file_range{"copy_file_range"};
Symbol<decltype(&::sendfile)> s_sendfile{"sendfile"};
Symbol<decltype(&::sendfile64)> s_sendfile64{"sendfile64", "sendfile"};
Symbol<decltype(&::lseek)> s_lseek{"lseek"};
Symbol<decltype(&::lseek64)> s_lseek64{"lseek64", "lseek"};
Symbol<decltype(&::fsync)> s_fsync{"fsync"};
Symbol<decltype(&::fdatasync)> s_fdatasync{"fdatasync"};
Symbol<decltype(&::ftruncate)> s_ftruncate{"ftruncate"};
Symbol<decltype(&::ftruncate64)> s_ftruncate64{"ftruncate64", "ftruncate"};
Symbol<decltype(&::truncate)> s_truncate{"truncate"};
Symbol<decltype(&::truncate64)> s_truncate64{"truncate64", "truncate"};
Symbol<decltype(&::mmap)> s_mmap{"mmap"};
Symbol<decltype(&::mmap64)> s_mmap64{"mmap64", "mmap"};

Symbol<decltype(&::dup)> s_dup{"dup"};
Symbol<decltype(&::dup2)> s_dup2{"dup2"};
Symbol<decltype(&::dup3)> s_dup3{"dup3"};
Symbol<decltype(&::fcntl)> s_fcntl{"fcntl"};
Symbol<decltype(&::fcntl64)> s_fcntl64{"fcntl64", "fcntl"};

Symbol<decltype(&::rename)> s_rename{"rename"};
Symbol<decltype(&::renameat)> s_renameat{"renameat"};
Symbol<decltype(&::renameat2)> s_renameat2{"renameat2"};
Symbol<decltype(&::unlink)> s_unlink{"unlink"};
Symbol<decltype(&::unlinkat)> s_unlinkat{"unlinkat"};
Symbol<decltype(&::mkdir)> s_mkdir{"mkdir"};
Symbol<decltype(&::mkdirat)> s_mkdirat{"mkdirat"};
Symbol<decltype(&::rmdir)> s_rmdir{"rmdir"};
Symbol<decltype(&::link)> s_link{"link"};
Symbol<decltype(&::linkat)> s_linkat{"linkat"};
Symbol<decltype(&::symlink)> s_symlink{"symlink"};
Symbol<decltype(&::symlinkat)> s_symlinkat{"symlinkat"};
Symbol<decltype(&::chdir)> s_chdir{"chdir"};
Symbol<decltype(&::fchdir)> s_fchdir{"fchdir"};

Symbol<decltype(&::stat)> s_stat{"stat"};
Symbol<decltype(&::stat64)> s_stat64{"stat64", "stat"};
Symbol<decltype(&::lstat)> s_lstat{"lstat"};
Symbol<decltype(&::lstat64)> s_lstat64{"lstat64", "lstat"};
Symbol<decltype(&::fstat)> s_fstat{"fstat"};
Symbol<decltype(&::fstat64)> s_fstat64{"fstat64", "fstat"};
Symbol<decltype(&::fstatat)> s_fstatat{"fstatat"};
Symbol<decltype(&::fstatat64)> s_fstatat64{"fstatat64", "fstatat"};
Symbol<decltype(&::statx)> s_statx{"statx"};
Symbol<decltype(&::__xstat)> s_xstat{"__xstat", "stat"};
Symbol<decltype(&::__xstat64)> s_xstat64{"__xstat64", "stat"};
Symbol<decltype(&::__lxstat)> s_lxstat{"__lxstat", "lstat"};
Symbol<decltype(&::__lxstat64)> s_lxstat64{"__lxstat64", "lstat"};
Symbol<decltype(&::__fxstat)> s_fxstat{"__fxstat", "fstat"};
Symbol<decltype(&::__fxstat64)> s_fxstat64{"__fxstat64", "fstat"};
Symbol<decltype(&::__fxstatat)> s_fxstatat{"__fxstatat", "fstatat"};
Symbol<decltype(&::__fxstatat64)> s_fxstatat64{"__fxstatat64", "fstatat"};

Symbol<decltype(&::fopen)> s_fopen{"fopen"};
Symbol<decltype(&::fopen64)> s_fopen64{"fopen64", "fopen"};
Symbol<decltype(&::fdopen)> s_fdopen{"fdopen"};
Symbol<decltype(&::freopen)> s_freopen{"freopen"};
Symbol<decltype(&::freopen64)> s_freopen64{"freopen64", "freopen"};
Symbol<decltype(&::fclose)> s_fclose{"fclose"};
Symbol<decltype(&::fread)> s_fread{"fread"};
Symbol<decltype(&::fread_unlocked)> s_fread_unlocked{"fread_unlocked", "fread"};
Symbol<decltype(&::__fread_chk)> s_fread_chk{"__fread_chk", "fread"};
Symbol<decltype(&::__fread_unlocked_chk)> s_fread_unlocked_chk{"__fread_unlocked_chk", "fread"};
Symbol<decltype(&::fwrite)> s_fwrite{"fwrite"};
Symbol<decltype(&::fwrite_unlocked)> s_fwrite_unlocked{"fwrite_unlocked", "fwrite"};
Symbol<decltype(&::fgets)> s_fgets{"fgets"};
Symbol<decltype(&::fgets_unlocked)> s_fgets_unlocked{"fgets_unlocked", "fgets"};
Symbol<decltype(&::__fgets_chk)> s_fgets_chk{"__fgets_chk", "fgets"};
Symbol<decltype(&::__fgets_unlocked_chk)> s_fgets_unlocked_chk{"__fgets_unlocked_chk", "fgets"};
Symbol<decltype(&::getline)> s_getline{"getline"};
Symbol<decltype(&::getdelim)> s_getdelim{"getdelim"};
// glibc's inline getline (bits/stdio.h, with optimisation) calls __getdelim(…, '\n', …).
Symbol<decltype(&::__getdelim)> s_getdelim_internal{"__getdelim", "getline"};
Symbol<decltype(&::fputs)> s_fputs{"fputs"};
Symbol<decltype(&::fputs_unlocked)> s_fputs_unlocked{"fputs_unlocked", "fputs"};
Symbol<decltype(&::puts)> s_puts{"puts"};
// The printf family calls the real v-variant.
Symbol<decltype(&::vfprintf)> s_fprintf{"vfprintf", "fprintf"};
Symbol<decltype(&::vfprintf)> s_vfprintf{"vfprintf"};
Symbol<decltype(&::vfprintf)> s_printf{"vfprintf", "printf"};
Symbol<decltype(&::vfprintf)> s_vprintf{"vfprintf", "vprintf"};
Symbol<decltype(&::__vfprintf_chk)> s_fprintf_chk{"__vfprintf_chk", "fprintf"};
Symbol<decltype(&::__vfprintf_chk)> s_vfprintf_chk{"__vfprintf_chk", "vfprintf"};
Symbol<decltype(&::__vfprintf_chk)> s_printf_chk{"__vfprintf_chk", "printf"};
Symbol<decltype(&::__vfprintf_chk)> s_vprintf_chk{"__vfprintf_chk", "vprintf"};
Symbol<decltype(&::opendir)> s_opendir{"opendir"};
Symbol<decltype(&::fdopendir)> s_fdopendir{"fdopendir"};
Symbol<decltype(&::closedir)> s_closedir{"closedir"};
Symbol<decltype(&::readdir)> s_readdir{"readdir"};
Symbol<decltype(&::readdir64)> s_readdir64{"readdir64", "readdir"};
Symbol<decltype(&::fflush)> s_fflush{"fflush"};
Symbol<decltype(&::fseek)> s_fseek{"fseek"};
Symbol<decltype(&::fseeko)> s_fseeko{"fseeko", "fseek"};
Symbol<decltype(&::fseeko64)> s_fseeko64{"fseeko64", "fseek"};

Symbol<decltype(&::execve)> s_execve{"execve"};
Symbol<decltype(&::execve)> s_execv{"execve", "execv"};
Symbol<decltype(&::execve)> s_execl{"execve", "execl"};
Symbol<decltype(&::execve)> s_execle{"execve", "execle"};
Symbol<decltype(&::execvpe)> s_execvp{"execvpe", "execvp"};
Symbol<decltype(&::execvpe)> s_execvpe{"execvpe"};
Symbol<decltype(&::execvpe)> s_execlp{"execvpe", "execlp"};
Symbol<decltype(&::fexecve)> s_fexecve{"fexecve"};
Symbol<decltype(&::fork)> s_vfork{"fork", "vfork"};
Symbol<decltype(&::posix_spawn)> s_posix_spawn{"posix_spawn"};
Symbol<decltype(&::posix_spawnp)> s_posix_spawnp{"posix_spawnp", "posix_spawn"};

}  // namespace
}  // namespace provio::posix

using namespace provio::posix;  // NOLINT: this file is the ABI of that namespace

// ---- open / close ----

PROVIO_EXPORT int open(const char* path, int flags, ...) {
  va_list ap;
  va_start(ap, flags);
  mode_t mode = mode_arg(flags, ap);
  va_end(ap);
  return open_with_mode<s_open>(AT_FDCWD, path, flags, mode);
}

PROVIO_EXPORT int open64(const char* path, int flags, ...) {
  va_list ap;
  va_start(ap, flags);
  mode_t mode = mode_arg(flags, ap);
  va_end(ap);
  return open_with_mode<s_open64>(AT_FDCWD, path, flags, mode);
}

PROVIO_EXPORT int openat(int dirfd, const char* path, int flags, ...) {
  va_list ap;
  va_start(ap, flags);
  mode_t mode = mode_arg(flags, ap);
  va_end(ap);
  return open_with_mode<s_openat>(dirfd, path, flags, mode);
}

PROVIO_EXPORT int openat64(int dirfd, const char* path, int flags, ...) {
  va_list ap;
  va_start(ap, flags);
  mode_t mode = mode_arg(flags, ap);
  va_end(ap);
  return open_with_mode<s_openat64>(dirfd, path, flags, mode);
}

PROVIO_EXPORT int __open_2(const char* path, int flags) {
  return traced(s_open_2, opened<s_open_2>(AT_FDCWD, path, flags), path, flags);
}
PROVIO_EXPORT int __open64_2(const char* path, int flags) {
  return traced(s_open64_2, opened<s_open64_2>(AT_FDCWD, path, flags), path, flags);
}
PROVIO_EXPORT int __openat_2(int dirfd, const char* path, int flags) {
  return traced(s_openat_2, opened<s_openat_2>(dirfd, path, flags), dirfd, path, flags);
}
PROVIO_EXPORT int __openat64_2(int dirfd, const char* path, int flags) {
  return traced(s_openat64_2, opened<s_openat64_2>(dirfd, path, flags), dirfd, path, flags);
}
PROVIO_EXPORT int creat(const char* path, mode_t mode) {
  return traced(s_creat, opened<s_creat>(AT_FDCWD, path, O_CREAT | O_WRONLY | O_TRUNC), path, mode);
}
PROVIO_EXPORT int creat64(const char* path, mode_t mode) {
  return traced(s_creat64, opened<s_creat64>(AT_FDCWD, path, O_CREAT | O_WRONLY | O_TRUNC), path, mode);
}

PROVIO_EXPORT int close(int fd) {
  return closed(s_close, fd, fd);
}

PROVIO_EXPORT int close_range(unsigned first, unsigned last, int flags) noexcept {
  return traced(
      s_close_range,
      [first, last, flags](int r, const Timing&) {
        if (r == 0 && !(flags & CLOSE_RANGE_CLOEXEC)) fd_table().clear_range(first, last);
      },
      first, last, flags);
}

PROVIO_EXPORT void closefrom(int lowfd) noexcept {
  if (auto fn = s_closefrom.real()) fn(lowfd);
  if (lowfd >= 0) fd_table().clear_range(static_cast<unsigned>(lowfd), ~0u);
}

// ---- transfers ----

PROVIO_EXPORT ssize_t read(int fd, void* buf, size_t n) {
  return traced(s_read, transfer<s_read, Op::kRead>(fd), fd, buf, n);
}
PROVIO_EXPORT ssize_t __read_chk(int fd, void* buf, size_t n, size_t buflen) {
  return traced(s_read_chk, transfer<s_read_chk, Op::kRead>(fd), fd, buf, n, buflen);
}
PROVIO_EXPORT ssize_t write(int fd, const void* buf, size_t n) {
  return traced(s_write, transfer<s_write, Op::kWrite>(fd), fd, buf, n);
}
PROVIO_EXPORT ssize_t pread(int fd, void* buf, size_t n, off_t off) {
  return traced(s_pread, transfer<s_pread, Op::kRead>(fd, off), fd, buf, n, off);
}
PROVIO_EXPORT ssize_t pread64(int fd, void* buf, size_t n, off64_t off) {
  return traced(s_pread64, transfer<s_pread64, Op::kRead>(fd, off), fd, buf, n, off);
}
PROVIO_EXPORT ssize_t __pread_chk(int fd, void* buf, size_t n, off_t off, size_t buflen) {
  return traced(s_pread_chk, transfer<s_pread_chk, Op::kRead>(fd, off), fd, buf, n, off, buflen);
}
PROVIO_EXPORT ssize_t __pread64_chk(int fd, void* buf, size_t n, off64_t off, size_t buflen) {
  return traced(s_pread64_chk, transfer<s_pread64_chk, Op::kRead>(fd, off), fd, buf, n, off, buflen);
}
PROVIO_EXPORT ssize_t pwrite(int fd, const void* buf, size_t n, off_t off) {
  return traced(s_pwrite, transfer<s_pwrite, Op::kWrite>(fd, off), fd, buf, n, off);
}
PROVIO_EXPORT ssize_t pwrite64(int fd, const void* buf, size_t n, off64_t off) {
  return traced(s_pwrite64, transfer<s_pwrite64, Op::kWrite>(fd, off), fd, buf, n, off);
}
PROVIO_EXPORT ssize_t readv(int fd, const struct iovec* iov, int n) {
  return traced(s_readv, transfer<s_readv, Op::kRead>(fd), fd, iov, n);
}
PROVIO_EXPORT ssize_t writev(int fd, const struct iovec* iov, int n) {
  return traced(s_writev, transfer<s_writev, Op::kWrite>(fd), fd, iov, n);
}
PROVIO_EXPORT ssize_t preadv(int fd, const struct iovec* iov, int n, off_t off) {
  return traced(s_preadv, transfer<s_preadv, Op::kRead>(fd, off), fd, iov, n, off);
}
PROVIO_EXPORT ssize_t preadv64(int fd, const struct iovec* iov, int n, off64_t off) {
  return traced(s_preadv64, transfer<s_preadv64, Op::kRead>(fd, off), fd, iov, n, off);
}
PROVIO_EXPORT ssize_t pwritev(int fd, const struct iovec* iov, int n, off_t off) {
  return traced(s_pwritev, transfer<s_pwritev, Op::kWrite>(fd, off), fd, iov, n, off);
}
PROVIO_EXPORT ssize_t pwritev64(int fd, const struct iovec* iov, int n, off64_t off) {
  return traced(s_pwritev64, transfer<s_pwritev64, Op::kWrite>(fd, off), fd, iov, n, off);
}

PROVIO_EXPORT ssize_t copy_file_range(int in, off64_t* in_off, int out, off64_t* out_off, size_t len,
                                      unsigned flags) {
  return traced(s_copy_file_range, copied<s_copy_file_range>(in, out), in, in_off, out, out_off, len, flags);
}
PROVIO_EXPORT ssize_t sendfile(int out, int in, off_t* off, size_t count) noexcept {
  return traced(s_sendfile, copied<s_sendfile>(in, out), out, in, off, count);
}
PROVIO_EXPORT ssize_t sendfile64(int out, int in, off64_t* off, size_t count) noexcept {
  return traced(s_sendfile64, copied<s_sendfile64>(in, out), out, in, off, count);
}

// A seek changes no data: recorded as an access, so that the calls are counted per file.
PROVIO_EXPORT off_t lseek(int fd, off_t off, int whence) noexcept {
  return traced(s_lseek, on_fd<s_lseek>(Op::kAccess, fd), fd, off, whence);
}
PROVIO_EXPORT off64_t lseek64(int fd, off64_t off, int whence) noexcept {
  return traced(s_lseek64, on_fd<s_lseek64>(Op::kAccess, fd), fd, off, whence);
}
PROVIO_EXPORT int fsync(int fd) {
  return traced(s_fsync, on_fd<s_fsync>(Op::kFlush, fd), fd);
}
PROVIO_EXPORT int fdatasync(int fd) {
  return traced(s_fdatasync, on_fd<s_fdatasync>(Op::kFlush, fd), fd);
}
PROVIO_EXPORT int ftruncate(int fd, off_t len) noexcept {
  return traced(s_ftruncate, on_fd<s_ftruncate>(Op::kModify, fd), fd, len);
}
PROVIO_EXPORT int ftruncate64(int fd, off64_t len) noexcept {
  return traced(s_ftruncate64, on_fd<s_ftruncate64>(Op::kModify, fd), fd, len);
}
PROVIO_EXPORT int truncate(const char* path, off_t len) noexcept {
  return traced(s_truncate, on_path<s_truncate>(Op::kModify, AT_FDCWD, path, true, EntityClass::kFile), path,
                len);
}
PROVIO_EXPORT int truncate64(const char* path, off64_t len) noexcept {
  return traced(s_truncate64, on_path<s_truncate64>(Op::kModify, AT_FDCWD, path, true, EntityClass::kFile),
                path, len);
}

// Mapping a file is recorded as an access (the bytes are touched later, invisibly).
PROVIO_EXPORT void* mmap(void* addr, size_t len, int prot, int flags, int fd, off_t off) noexcept {
  return map(s_mmap, addr, len, prot, flags, fd, off);
}
PROVIO_EXPORT void* mmap64(void* addr, size_t len, int prot, int flags, int fd, off64_t off) noexcept {
  return map(s_mmap64, addr, len, prot, flags, fd, off);
}

// ---- descriptors ----

PROVIO_EXPORT int dup(int fd) noexcept {
  return traced(s_dup, duplicated(fd), fd);
}
PROVIO_EXPORT int dup2(int fd, int to) noexcept {
  return duplicate_onto(s_dup2, fd, to);
}
PROVIO_EXPORT int dup3(int fd, int to, int flags) noexcept {
  return duplicate_onto(s_dup3, fd, to, flags);
}

PROVIO_EXPORT int fcntl(int fd, int cmd, ...) {
  va_list ap;
  va_start(ap, cmd);
  void* arg = va_arg(ap, void*);
  va_end(ap);
  return control(s_fcntl, fd, cmd, arg);
}
PROVIO_EXPORT int fcntl64(int fd, int cmd, ...) {
  va_list ap;
  va_start(ap, cmd);
  void* arg = va_arg(ap, void*);
  va_end(ap);
  return control(s_fcntl64, fd, cmd, arg);
}

// ---- names ----

PROVIO_EXPORT int rename(const char* from, const char* to) noexcept {
  return traced(s_rename, renamed<s_rename>(AT_FDCWD, from, AT_FDCWD, to), from, to);
}
PROVIO_EXPORT int renameat(int fromdir, const char* from, int todir, const char* to) noexcept {
  return traced(s_renameat, renamed<s_renameat>(fromdir, from, todir, to), fromdir, from, todir, to);
}
PROVIO_EXPORT int renameat2(int fromdir, const char* from, int todir, const char* to,
                            unsigned flags) noexcept {
  return traced(s_renameat2, renamed<s_renameat2>(fromdir, from, todir, to), fromdir, from, todir, to, flags);
}
PROVIO_EXPORT int unlink(const char* path) noexcept {
  return traced(s_unlink, on_name_change<s_unlink>(Op::kDelete, AT_FDCWD, path, EntityClass::kFile), path);
}
PROVIO_EXPORT int unlinkat(int dirfd, const char* path, int flags) noexcept {
  EntityClass cls = (flags & AT_REMOVEDIR) ? EntityClass::kDirectory : EntityClass::kFile;
  return traced(s_unlinkat, on_name_change<s_unlinkat>(Op::kDelete, dirfd, path, cls), dirfd, path, flags);
}
PROVIO_EXPORT int rmdir(const char* path) noexcept {
  return traced(s_rmdir, on_name_change<s_rmdir>(Op::kDelete, AT_FDCWD, path, EntityClass::kDirectory), path);
}
PROVIO_EXPORT int mkdir(const char* path, mode_t mode) noexcept {
  return traced(s_mkdir, on_name_change<s_mkdir>(Op::kCreate, AT_FDCWD, path, EntityClass::kDirectory), path,
                mode);
}
PROVIO_EXPORT int mkdirat(int dirfd, const char* path, mode_t mode) noexcept {
  return traced(s_mkdirat, on_name_change<s_mkdirat>(Op::kCreate, dirfd, path, EntityClass::kDirectory),
                dirfd, path, mode);
}
PROVIO_EXPORT int link(const char* from, const char* to) noexcept {
  return traced(s_link, linked<s_link>(AT_FDCWD, from, AT_FDCWD, to, false), from, to);
}
PROVIO_EXPORT int linkat(int fromdir, const char* from, int todir, const char* to, int flags) noexcept {
  return traced(s_linkat, linked<s_linkat>(fromdir, from, todir, to, (flags & AT_SYMLINK_FOLLOW) != 0),
                fromdir, from, todir, to, flags);
}
PROVIO_EXPORT int symlink(const char* target, const char* path) noexcept {
  return traced(s_symlink, on_name_change<s_symlink>(Op::kCreate, AT_FDCWD, path, EntityClass::kFile), target,
                path);
}
PROVIO_EXPORT int symlinkat(const char* target, int dirfd, const char* path) noexcept {
  return traced(s_symlinkat, on_name_change<s_symlinkat>(Op::kCreate, dirfd, path, EntityClass::kFile),
                target, dirfd, path);
}
PROVIO_EXPORT int chdir(const char* path) noexcept {
  return traced(
      s_chdir,
      [](int r, const Timing&) {
        if (r == 0) names_changed();
      },
      path);
}
PROVIO_EXPORT int fchdir(int fd) noexcept {
  return traced(
      s_fchdir,
      [](int r, const Timing&) {
        if (r == 0) names_changed();
      },
      fd);
}

// ---- stat family ----

PROVIO_EXPORT int stat(const char* path, struct stat* st) noexcept {
  return traced(s_stat, stat_path<s_stat>(AT_FDCWD, path, true, st), path, st);
}
PROVIO_EXPORT int stat64(const char* path, struct stat64* st) noexcept {
  return traced(s_stat64, stat_path<s_stat64>(AT_FDCWD, path, true, st), path, st);
}
PROVIO_EXPORT int lstat(const char* path, struct stat* st) noexcept {
  return traced(s_lstat, stat_path<s_lstat>(AT_FDCWD, path, false, st), path, st);
}
PROVIO_EXPORT int lstat64(const char* path, struct stat64* st) noexcept {
  return traced(s_lstat64, stat_path<s_lstat64>(AT_FDCWD, path, false, st), path, st);
}
PROVIO_EXPORT int fstat(int fd, struct stat* st) noexcept {
  return traced(s_fstat, on_fd<s_fstat>(Op::kAccess, fd), fd, st);
}
PROVIO_EXPORT int fstat64(int fd, struct stat64* st) noexcept {
  return traced(s_fstat64, on_fd<s_fstat64>(Op::kAccess, fd), fd, st);
}
PROVIO_EXPORT int fstatat(int dirfd, const char* path, struct stat* st, int flags) noexcept {
  return traced(s_fstatat, stat_at<s_fstatat>(dirfd, path, flags, st), dirfd, path, st, flags);
}
PROVIO_EXPORT int fstatat64(int dirfd, const char* path, struct stat64* st, int flags) noexcept {
  return traced(s_fstatat64, stat_at<s_fstatat64>(dirfd, path, flags, st), dirfd, path, st, flags);
}
PROVIO_EXPORT int statx(int dirfd, const char* path, int flags, unsigned mask, struct statx* stx) noexcept {
  return traced(
      s_statx,
      [dirfd, path, flags, stx](int r, const Timing& t) {
        if (r != 0 || !(stx->stx_mask & STATX_TYPE)) return;
        struct stat st {};
        st.st_mode = stx->stx_mode;
        stat_at<s_statx>(dirfd, path, flags, &st)(r, t);
      },
      dirfd, path, flags, mask, stx);
}
PROVIO_EXPORT int __xstat(int ver, const char* path, struct stat* st) {
  return traced(s_xstat, stat_path<s_xstat>(AT_FDCWD, path, true, st), ver, path, st);
}
PROVIO_EXPORT int __xstat64(int ver, const char* path, struct stat64* st) {
  return traced(s_xstat64, stat_path<s_xstat64>(AT_FDCWD, path, true, st), ver, path, st);
}
PROVIO_EXPORT int __lxstat(int ver, const char* path, struct stat* st) {
  return traced(s_lxstat, stat_path<s_lxstat>(AT_FDCWD, path, false, st), ver, path, st);
}
PROVIO_EXPORT int __lxstat64(int ver, const char* path, struct stat64* st) {
  return traced(s_lxstat64, stat_path<s_lxstat64>(AT_FDCWD, path, false, st), ver, path, st);
}
PROVIO_EXPORT int __fxstat(int ver, int fd, struct stat* st) {
  return traced(s_fxstat, on_fd<s_fxstat>(Op::kAccess, fd), ver, fd, st);
}
PROVIO_EXPORT int __fxstat64(int ver, int fd, struct stat64* st) {
  return traced(s_fxstat64, on_fd<s_fxstat64>(Op::kAccess, fd), ver, fd, st);
}
PROVIO_EXPORT int __fxstatat(int ver, int dirfd, const char* path, struct stat* st, int flags) {
  return traced(s_fxstatat, stat_at<s_fxstatat>(dirfd, path, flags, st), ver, dirfd, path, st, flags);
}
PROVIO_EXPORT int __fxstatat64(int ver, int dirfd, const char* path, struct stat64* st, int flags) {
  return traced(s_fxstatat64, stat_at<s_fxstatat64>(dirfd, path, flags, st), ver, dirfd, path, st, flags);
}

// ---- stdio ----

PROVIO_EXPORT FILE* fopen(const char* path, const char* mode) {
  return traced(s_fopen, on_stream_open<s_fopen>(path, mode), path, mode);
}
PROVIO_EXPORT FILE* fopen64(const char* path, const char* mode) {
  return traced(s_fopen64, on_stream_open<s_fopen64>(path, mode), path, mode);
}
PROVIO_EXPORT FILE* freopen(const char* path, const char* mode, FILE* f) {
  return traced(s_freopen, on_stream_open<s_freopen>(path, mode), path, mode, f);
}
PROVIO_EXPORT FILE* freopen64(const char* path, const char* mode, FILE* f) {
  return traced(s_freopen64, on_stream_open<s_freopen64>(path, mode), path, mode, f);
}
PROVIO_EXPORT FILE* fdopen(int fd, const char* mode) noexcept {
  return traced(
      s_fdopen,
      [fd](FILE* f, const Timing& t) {
        if (f) emit(Op::kOpen, s_fdopen.api(), fd_entity(fd), 0, kNoOffset, t);
      },
      fd, mode);
}

PROVIO_EXPORT int fclose(FILE* f) {
  return closed(s_fclose, stream_fd(f), f);
}

PROVIO_EXPORT size_t fread(void* ptr, size_t size, size_t n, FILE* f) {
  return traced(s_fread, on_stream<s_fread, Op::kRead>(f, items_of(size)), ptr, size, n, f);
}
PROVIO_EXPORT size_t fread_unlocked(void* ptr, size_t size, size_t n, FILE* f) {
  return traced(s_fread_unlocked, on_stream<s_fread_unlocked, Op::kRead>(f, items_of(size)), ptr, size, n, f);
}
PROVIO_EXPORT size_t __fread_chk(void* ptr, size_t ptrlen, size_t size, size_t n, FILE* f) {
  return traced(s_fread_chk, on_stream<s_fread_chk, Op::kRead>(f, items_of(size)), ptr, ptrlen, size, n, f);
}
PROVIO_EXPORT size_t __fread_unlocked_chk(void* ptr, size_t ptrlen, size_t size, size_t n, FILE* f) {
  return traced(s_fread_unlocked_chk, on_stream<s_fread_unlocked_chk, Op::kRead>(f, items_of(size)), ptr,
                ptrlen, size, n, f);
}
PROVIO_EXPORT size_t fwrite(const void* ptr, size_t size, size_t n, FILE* f) {
  return traced(s_fwrite, on_stream<s_fwrite, Op::kWrite>(f, items_of(size)), ptr, size, n, f);
}
PROVIO_EXPORT size_t fwrite_unlocked(const void* ptr, size_t size, size_t n, FILE* f) {
  return traced(s_fwrite_unlocked, on_stream<s_fwrite_unlocked, Op::kWrite>(f, items_of(size)), ptr, size, n,
                f);
}
PROVIO_EXPORT char* fgets(char* s, int n, FILE* f) {
  return traced(s_fgets, on_stream<s_fgets, Op::kRead>(f, line_length), s, n, f);
}
PROVIO_EXPORT char* fgets_unlocked(char* s, int n, FILE* f) {
  return traced(s_fgets_unlocked, on_stream<s_fgets_unlocked, Op::kRead>(f, line_length), s, n, f);
}
PROVIO_EXPORT char* __fgets_chk(char* s, size_t size, int n, FILE* f) {
  return traced(s_fgets_chk, on_stream<s_fgets_chk, Op::kRead>(f, line_length), s, size, n, f);
}
PROVIO_EXPORT char* __fgets_unlocked_chk(char* s, size_t size, int n, FILE* f) {
  return traced(s_fgets_unlocked_chk, on_stream<s_fgets_unlocked_chk, Op::kRead>(f, line_length), s, size, n,
                f);
}
PROVIO_EXPORT ssize_t getline(char** line, size_t* n, FILE* f) {
  auto moved = [](ssize_t r) { return static_cast<std::int64_t>(r); };
  return traced(s_getline, on_stream<s_getline, Op::kRead>(f, moved), line, n, f);
}
PROVIO_EXPORT ssize_t getdelim(char** line, size_t* n, int delim, FILE* f) {
  auto moved = [](ssize_t r) { return static_cast<std::int64_t>(r); };
  return traced(s_getdelim, on_stream<s_getdelim, Op::kRead>(f, moved), line, n, delim, f);
}
PROVIO_EXPORT ssize_t __getdelim(char** line, size_t* n, int delim, FILE* f) {
  auto moved = [](ssize_t r) { return static_cast<std::int64_t>(r); };
  return traced(s_getdelim_internal, on_stream<s_getdelim_internal, Op::kRead>(f, moved), line, n, delim, f);
}
PROVIO_EXPORT int fputs(const char* s, FILE* f) {
  return traced(s_fputs, on_stream<s_fputs, Op::kWrite>(f, length_on_success(s)), s, f);
}
PROVIO_EXPORT int fputs_unlocked(const char* s, FILE* f) {
  return traced(s_fputs_unlocked, on_stream<s_fputs_unlocked, Op::kWrite>(f, length_on_success(s)), s, f);
}
PROVIO_EXPORT int puts(const char* s) {
  return traced(s_puts, on_stream<s_puts, Op::kWrite>(stdout, length_on_success(s, 1)), s);
}

PROVIO_EXPORT int vfprintf(FILE* f, const char* fmt, va_list ap) {
  return traced(s_vfprintf, on_stream<s_vfprintf, Op::kWrite>(f, printed), f, fmt, ap);
}
PROVIO_EXPORT int fprintf(FILE* f, const char* fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  int r = traced(s_fprintf, on_stream<s_fprintf, Op::kWrite>(f, printed), f, fmt, ap);
  va_end(ap);
  return r;
}
PROVIO_EXPORT int vprintf(const char* fmt, va_list ap) {
  return traced(s_vprintf, on_stream<s_vprintf, Op::kWrite>(stdout, printed), stdout, fmt, ap);
}
PROVIO_EXPORT int printf(const char* fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  int r = traced(s_printf, on_stream<s_printf, Op::kWrite>(stdout, printed), stdout, fmt, ap);
  va_end(ap);
  return r;
}
PROVIO_EXPORT int __vfprintf_chk(FILE* f, int flag, const char* fmt, va_list ap) {
  return traced(s_vfprintf_chk, on_stream<s_vfprintf_chk, Op::kWrite>(f, printed), f, flag, fmt, ap);
}
PROVIO_EXPORT int __fprintf_chk(FILE* f, int flag, const char* fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  int r = traced(s_fprintf_chk, on_stream<s_fprintf_chk, Op::kWrite>(f, printed), f, flag, fmt, ap);
  va_end(ap);
  return r;
}
PROVIO_EXPORT int __vprintf_chk(int flag, const char* fmt, va_list ap) {
  return traced(s_vprintf_chk, on_stream<s_vprintf_chk, Op::kWrite>(stdout, printed), stdout, flag, fmt, ap);
}
PROVIO_EXPORT int __printf_chk(int flag, const char* fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  int r = traced(s_printf_chk, on_stream<s_printf_chk, Op::kWrite>(stdout, printed), stdout, flag, fmt, ap);
  va_end(ap);
  return r;
}

PROVIO_EXPORT int fflush(FILE* f) {
  if (!f) return passthrough(s_fflush, f);  // all streams: nothing to attribute
  return traced(s_fflush, on_stream<s_fflush, Op::kFlush>(f, zero_on_success), f);
}
PROVIO_EXPORT int fseek(FILE* f, long off, int whence) {
  return traced(s_fseek, on_stream<s_fseek, Op::kAccess>(f, zero_on_success), f, off, whence);
}
PROVIO_EXPORT int fseeko(FILE* f, off_t off, int whence) {
  return traced(s_fseeko, on_stream<s_fseeko, Op::kAccess>(f, zero_on_success), f, off, whence);
}
PROVIO_EXPORT int fseeko64(FILE* f, off64_t off, int whence) {
  return traced(s_fseeko64, on_stream<s_fseeko64, Op::kAccess>(f, zero_on_success), f, off, whence);
}

// ---- directories: a listing is a read of the directory, one count per entry ----

PROVIO_EXPORT DIR* opendir(const char* path) {
  return traced(
      s_opendir,
      [path](DIR* d, const Timing& t) {
        if (d) emit(Op::kOpen, s_opendir.api(), bind_opened(dirfd(d), AT_FDCWD, path, true), 0, kNoOffset, t);
      },
      path);
}
PROVIO_EXPORT DIR* fdopendir(int fd) {
  return traced(
      s_fdopendir,
      [fd](DIR* d, const Timing& t) {
        if (d) emit(Op::kOpen, s_fdopendir.api(), fd_entity(fd), 0, kNoOffset, t);
      },
      fd);
}
PROVIO_EXPORT int closedir(DIR* d) {
  int fd;
  {
    provio::model::ErrnoSaver saved;
    fd = dir_fd(d);
  }
  int result = traced(
      s_closedir,
      [fd](int r, const Timing& t) {
        if (r == 0) emit(Op::kClose, s_closedir.api(), known_entity(fd), 0, kNoOffset, t);
      },
      d);
  if (fd >= 0) fd_table().clear(fd);  // closed inside libc, where close() is not seen
  return result;
}
PROVIO_EXPORT struct dirent* readdir(DIR* d) {
  return traced(
      s_readdir,
      [d](struct dirent* e, const Timing& t) {
        if (e) emit(Op::kRead, s_readdir.api(), known_entity(dirfd(d)), 0, kNoOffset, t);
      },
      d);
}
PROVIO_EXPORT struct dirent64* readdir64(DIR* d) {
  return traced(
      s_readdir64,
      [d](struct dirent64* e, const Timing& t) {
        if (e) emit(Op::kRead, s_readdir64.api(), known_entity(dirfd(d)), 0, kNoOffset, t);
      },
      d);
}

// ---- exec and spawn ----

// vfork is fork here (POSIX allows it). A vfork child shares its parent's memory until it execs:
// anything it recorded would land in the parent's buffers, and a flush there would write through
// descriptor numbers that mean other files in the parent. As a fork child it is a program execution
// of its own, with its own files, and its exec records and flushes like any other (dash runs every
// command through vfork). glibc's posix_spawn children run no wrapped code, so they stay fast.
PROVIO_EXPORT pid_t vfork() noexcept {
  return passthrough(s_vfork);
}

PROVIO_EXPORT int execve(const char* path, char* const argv[], char* const envp[]) noexcept {
  return exec_with(s_execve, false, path, argv, envp);
}
PROVIO_EXPORT int execv(const char* path, char* const argv[]) noexcept {
  return exec_with(s_execv, false, path, argv, environ);
}
PROVIO_EXPORT int execvp(const char* file, char* const argv[]) noexcept {
  return exec_with(s_execvp, true, file, argv, environ);
}
PROVIO_EXPORT int execvpe(const char* file, char* const argv[], char* const envp[]) noexcept {
  return exec_with(s_execvpe, true, file, argv, envp);
}
PROVIO_EXPORT int execl(const char* path, const char* arg, ...) noexcept {
  va_list ap;
  va_start(ap, arg);
  int r = exec_list(s_execl, false, path, arg, ap, false);
  va_end(ap);
  return r;
}
PROVIO_EXPORT int execlp(const char* file, const char* arg, ...) noexcept {
  va_list ap;
  va_start(ap, arg);
  int r = exec_list(s_execlp, true, file, arg, ap, false);
  va_end(ap);
  return r;
}
PROVIO_EXPORT int execle(const char* path, const char* arg, ...) noexcept {
  va_list ap;
  va_start(ap, arg);
  int r = exec_list(s_execle, false, path, arg, ap, true);
  va_end(ap);
  return r;
}
PROVIO_EXPORT int fexecve(int fd, char* const argv[], char* const envp[]) noexcept {
  return with_child_env(
      s_fexecve, Hand::kOver, [fd] { return fd_entity(fd); }, envp,
      [fd, argv](char* const* env) { return passthrough(s_fexecve, fd, argv, env); });
}

PROVIO_EXPORT int posix_spawn(pid_t* pid, const char* path, const posix_spawn_file_actions_t* actions,
                              const posix_spawnattr_t* attr, char* const argv[], char* const envp[]) {
  return with_child_env(
      s_posix_spawn, Hand::kSpawn, [path] { return program_entity(path ? path : ""); }, envp,
      [=](char* const* env) { return passthrough(s_posix_spawn, pid, path, actions, attr, argv, env); });
}
PROVIO_EXPORT int posix_spawnp(pid_t* pid, const char* file, const posix_spawn_file_actions_t* actions,
                               const posix_spawnattr_t* attr, char* const argv[], char* const envp[]) {
  return with_child_env(
      s_posix_spawnp, Hand::kSpawn, [file] { return program_entity(search_path(file)); }, envp,
      [=](char* const* env) { return passthrough(s_posix_spawnp, pid, file, actions, attr, argv, env); });
}
