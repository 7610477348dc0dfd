/* Step 1 of the DASSA-style example: "acquire" strain data from a fibre and store it.
 *   mpirun -np N acquire WestSac.h5 [channels] [samples]
 * Writes /DAS/strain (float, channels x samples, collective) with attributes. */
#include <math.h>
#include <string.h>

#include "dassa_common.h"

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int rank, ranks;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &ranks);
  if (argc < 2) {
    if (rank == 0) fprintf(stderr, "usage: acquire OUT.h5 [channels] [samples]\n");
    MPI_Finalize();
    return 1;
  }
  hsize_t channels = argc > 2 ? (hsize_t)atol(argv[2]) : 64;
  hsize_t samples = argc > 3 ? (hsize_t)atol(argv[3]) : 4096;

  hid_t fapl = dassa_fapl();
  hid_t file = H5Fcreate(argv[1], H5F_ACC_TRUNC, H5P_DEFAULT, fapl);
  DASSA_CHECK(file);
  hid_t group = H5Gcreate2(file, "/DAS", H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT);
  hsize_t dims[2] = {channels, samples};
  hid_t space = H5Screate_simple(2, dims, NULL);
  hid_t dset = H5Dcreate2(group, "strain", H5T_NATIVE_FLOAT, space, H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT);
  DASSA_CHECK(dset);

  hsize_t first, rows;
  dassa_rows(rank, ranks, channels, &first, &rows);
  float* buf = malloc(rows * samples * sizeof *buf);
  for (hsize_t c = 0; c < rows; ++c)
    for (hsize_t t = 0; t < samples; ++t)
      buf[c * samples + t] = (float)sin(0.01 * (double)t * (double)(first + c + 1));
  hsize_t start[2] = {first, 0}, count[2] = {rows, samples};
  hid_t mem = H5Screate_simple(2, count, NULL);
  DASSA_CHECK(H5Sselect_hyperslab(space, H5S_SELECT_SET, start, NULL, count, NULL));
  hid_t dxpl = dassa_collective();
  DASSA_CHECK(H5Dwrite(dset, H5T_NATIVE_FLOAT, mem, space, dxpl, buf));

  double rate = 500.0;
  hid_t scalar = H5Screate(H5S_SCALAR);
  hid_t attr = H5Acreate2(dset, "sampling_rate_hz", H5T_NATIVE_DOUBLE, scalar, H5P_DEFAULT, H5P_DEFAULT);
  DASSA_CHECK(H5Awrite(attr, H5T_NATIVE_DOUBLE, &rate));
  H5Aclose(attr);

  H5Sclose(scalar);
  H5Pclose(dxpl);
  H5Sclose(mem);
  H5Sclose(space);
  H5Dclose(dset);
  H5Gclose(group);
  H5Fclose(file);
  H5Pclose(fapl);
  free(buf);
  if (rank == 0)
    printf("acquire: wrote %llu channels x %llu samples to %s\n", (unsigned long long)channels,
           (unsigned long long)samples, argv[1]);
  MPI_Finalize();
  return 0;
}
