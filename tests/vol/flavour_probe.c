/* A serial HDF5 program for the wrong-flavour test (wrong_flavour_test.py): creates FILE with one
 * small dataset and reads it back. Exit status 0 when every call succeeded, 1 otherwise (HDF5
 * prints its error stack). */
#include <hdf5.h>
#include <stdio.h>

int main(int argc, char** argv) {
  if (argc != 2) {
    fprintf(stderr, "usage: flavour_probe FILE\n");
    return 2;
  }
  int data[4] = {1, 2, 3, 4}, back[4] = {0};
  hsize_t dims[1] = {4};
  hid_t file = H5Fcreate(argv[1], H5F_ACC_TRUNC, H5P_DEFAULT, H5P_DEFAULT);
  if (file < 0) return 1;
  hid_t space = H5Screate_simple(1, dims, NULL);
  hid_t dset = H5Dcreate2(file, "d", H5T_NATIVE_INT, space, H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT);
  int ok = space >= 0 && dset >= 0 &&
           H5Dwrite(dset, H5T_NATIVE_INT, H5S_ALL, H5S_ALL, H5P_DEFAULT, data) >= 0 &&
           H5Dread(dset, H5T_NATIVE_INT, H5S_ALL, H5S_ALL, H5P_DEFAULT, back) >= 0 && back[3] == 4;
  ok &= H5Dclose(dset) >= 0 && H5Sclose(space) >= 0 && H5Fclose(file) >= 0;
  return ok ? 0 : 1;
}
