/* BD-CATS-like particle read (h5bench bdcats-io pattern, see vpic_common.h): every rank reads its
 * slab of the eight properties of every timestep written by vpic_write, collectively, and the
 * ranks agree on a checksum (what a clustering pass would start from).
 *   mpirun -np 2 bdcats_read particles.h5 [PARTICLES_PER_RANK [TIMESTEPS]] */
#include "vpic_common.h"

int main(int argc, char** argv) {
  vpic_run r;
  vpic_start(&argc, &argv, &r);
  hid_t file = H5Fopen(argv[1], H5F_ACC_RDONLY, r.fapl);
  VPIC_CHECK(file);
  double sum = 0;
  for (int t = 0; t < r.steps; ++t) {
    char group_name[32];
    snprintf(group_name, sizeof group_name, "Timestep_%d", t);
    hid_t group = H5Gopen2(file, group_name, H5P_DEFAULT);
    VPIC_CHECK(group);
    for (int p = 0; p < VPIC_PROPERTIES; ++p) {
      hid_t dset = H5Dopen2(group, vpic_names[p], H5P_DEFAULT);
      VPIC_CHECK(dset);
      hid_t file_space = H5Dget_space(dset), mem_space;
      if (H5Sget_simple_extent_npoints(file_space) != (hssize_t)r.particles * r.size) {
        fprintf(stderr, "bdcats_read: %s/%s does not hold %d x %ld particles\n", group_name, vpic_names[p],
                r.size, r.particles);
        MPI_Abort(MPI_COMM_WORLD, 1);
      }
      vpic_slab(file_space, r.particles, r.rank, &mem_space);
      int is_int = vpic_type(p) == H5T_NATIVE_INT;
      VPIC_CHECK(
          H5Dread(dset, vpic_type(p), mem_space, file_space, r.dxpl, is_int ? (void*)r.ids : (void*)r.f));
      for (long i = 0; i < r.particles; ++i) sum += is_int ? (double)r.ids[i] : (double)r.f[i];
      H5Dclose(dset);
      H5Sclose(mem_space);
      H5Sclose(file_space);
    }
    H5Gclose(group);
  }
  double total = 0;
  MPI_Reduce(&sum, &total, 1, MPI_DOUBLE, MPI_SUM, 0, MPI_COMM_WORLD);
  VPIC_CHECK(H5Fclose(file));
  if (r.rank == 0) printf("bdcats_read: %d ranks read %s, checksum %.6e\n", r.size, argv[1], total);
  vpic_finish(&r);
  return 0;
}
