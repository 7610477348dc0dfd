/* A daemon-style program: does some I/O, forks (provio flushes before fork), closes every
 * descriptor from 3 up, then writes its result to a new file, which gets the lowest free number —
 * the one provio's output used. Built twice: plain POSIX I/O (under the preload library) and with
 * an HDF5 file first (under the VOL connector alone, where nothing intercepts close).
 *   close_all <dir> */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>
#ifdef WITH_HDF5
#include <hdf5.h>
#endif

static void path_in(char* buf, size_t n, const char* dir, const char* name) {
  snprintf(buf, n, "%s/%s", dir, name);
}

int main(int argc, char** argv) {
  if (argc != 2) return 2;
  char path[4096];
#ifdef WITH_HDF5
  path_in(path, sizeof path, argv[1], "data.h5");
  hid_t f = H5Fcreate(path, H5F_ACC_TRUNC, H5P_DEFAULT, H5P_DEFAULT);
  hsize_t dims[1] = {16};
  hid_t space = H5Screate_simple(1, dims, NULL);
  hid_t d = H5Dcreate2(f, "x", H5T_NATIVE_INT, space, H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT);
  int v[16] = {0};
  H5Dwrite(d, H5T_NATIVE_INT, H5S_ALL, H5S_ALL, H5P_DEFAULT, v);
  H5Dclose(d);
  H5Sclose(space);
  H5Fclose(f);
#else
  path_in(path, sizeof path, argv[1], "input.txt");
  int in = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0644);
  if (in < 0 || write(in, "input\n", 6) != 6) return 3;
  close(in);
#endif
  pid_t child = fork();
  if (child == 0) _exit(0);
  waitpid(child, NULL, 0);
  for (int fd = 3; fd < 1024; ++fd) close(fd);
  path_in(path, sizeof path, argv[1], "result.txt");
  int out = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0644);
  if (out < 0 || write(out, "result=42\n", 10) != 10) return 4;
  /* Left open on purpose: provio's exit flush must not find it. */
  return 0;
}
