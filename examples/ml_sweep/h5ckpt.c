/* Writes numpy weight matrices into an HDF5 checkpoint, for train.py through ctypes.
 *
 * Why a C helper: Debian's h5py links Debian's HDF5 1.10, into which provio's VOL connector (built
 * against HDF5 1.14) cannot load. This helper links our HDF5, so under HDF5_VOL_CONNECTOR the
 * checkpoint's H5Dwrite calls are recorded on file://…/run-N.h5#/weights/W1, an object of the
 * file file://…/run-N.h5 that train.py hands to provio.model().
 *
 * Returns 0 on success, -1 on any HDF5 error (train.py then falls back to .npz files). */
#include <hdf5.h>
#include <stddef.h>

/* Creates (truncates) `path` and writes each of the n row-major double matrices as
 * /weights/<names[i]>. */
int h5ckpt_write(const char* path, size_t n, const char* const* names, const double* const* data,
                 const size_t* rows, const size_t* cols) {
  int rc = -1;
  hid_t file = H5Fcreate(path, H5F_ACC_TRUNC, H5P_DEFAULT, H5P_DEFAULT);
  if (file < 0) return -1;
  hid_t group = H5Gcreate2(file, "weights", H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT);
  if (group >= 0) {
    rc = 0;
    for (size_t i = 0; i < n && rc == 0; ++i) {
      hsize_t dims[2] = {rows[i], cols[i]};
      hid_t space = H5Screate_simple(2, dims, NULL);
      hid_t dset = space < 0 ? -1
                             : H5Dcreate2(group, names[i], H5T_NATIVE_DOUBLE, space, H5P_DEFAULT, H5P_DEFAULT,
                                          H5P_DEFAULT);
      if (dset < 0 || H5Dwrite(dset, H5T_NATIVE_DOUBLE, H5S_ALL, H5S_ALL, H5P_DEFAULT, data[i]) < 0) rc = -1;
      if (dset >= 0) H5Dclose(dset);
      if (space >= 0) H5Sclose(space);
    }
    H5Gclose(group);
  }
  if (H5Fclose(file) < 0) rc = -1;
  return rc;
}
