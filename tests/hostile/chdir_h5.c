/* HDF5 files of the same relative name in two directories: create A/x.h5, chdir to B, create
 * another x.h5 and write a dataset there. The dataset is B/x.h5's (on main the VOL connector
 * cached files by the relative name they were opened with and recorded it under A/x.h5; issue 10
 * item 4a).
 *   chdir_h5 <dir> */
#include <hdf5.h>
#include <stdio.h>
#include <sys/stat.h>
#include <unistd.h>

static int make(const char* dataset) {
  hid_t f = H5Fcreate("x.h5", H5F_ACC_TRUNC, H5P_DEFAULT, H5P_DEFAULT);
  hsize_t dims[1] = {8};
  hid_t space = H5Screate_simple(1, dims, NULL);
  hid_t d = H5Dcreate2(f, dataset, H5T_NATIVE_INT, space, H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT);
  int v[8] = {1, 2, 3, 4, 5, 6, 7, 8};
  herr_t w = H5Dwrite(d, H5T_NATIVE_INT, H5S_ALL, H5S_ALL, H5P_DEFAULT, v);
  H5Dclose(d);
  H5Sclose(space);
  H5Fclose(f);
  return w < 0;
}

int main(int argc, char** argv) {
  if (argc != 2 || chdir(argv[1]) != 0 || mkdir("A", 0755) != 0 || mkdir("B", 0755) != 0) return 2;
  if (chdir("A") != 0 || make("first") != 0) return 3;
  if (chdir("../B") != 0 || make("data") != 0) return 4;
  puts("done");
  return 0;
}
