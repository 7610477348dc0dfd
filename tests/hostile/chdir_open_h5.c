/* An HDF5 file created under a relative name, a chdir, then a dataset of that file opened by a
 * path ("g/d") through the file: the dataset is the open file's. The connector used to resolve
 * the file's relative name again, against the new working directory, on every such open, and
 * recorded the dataset in B/x.h5, a file that does not exist.
 *   chdir_open_h5 <dir> */
#include <hdf5.h>
#include <stdio.h>
#include <sys/stat.h>
#include <unistd.h>

int main(int argc, char** argv) {
  if (argc != 2 || chdir(argv[1]) != 0 || mkdir("A", 0755) != 0 || mkdir("B", 0755) != 0) return 2;
  if (chdir("A") != 0) return 3;
  hid_t f = H5Fcreate("x.h5", H5F_ACC_TRUNC, H5P_DEFAULT, H5P_DEFAULT);
  hid_t g = H5Gcreate2(f, "g", H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT);
  hsize_t dims[1] = {4};
  hid_t space = H5Screate_simple(1, dims, NULL);
  hid_t d = H5Dcreate2(g, "d", H5T_NATIVE_INT, space, H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT);
  int v[4] = {1, 2, 3, 4};
  if (H5Dwrite(d, H5T_NATIVE_INT, H5S_ALL, H5S_ALL, H5P_DEFAULT, v) < 0) return 4;
  H5Dclose(d);
  H5Gclose(g);
  if (chdir("../B") != 0) return 5;
  d = H5Dopen2(f, "g/d", H5P_DEFAULT);
  int back[4] = {0};
  if (d < 0 || H5Dread(d, H5T_NATIVE_INT, H5S_ALL, H5S_ALL, H5P_DEFAULT, back) < 0 || back[3] != 4) return 6;
  H5Dclose(d);
  H5Sclose(space);
  H5Fclose(f);
  puts("done");
  return 0;
}
