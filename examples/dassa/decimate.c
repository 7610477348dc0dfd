/* Step 2 of the DASSA-style example: decimate the strain data in time.
 *   mpirun -np N decimate IN.h5 OUT.h5 [factor] [dataset]
 * Reads /DAS/strain (or `dataset`: decimating a decimated file again) collectively, keeps every factor-th
 * sample (averaging each window), and writes /DAS/decimated to OUT.h5. */
#include "dassa_common.h"

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int rank, ranks;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &ranks);
  if (argc < 3) {
    if (rank == 0) fprintf(stderr, "usage: decimate IN.h5 OUT.h5 [factor] [dataset]\n");
    MPI_Finalize();
    return 1;
  }
  hsize_t factor = argc > 3 ? (hsize_t)atol(argv[3]) : 4;

  hid_t fapl = dassa_fapl();
  hid_t in = H5Fopen(argv[1], H5F_ACC_RDONLY, fapl);
  DASSA_CHECK(in);
  hid_t src = H5Dopen2(in, argc > 4 ? argv[4] : "/DAS/strain", H5P_DEFAULT);
  DASSA_CHECK(src);
  hid_t src_space = H5Dget_space(src);
  hsize_t dims[2];
  H5Sget_simple_extent_dims(src_space, dims, NULL);
  hsize_t first, rows;
  dassa_rows(rank, ranks, dims[0], &first, &rows);
  hsize_t start[2] = {first, 0}, count[2] = {rows, dims[1]};
  DASSA_CHECK(H5Sselect_hyperslab(src_space, H5S_SELECT_SET, start, NULL, count, NULL));
  hid_t mem = H5Screate_simple(2, count, NULL);
  float* buf = malloc(rows * dims[1] * sizeof *buf);
  hid_t dxpl = dassa_collective();
  DASSA_CHECK(H5Dread(src, H5T_NATIVE_FLOAT, mem, src_space, dxpl, buf));

  hsize_t out_samples = dims[1] / factor;
  float* out_buf = malloc(rows * out_samples * sizeof *out_buf);
  for (hsize_t c = 0; c < rows; ++c)
    for (hsize_t t = 0; t < out_samples; ++t) {
      float sum = 0;
      for (hsize_t k = 0; k < factor; ++k) sum += buf[c * dims[1] + t * factor + k];
      out_buf[c * out_samples + t] = sum / (float)factor;
    }

  hid_t out = H5Fcreate(argv[2], H5F_ACC_TRUNC, H5P_DEFAULT, fapl);
  DASSA_CHECK(out);
  hid_t group = H5Gcreate2(out, "/DAS", H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT);
  hsize_t out_dims[2] = {dims[0], out_samples};
  hid_t out_space = H5Screate_simple(2, out_dims, NULL);
  hid_t dst =
      H5Dcreate2(group, "decimated", H5T_NATIVE_FLOAT, out_space, H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT);
  DASSA_CHECK(dst);
  hsize_t out_count[2] = {rows, out_samples};
  DASSA_CHECK(H5Sselect_hyperslab(out_space, H5S_SELECT_SET, start, NULL, out_count, NULL));
  hid_t out_mem = H5Screate_simple(2, out_count, NULL);
  DASSA_CHECK(H5Dwrite(dst, H5T_NATIVE_FLOAT, out_mem, out_space, dxpl, out_buf));

  H5Sclose(out_mem);
  H5Sclose(out_space);
  H5Dclose(dst);
  H5Gclose(group);
  H5Fclose(out);
  H5Pclose(dxpl);
  H5Sclose(mem);
  H5Sclose(src_space);
  H5Dclose(src);
  H5Fclose(in);
  H5Pclose(fapl);
  free(buf);
  free(out_buf);
  if (rank == 0) printf("decimate: %s -> %s (factor %llu)\n", argv[1], argv[2], (unsigned long long)factor);
  MPI_Finalize();
  return 0;
}
