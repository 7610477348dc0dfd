/* The particle layout shared by the VPIC-like writer and the BD-CATS-like reader (h5bench's
 * vpic-io / bdcats-io patterns): per timestep a group /Timestep_<t> holding eight 1-D datasets,
 * one value per particle — x y z px py pz (float) and id1 id2 (int) — each rank owning a
 * contiguous slab of every dataset, written and read with collective MPI-IO. */
#ifndef PROVIO_EXAMPLES_VPIC_COMMON_H
#define PROVIO_EXAMPLES_VPIC_COMMON_H

#include <hdf5.h>
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

enum { VPIC_PROPERTIES = 8 };
static const char* const vpic_names[VPIC_PROPERTIES] = {"x", "y", "z", "id1", "id2", "px", "py", "pz"};

static inline hid_t vpic_type(int property) {
  return property == 3 || property == 4 ? H5T_NATIVE_INT : H5T_NATIVE_FLOAT;
}

/* One run of either program: MPI, its arguments ("PROGRAM FILE [PARTICLES_PER_RANK
 * [TIMESTEPS]]"), buffers for one property of this rank's particles, and the property lists for
 * MPI-IO with collective transfers. */
typedef struct {
  int rank, size;
  long particles;
  int steps;
  float* f;
  int* ids;
  hid_t fapl, dxpl;
} vpic_run;

static inline void vpic_start(int* argc, char*** argv, vpic_run* r) {
  MPI_Init(argc, argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &r->rank);
  MPI_Comm_size(MPI_COMM_WORLD, &r->size);
  char** a = *argv;
  r->particles = *argc > 2 ? atol(a[2]) : 65536;
  r->steps = *argc > 3 ? atoi(a[3]) : 3;
  if (*argc < 2 || *argc > 4 || r->particles < 1 || r->steps < 1) {
    fprintf(stderr, "usage: %s FILE.h5 [PARTICLES_PER_RANK (65536) [TIMESTEPS (3)]]\n", a[0]);
    MPI_Abort(MPI_COMM_WORLD, 2);
  }
  r->f = malloc(sizeof(float) * (size_t)r->particles);
  r->ids = malloc(sizeof(int) * (size_t)r->particles);
  r->fapl = H5Pcreate(H5P_FILE_ACCESS);
  H5Pset_fapl_mpio(r->fapl, MPI_COMM_WORLD, MPI_INFO_NULL);
  r->dxpl = H5Pcreate(H5P_DATASET_XFER);
  H5Pset_dxpl_mpio(r->dxpl, H5FD_MPIO_COLLECTIVE);
}

static inline void vpic_finish(vpic_run* r) {
  H5Pclose(r->dxpl);
  H5Pclose(r->fapl);
  free(r->f);
  free(r->ids);
  MPI_Finalize();
}

/* This rank's slab of a dataset of `total` particles: file and memory dataspaces. */
static inline void vpic_slab(hid_t file_space, long particles, int rank, hid_t* mem_space) {
  hsize_t start = (hsize_t)particles * (hsize_t)rank, count = (hsize_t)particles;
  H5Sselect_hyperslab(file_space, H5S_SELECT_SET, &start, NULL, &count, NULL);
  *mem_space = H5Screate_simple(1, &count, NULL);
}

#define VPIC_CHECK(call)                                                \
  do {                                                                  \
    if ((call) < 0) {                                                   \
      fprintf(stderr, "%s:%d: %s failed\n", __FILE__, __LINE__, #call); \
      MPI_Abort(MPI_COMM_WORLD, 1);                                     \
    }                                                                   \
  } while (0)

#endif
