// 4-rank test program for the VOL connector: a 2-D dataset written collectively by row blocks of
// different heights (rank r writes r+1 rows, so every rank's byte count is distinct), then the
// same blocks again independently through the same transfer list, switched in place (a
// connector must read each transfer's mode, not remember a list's), with groups and attributes;
// then read back independently in full by every rank.
//   mpirun -np 4 vol_mpi_rw FILE COLS
#include <hdf5.h>
#include <mpi.h>

#include <cstdio>
#include <cstdlib>
#include <vector>

namespace {

void check(bool ok, const char* what, int rank) {
  if (!ok) {
    std::fprintf(stderr, "vol_mpi_rw[%d]: %s failed\n", rank, what);
    MPI_Abort(MPI_COMM_WORLD, 2);
  }
}

}  // namespace

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int rank = 0, size = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  if (argc != 3) {
    if (rank == 0) std::fprintf(stderr, "usage: vol_mpi_rw FILE COLS\n");
    MPI_Finalize();
    return 1;
  }
  const hsize_t cols = std::strtoull(argv[2], nullptr, 10);
  const hsize_t rows = static_cast<hsize_t>(size) * (size + 1) / 2;  // 1 + 2 + … + size

  hid_t fapl = H5Pcreate(H5P_FILE_ACCESS);
  check(H5Pset_fapl_mpio(fapl, MPI_COMM_WORLD, MPI_INFO_NULL) >= 0, "H5Pset_fapl_mpio", rank);
  hid_t f = H5Fcreate(argv[1], H5F_ACC_TRUNC, H5P_DEFAULT, fapl);
  check(f >= 0, "H5Fcreate", rank);
  hid_t g = H5Gcreate2(f, "sim", H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT);
  hid_t g2 = H5Gcreate2(g, "fields", H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT);
  check(g >= 0 && g2 >= 0, "H5Gcreate2", rank);
  const hsize_t dims[2] = {rows, cols};
  hid_t fspace = H5Screate_simple(2, dims, nullptr);
  hid_t d = H5Dcreate2(g2, "density", H5T_NATIVE_DOUBLE, fspace, H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT);
  check(d >= 0, "H5Dcreate2", rank);

  // Rank r owns rows [r(r+1)/2, r(r+1)/2 + r + 1).
  const hsize_t start[2] = {static_cast<hsize_t>(rank) * (rank + 1) / 2, 0};
  const hsize_t count[2] = {static_cast<hsize_t>(rank) + 1, cols};
  check(H5Sselect_hyperslab(fspace, H5S_SELECT_SET, start, nullptr, count, nullptr) >= 0, "select", rank);
  hid_t mspace = H5Screate_simple(2, count, nullptr);
  std::vector<double> mine(count[0] * cols);
  for (std::size_t i = 0; i < mine.size(); ++i) mine[i] = rank * 1000.0 + static_cast<double>(i);
  hid_t coll = H5Pcreate(H5P_DATASET_XFER);
  check(H5Pset_dxpl_mpio(coll, H5FD_MPIO_COLLECTIVE) >= 0, "H5Pset_dxpl_mpio", rank);
  check(H5Dwrite(d, H5T_NATIVE_DOUBLE, mspace, fspace, coll, mine.data()) >= 0, "H5Dwrite", rank);
  check(H5Pset_dxpl_mpio(coll, H5FD_MPIO_INDEPENDENT) >= 0, "H5Pset_dxpl_mpio independent", rank);
  check(H5Dwrite(d, H5T_NATIVE_DOUBLE, mspace, fspace, coll, mine.data()) >= 0, "H5Dwrite independent", rank);

  // Attributes: created collectively, same value on every rank (parallel HDF5's rule).
  hid_t scalar = H5Screate(H5S_SCALAR);
  int step = 42;
  hid_t a = H5Acreate2(d, "step", H5T_NATIVE_INT, scalar, H5P_DEFAULT, H5P_DEFAULT);
  check(a >= 0 && H5Awrite(a, H5T_NATIVE_INT, &step) >= 0, "attribute step", rank);
  H5Aclose(a);
  double t = 0.125;
  a = H5Acreate2(g, "time", H5T_NATIVE_DOUBLE, scalar, H5P_DEFAULT, H5P_DEFAULT);
  check(a >= 0 && H5Awrite(a, H5T_NATIVE_DOUBLE, &t) >= 0, "attribute time", rank);
  H5Aclose(a);
  H5Dclose(d);
  H5Gclose(g2);
  H5Gclose(g);
  check(H5Fclose(f) >= 0, "H5Fclose", rank);

  // Read back: every rank reads everything, independently, and checks it.
  f = H5Fopen(argv[1], H5F_ACC_RDONLY, fapl);
  check(f >= 0, "H5Fopen", rank);
  d = H5Dopen2(f, "/sim/fields/density", H5P_DEFAULT);
  check(d >= 0, "H5Dopen2", rank);
  std::vector<double> all(rows * cols);
  check(H5Dread(d, H5T_NATIVE_DOUBLE, H5S_ALL, H5S_ALL, H5P_DEFAULT, all.data()) >= 0, "H5Dread", rank);
  for (int r = 0; r < size; ++r) {
    hsize_t first = static_cast<hsize_t>(r) * (r + 1) / 2;
    for (hsize_t i = 0; i < (r + 1) * cols; ++i) {
      check(all[first * cols + i] == r * 1000.0 + static_cast<double>(i), "content", rank);
    }
  }
  a = H5Aopen_by_name(f, "/sim", "time", H5P_DEFAULT, H5P_DEFAULT);
  double t2 = 0;
  check(a >= 0 && H5Aread(a, H5T_NATIVE_DOUBLE, &t2) >= 0 && t2 == t, "attribute read", rank);
  H5Aclose(a);
  H5Dclose(d);
  check(H5Fclose(f) >= 0, "H5Fclose", rank);
  for (hid_t x : {mspace, fspace, scalar}) H5Sclose(x);
  H5Pclose(coll);
  H5Pclose(fapl);
  MPI_Finalize();
  return 0;
}
