/* A minimal HDF5 binding for the Python scripts of this example (and tests/ml), through ctypes:
 * create or open a file, write and read float64 datasets (a slab of rows at a time), write
 * scalar attributes on the root group.
 *
 * Why C: Debian's h5py links Debian's HDF5 1.10, into which provio's VOL connector (HDF5 1.14)
 * cannot load; this library links our HDF5, so under HDF5_VOL_CONNECTOR every H5Dwrite /
 * H5Dread / H5Awrite below is recorded on the file's objects.
 *
 * Every function returns a negative value on any HDF5 error (and closes what it opened). */
#include <hdf5.h>

/* H5F_ACC_TRUNC create (create != 0) or read-only open; returns the file id. */
hid_t h5io_file(const char* path, int create) {
  return create ? H5Fcreate(path, H5F_ACC_TRUNC, H5P_DEFAULT, H5P_DEFAULT)
                : H5Fopen(path, H5F_ACC_RDONLY, H5P_DEFAULT);
}

int h5io_close(hid_t file) {
  return H5Fclose(file) < 0 ? -1 : 0;
}

/* Writes a rank-`ndims` float64 dataset `name` (intermediate groups created). */
int h5io_write(hid_t file, const char* name, int ndims, const hsize_t* dims, const double* data) {
  int rc = -1;
  hid_t lcpl = H5Pcreate(H5P_LINK_CREATE);
  hid_t space = H5Screate_simple(ndims, dims, NULL);
  if (lcpl >= 0 && space >= 0 && H5Pset_create_intermediate_group(lcpl, 1) >= 0) {
    hid_t dset = H5Dcreate2(file, name, H5T_NATIVE_DOUBLE, space, lcpl, H5P_DEFAULT, H5P_DEFAULT);
    if (dset >= 0) {
      rc = H5Dwrite(dset, H5T_NATIVE_DOUBLE, H5S_ALL, H5S_ALL, H5P_DEFAULT, data) < 0 ? -1 : 0;
      if (H5Dclose(dset) < 0) rc = -1;
    }
  }
  if (space >= 0) H5Sclose(space);
  if (lcpl >= 0) H5Pclose(lcpl);
  return rc;
}

/* The extents of dataset `name` into dims[0..max_dims); returns its rank. */
int h5io_shape(hid_t file, const char* name, int max_dims, hsize_t* dims) {
  hid_t dset = H5Dopen2(file, name, H5P_DEFAULT);
  if (dset < 0) return -1;
  hid_t space = H5Dget_space(dset);
  int rank = space < 0 ? -1 : H5Sget_simple_extent_ndims(space);
  if (rank > max_dims || (rank >= 0 && H5Sget_simple_extent_dims(space, dims, NULL) < 0)) rank = -1;
  if (space >= 0) H5Sclose(space);
  H5Dclose(dset);
  return rank;
}

/* Reads rows [first, first + count) of dataset `name` (along its first dimension) into `out`. */
int h5io_read_rows(hid_t file, const char* name, hsize_t first, hsize_t count, double* out) {
  hsize_t dims[8], start[8] = {0}, extent[8];
  int rank = h5io_shape(file, name, 8, dims);
  if (rank < 1 || first + count > dims[0]) return -1;
  for (int i = 0; i < rank; ++i) extent[i] = dims[i];
  start[0] = first;
  extent[0] = count;
  int rc = -1;
  hid_t dset = H5Dopen2(file, name, H5P_DEFAULT);
  hid_t fspace = dset < 0 ? -1 : H5Dget_space(dset);
  hid_t mspace = H5Screate_simple(rank, extent, NULL);
  if (fspace >= 0 && mspace >= 0 &&
      H5Sselect_hyperslab(fspace, H5S_SELECT_SET, start, NULL, extent, NULL) >= 0)
    rc = H5Dread(dset, H5T_NATIVE_DOUBLE, mspace, fspace, H5P_DEFAULT, out) < 0 ? -1 : 0;
  if (mspace >= 0) H5Sclose(mspace);
  if (fspace >= 0) H5Sclose(fspace);
  if (dset >= 0) H5Dclose(dset);
  return rc;
}

static int write_attribute(hid_t file, const char* name, hid_t type, const void* value) {
  hid_t space = H5Screate(H5S_SCALAR);
  hid_t attr = space < 0 ? -1 : H5Acreate2(file, name, type, space, H5P_DEFAULT, H5P_DEFAULT);
  int rc = attr < 0 || H5Awrite(attr, type, value) < 0 ? -1 : 0;
  if (attr >= 0 && H5Aclose(attr) < 0) rc = -1;
  if (space >= 0) H5Sclose(space);
  return rc;
}

int h5io_attr_double(hid_t file, const char* name, double value) {
  return write_attribute(file, name, H5T_NATIVE_DOUBLE, &value);
}

int h5io_attr_string(hid_t file, const char* name, const char* value) {
  hid_t type = H5Tcopy(H5T_C_S1);
  if (type < 0) return -1;
  int rc = H5Tset_size(type, H5T_VARIABLE) < 0 ? -1 : write_attribute(file, name, type, &value);
  H5Tclose(type);
  return rc;
}
