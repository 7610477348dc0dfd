/* VPIC-like particle write (h5bench vpic-io pattern, see vpic_common.h): every rank writes its
 * particles' eight properties for each timestep, collectively, into one shared file.
 *   mpirun -np 2 vpic_write particles.h5 [PARTICLES_PER_RANK [TIMESTEPS]] */
#include <math.h>

#include "vpic_common.h"

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int rank, size;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  long particles;
  int steps;
  vpic_args(argc, argv, &particles, &steps);

  float* f = malloc(sizeof(float) * (size_t)particles);
  int* ids = malloc(sizeof(int) * (size_t)particles);
  hid_t fapl = vpic_fapl();
  hid_t file = H5Fcreate(argv[1], H5F_ACC_TRUNC, H5P_DEFAULT, fapl);
  VPIC_CHECK(file);
  hid_t dxpl = H5Pcreate(H5P_DATASET_XFER);
  H5Pset_dxpl_mpio(dxpl, H5FD_MPIO_COLLECTIVE);
  hsize_t total = (hsize_t)particles * (hsize_t)size;
  for (int t = 0; t < steps; ++t) {
    char group_name[32];
    snprintf(group_name, sizeof group_name, "Timestep_%d", t);
    hid_t group = H5Gcreate2(file, group_name, H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT);
    VPIC_CHECK(group);
    for (int p = 0; p < VPIC_PROPERTIES; ++p) {
      for (long i = 0; i < particles; ++i) {
        long id = (long)rank * particles + i;
        f[i] = (float)sin(0.001 * (double)(id + p) + t);
        ids[i] = (int)(id + p);
      }
      hid_t file_space = H5Screate_simple(1, &total, NULL), mem_space;
      hid_t dset =
          H5Dcreate2(group, vpic_names[p], vpic_type(p), file_space, H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT);
      VPIC_CHECK(dset);
      vpic_slab(file_space, particles, rank, &mem_space);
      VPIC_CHECK(H5Dwrite(dset, vpic_type(p), mem_space, file_space, dxpl,
                          vpic_type(p) == H5T_NATIVE_INT ? (const void*)ids : (const void*)f));
      H5Dclose(dset);
      H5Sclose(mem_space);
      H5Sclose(file_space);
    }
    H5Gclose(group);
  }
  H5Pclose(dxpl);
  VPIC_CHECK(H5Fclose(file));
  H5Pclose(fapl);
  if (rank == 0)
    printf("vpic_write: %d ranks x %ld particles x %d timesteps to %s\n", size, particles, steps, argv[1]);
  free(f);
  free(ids);
  MPI_Finalize();
  return 0;
}
