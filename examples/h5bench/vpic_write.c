/* VPIC-like particle write (h5bench vpic-io pattern, see vpic_common.h): every rank writes its
 * particles' eight properties for each timestep, collectively, into one shared file.
 *   mpirun -np 2 vpic_write particles.h5 [PARTICLES_PER_RANK [TIMESTEPS]] */
#include <math.h>

#include "vpic_common.h"

int main(int argc, char** argv) {
  vpic_run r;
  vpic_start(&argc, &argv, &r);
  hid_t file = H5Fcreate(argv[1], H5F_ACC_TRUNC, H5P_DEFAULT, r.fapl);
  VPIC_CHECK(file);
  hsize_t total = (hsize_t)r.particles * (hsize_t)r.size;
  for (int t = 0; t < r.steps; ++t) {
    char group_name[32];
    snprintf(group_name, sizeof group_name, "Timestep_%d", t);
    hid_t group = H5Gcreate2(file, group_name, H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT);
    VPIC_CHECK(group);
    for (int p = 0; p < VPIC_PROPERTIES; ++p) {
      for (long i = 0; i < r.particles; ++i) {
        long id = (long)r.rank * r.particles + i;
        r.f[i] = (float)sin(0.001 * (double)(id + p) + t);
        r.ids[i] = (int)(id + p);
      }
      hid_t file_space = H5Screate_simple(1, &total, NULL), mem_space;
      hid_t dset =
          H5Dcreate2(group, vpic_names[p], vpic_type(p), file_space, H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT);
      VPIC_CHECK(dset);
      vpic_slab(file_space, r.particles, r.rank, &mem_space);
      VPIC_CHECK(H5Dwrite(dset, vpic_type(p), mem_space, file_space, r.dxpl,
                          vpic_type(p) == H5T_NATIVE_INT ? (const void*)r.ids : (const void*)r.f));
      H5Dclose(dset);
      H5Sclose(mem_space);
      H5Sclose(file_space);
    }
    H5Gclose(group);
  }
  VPIC_CHECK(H5Fclose(file));
  if (r.rank == 0)
    printf("vpic_write: %d ranks x %ld particles x %d timesteps to %s\n", r.size, r.particles, r.steps,
           argv[1]);
  vpic_finish(&r);
  return 0;
}
