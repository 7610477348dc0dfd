/* A rotating checkpoint as real HDF5 programs (nothing provio-specific in the code):
 *   ckpt train CKPT.h5 EPOCH     reads CKPT's /w (when EPOCH > 1), rewrites CKPT.h5 with w + 1
 *                                and an "epoch" attribute
 *   ckpt eval CKPT.h5 OUT.txt    reads CKPT's /w and epoch, writes "epoch E w W" to OUT.txt */
#include <hdf5.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int read_w(const char* path, double* w, long* epoch) {
  hid_t f = H5Fopen(path, H5F_ACC_RDONLY, H5P_DEFAULT);
  if (f < 0) return -1;
  hid_t d = H5Dopen2(f, "/w", H5P_DEFAULT);
  herr_t rc = d < 0 ? -1 : H5Dread(d, H5T_NATIVE_DOUBLE, H5S_ALL, H5S_ALL, H5P_DEFAULT, w);
  if (rc >= 0 && epoch) {
    hid_t a = H5Aopen(d, "epoch", H5P_DEFAULT);
    rc = a < 0 ? -1 : H5Aread(a, H5T_NATIVE_LONG, epoch);
    if (a >= 0) H5Aclose(a);
  }
  if (d >= 0) H5Dclose(d);
  H5Fclose(f);
  return rc < 0 ? -1 : 0;
}

static int write_w(const char* path, double w, long epoch) {
  hid_t f = H5Fcreate(path, H5F_ACC_TRUNC, H5P_DEFAULT, H5P_DEFAULT);
  if (f < 0) return -1;
  hid_t s = H5Screate(H5S_SCALAR);
  hid_t d = H5Dcreate2(f, "/w", H5T_NATIVE_DOUBLE, s, H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT);
  herr_t rc = d < 0 ? -1 : H5Dwrite(d, H5T_NATIVE_DOUBLE, H5S_ALL, H5S_ALL, H5P_DEFAULT, &w);
  hid_t a = d < 0 ? -1 : H5Acreate2(d, "epoch", H5T_NATIVE_LONG, s, H5P_DEFAULT, H5P_DEFAULT);
  if (a < 0 || H5Awrite(a, H5T_NATIVE_LONG, &epoch) < 0) rc = -1;
  if (a >= 0) H5Aclose(a);
  if (d >= 0) H5Dclose(d);
  H5Sclose(s);
  if (H5Fclose(f) < 0) rc = -1;
  return rc < 0 ? -1 : 0;
}

int main(int argc, char** argv) {
  if (argc != 4 || (strcmp(argv[1], "train") != 0 && strcmp(argv[1], "eval") != 0)) {
    fprintf(stderr, "usage: ckpt train CKPT.h5 EPOCH | ckpt eval CKPT.h5 OUT.txt\n");
    return 2;
  }
  double w = 0;
  long epoch = 0;
  if (strcmp(argv[1], "train") == 0) {
    epoch = atol(argv[3]);
    if (epoch > 1 && read_w(argv[2], &w, NULL) != 0)
      return fprintf(stderr, "ckpt: cannot read %s\n", argv[2]), 1;
    return write_w(argv[2], w + 1, epoch) == 0 ? 0 : 1;
  }
  if (read_w(argv[2], &w, &epoch) != 0) return fprintf(stderr, "ckpt: cannot read %s\n", argv[2]), 1;
  FILE* out = fopen(argv[3], "w");
  if (!out) return 1;
  fprintf(out, "epoch %ld w %g\n", epoch, w);
  return fclose(out) == 0 ? 0 : 1;
}
