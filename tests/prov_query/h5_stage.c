/* One stage of the DASSA pipeline as a real HDF5 program, for prov-query's end-to-end test under
 * the provio VOL connector (nothing provio-specific in the code):
 *   h5_stage acquire OUT.h5            writes /das/strain (1024 doubles) and /das/time (64)
 *   h5_stage decimate IN.h5 OUT.h5     reads IN's /das/strain, writes every 4th value to /dec
 *   h5_stage detect IN.h5              reads IN's /dec
 */
#include <hdf5.h>
#include <stdio.h>
#include <string.h>

static int write_dataset(hid_t file, const char* name, const double* data, hsize_t n) {
  hid_t space = H5Screate_simple(1, &n, NULL);
  hid_t dset = H5Dcreate2(file, name, H5T_NATIVE_DOUBLE, space, H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT);
  herr_t rc = dset < 0 ? -1 : H5Dwrite(dset, H5T_NATIVE_DOUBLE, H5S_ALL, H5S_ALL, H5P_DEFAULT, data);
  if (dset >= 0) H5Dclose(dset);
  H5Sclose(space);
  return rc < 0 ? -1 : 0;
}

static int read_dataset(hid_t file, const char* name, double* data) {
  hid_t dset = H5Dopen2(file, name, H5P_DEFAULT);
  if (dset < 0) return -1;
  herr_t rc = H5Dread(dset, H5T_NATIVE_DOUBLE, H5S_ALL, H5S_ALL, H5P_DEFAULT, data);
  H5Dclose(dset);
  return rc < 0 ? -1 : 0;
}

int main(int argc, char** argv) {
  static double strain[1024], time_axis[64], dec[256];
  int rc = 0;
  if (argc == 3 && strcmp(argv[1], "acquire") == 0) {
    for (int i = 0; i < 1024; ++i) strain[i] = i * 0.5;
    for (int i = 0; i < 64; ++i) time_axis[i] = i;
    hid_t f = H5Fcreate(argv[2], H5F_ACC_TRUNC, H5P_DEFAULT, H5P_DEFAULT);
    hid_t g = H5Gcreate2(f, "/das", H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT);
    rc = f < 0 || g < 0 || write_dataset(f, "/das/strain", strain, 1024) ||
         write_dataset(f, "/das/time", time_axis, 64);
    H5Gclose(g);
    H5Fclose(f);
  } else if (argc == 4 && strcmp(argv[1], "decimate") == 0) {
    hid_t in = H5Fopen(argv[2], H5F_ACC_RDONLY, H5P_DEFAULT);
    rc = in < 0 || read_dataset(in, "/das/strain", strain);
    H5Fclose(in);
    for (int i = 0; i < 256; ++i) dec[i] = strain[4 * i];
    hid_t out = H5Fcreate(argv[3], H5F_ACC_TRUNC, H5P_DEFAULT, H5P_DEFAULT);
    rc = rc || out < 0 || write_dataset(out, "/dec", dec, 256);
    H5Fclose(out);
  } else if (argc == 3 && strcmp(argv[1], "detect") == 0) {
    hid_t in = H5Fopen(argv[2], H5F_ACC_RDONLY, H5P_DEFAULT);
    rc = in < 0 || read_dataset(in, "/dec", dec);
    H5Fclose(in);
    rc = rc || dec[1] != 2.0;
  } else {
    fprintf(stderr, "usage: h5_stage acquire OUT | decimate IN OUT | detect IN\n");
    return 1;
  }
  if (rc) fprintf(stderr, "h5_stage %s failed\n", argv[1]);
  return rc ? 1 : 0;
}
