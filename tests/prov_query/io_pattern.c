/* A known I/O pattern per MPI rank, for prov-query io's exactness test (io_test.py holds the same
 * numbers as its expectations). Run in an empty directory: `io_pattern` under mpirun -np 2.
 * Rank r:
 *   POSIX  posix_<r>.dat: 3(r+1) writes of 50 B and 2 writes of 5000 B; then 4 reads of 50 B and
 *          1 read of 2000 B.
 *   POSIX  shared.dat (both ranks): pwrites of 4096 B, rank 0 one, rank 1 three.
 *   STDIO  stdio_<r>.txt: 2 fwrites of 1024 B; then 2 freads of 1024 B (the top of Darshan's
 *          100_1k bucket, its bound inclusive).
 *   HDF5   data.h5 (MPI-IO): /indep (2 x 16 doubles), the rank's row written independently 3 times
 *          (128 B) and read twice; /coll (2 x 2048 doubles), the rank's row written collectively
 *          twice (16384 B) and read collectively once.
 * Every call is checked; any failure exits 1 naming it. */
#include <fcntl.h>
#include <hdf5.h>
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static void check(int ok, const char* what) {
  if (!ok) {
    fprintf(stderr, "io_pattern: %s failed\n", what);
    exit(1);
  }
}

static char buf[1 << 16];

static void posix_part(int rank) {
  char name[32];
  snprintf(name, sizeof name, "posix_%d.dat", rank);
  int fd = open(name, O_CREAT | O_TRUNC | O_WRONLY, 0644);
  check(fd >= 0, "open for writing");
  for (int i = 0; i < 3 * (rank + 1); ++i) check(write(fd, buf, 50) == 50, "write 50");
  for (int i = 0; i < 2; ++i) check(write(fd, buf, 5000) == 5000, "write 5000");
  check(close(fd) == 0, "close");
  fd = open(name, O_RDONLY);
  check(fd >= 0, "open for reading");
  for (int i = 0; i < 4; ++i) check(read(fd, buf, 50) == 50, "read 50");
  check(read(fd, buf, 2000) == 2000, "read 2000");
  check(close(fd) == 0, "close");

  fd = open("shared.dat", O_CREAT | O_WRONLY, 0644);
  check(fd >= 0, "open shared.dat");
  for (int i = 0; i < (rank == 0 ? 1 : 3); ++i)
    check(pwrite(fd, buf, 4096, (off_t)(rank * 4 + i) * 4096) == 4096, "pwrite 4096");
  check(close(fd) == 0, "close shared.dat");
}

static void stdio_part(int rank) {
  char name[32];
  snprintf(name, sizeof name, "stdio_%d.txt", rank);
  FILE* f = fopen(name, "w");
  check(f != NULL, "fopen for writing");
  for (int i = 0; i < 2; ++i) check(fwrite(buf, 1, 1024, f) == 1024, "fwrite 1024");
  check(fclose(f) == 0, "fclose");
  f = fopen(name, "r");
  check(f != NULL, "fopen for reading");
  for (int i = 0; i < 2; ++i) check(fread(buf, 1, 1024, f) == 1024, "fread 1024");
  check(fclose(f) == 0, "fclose");
}

/* Writes (or reads) the rank's row of `dset` (`cols` doubles) `times` times with transfer `mode`. */
static void rows(hid_t dset, int rank, hsize_t cols, H5FD_mpio_xfer_t mode, int times, int write) {
  hid_t space = H5Dget_space(dset);
  hsize_t start[2] = {(hsize_t)rank, 0}, count[2] = {1, cols};
  check(H5Sselect_hyperslab(space, H5S_SELECT_SET, start, NULL, count, NULL) >= 0, "select row");
  hid_t mem = H5Screate_simple(2, count, NULL);
  hid_t dxpl = H5Pcreate(H5P_DATASET_XFER);
  check(H5Pset_dxpl_mpio(dxpl, mode) >= 0, "set transfer mode");
  static double row[2048];
  for (int i = 0; i < times; ++i) {
    herr_t e = write ? H5Dwrite(dset, H5T_NATIVE_DOUBLE, mem, space, dxpl, row)
                     : H5Dread(dset, H5T_NATIVE_DOUBLE, mem, space, dxpl, row);
    check(e >= 0, write ? "H5Dwrite" : "H5Dread");
  }
  H5Pclose(dxpl);
  H5Sclose(mem);
  H5Sclose(space);
}

static void hdf5_part(int rank) {
  hid_t fapl = H5Pcreate(H5P_FILE_ACCESS);
  check(H5Pset_fapl_mpio(fapl, MPI_COMM_WORLD, MPI_INFO_NULL) >= 0, "set MPI-IO driver");
  hid_t file = H5Fcreate("data.h5", H5F_ACC_TRUNC, H5P_DEFAULT, fapl);
  check(file >= 0, "H5Fcreate");
  hsize_t small[2] = {2, 16}, large[2] = {2, 2048};
  hid_t s1 = H5Screate_simple(2, small, NULL), s2 = H5Screate_simple(2, large, NULL);
  hid_t indep = H5Dcreate2(file, "indep", H5T_NATIVE_DOUBLE, s1, H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT);
  hid_t coll = H5Dcreate2(file, "coll", H5T_NATIVE_DOUBLE, s2, H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT);
  check(indep >= 0 && coll >= 0, "H5Dcreate2");
  rows(indep, rank, 16, H5FD_MPIO_INDEPENDENT, 3, 1);
  rows(coll, rank, 2048, H5FD_MPIO_COLLECTIVE, 2, 1);
  rows(indep, rank, 16, H5FD_MPIO_INDEPENDENT, 2, 0);
  rows(coll, rank, 2048, H5FD_MPIO_COLLECTIVE, 1, 0);
  H5Dclose(indep);
  H5Dclose(coll);
  H5Sclose(s1);
  H5Sclose(s2);
  check(H5Fclose(file) >= 0, "H5Fclose");
  H5Pclose(fapl);
}

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int rank = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  memset(buf, 'x', sizeof buf);
  posix_part(rank);
  stdio_part(rank);
  hdf5_part(rank);
  MPI_Finalize();
  return 0;
}
