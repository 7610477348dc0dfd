/* Step 3 of the DASSA-style example: a serial analysis of the decimated data.
 *   analyze IN.h5 [OUT.h5]
 * Reads /DAS/decimated and prints the RMS amplitude of the loudest channel; with OUT.h5, also
 * stores every channel's RMS amplitude there as /DAS/rms. */
#include <hdf5.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

int main(int argc, char** argv) {
  if (argc < 2) {
    fprintf(stderr, "usage: analyze IN.h5 [OUT.h5]\n");
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
  float* rms = malloc(dims[0] * sizeof *rms);
  double best = 0;
  hsize_t best_channel = 0;
  for (hsize_t c = 0; c < dims[0]; ++c) {
    double sum = 0;
    for (hsize_t t = 0; t < dims[1]; ++t) sum += (double)buf[c * dims[1] + t] * buf[c * dims[1] + t];
    rms[c] = (float)sqrt(sum / (double)dims[1]);
    if (rms[c] > best) best = rms[c], best_channel = c;
  }
  printf("analyze: loudest channel %llu, RMS %.4f\n", (unsigned long long)best_channel, best);
  if (argc > 2) {
    hid_t out = H5Fcreate(argv[2], H5F_ACC_TRUNC, H5P_DEFAULT, H5P_DEFAULT);
    if (out < 0) return fprintf(stderr, "analyze: cannot create %s\n", argv[2]), 1;
    hid_t group = H5Gcreate2(out, "/DAS", H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT);
    hid_t rms_space = H5Screate_simple(1, dims, NULL);
    hid_t rms_dset =
        H5Dcreate2(group, "rms", H5T_NATIVE_FLOAT, rms_space, H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT);
    if (H5Dwrite(rms_dset, H5T_NATIVE_FLOAT, H5S_ALL, H5S_ALL, H5P_DEFAULT, rms) < 0) return 1;
    H5Dclose(rms_dset);
    H5Sclose(rms_space);
    H5Gclose(group);
    if (H5Fclose(out) < 0) return 1;
  }
  free(rms);
  free(buf);
  H5Sclose(space);
  H5Dclose(dset);
  H5Fclose(file);
  return 0;
}
