/* Step 3 of the DASSA-style example: a serial analysis of the decimated data.
 *   analyze IN.h5
 * Reads /DAS/decimated and prints the RMS amplitude of the loudest channel. */
#include <hdf5.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

int main(int argc, char** argv) {
  if (argc < 2) {
    fprintf(stderr, "usage: analyze IN.h5\n");
    return 1;
  }
  hid_t file = H5Fopen(argv[1], H5F_ACC_RDONLY, H5P_DEFAULT);
  if (file < 0) return fprintf(stderr, "analyze: cannot open %s\n", argv[1]), 1;
  hid_t dset = H5Dopen2(file, "/DAS/decimated", H5P_DEFAULT);
  hid_t space = H5Dget_space(dset);
  hsize_t dims[2];
  H5Sget_simple_extent_dims(space, dims, NULL);
  float* buf = malloc(dims[0] * dims[1] * sizeof *buf);
  if (H5Dread(dset, H5T_NATIVE_FLOAT, H5S_ALL, H5S_ALL, H5P_DEFAULT, buf) < 0) return 1;
  double best = 0;
  hsize_t best_channel = 0;
  for (hsize_t c = 0; c < dims[0]; ++c) {
    double sum = 0;
    for (hsize_t t = 0; t < dims[1]; ++t) sum += (double)buf[c * dims[1] + t] * buf[c * dims[1] + t];
    double rms = sqrt(sum / (double)dims[1]);
    if (rms > best) best = rms, best_channel = c;
  }
  printf("analyze: loudest channel %llu, RMS %.4f\n", (unsigned long long)best_channel, best);
  free(buf);
  H5Sclose(space);
  H5Dclose(dset);
  H5Fclose(file);
  return 0;
}
