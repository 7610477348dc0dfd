/* Shared helpers of the DASSA-style example (distributed acoustic sensing): open a file with the
 * MPI-IO driver and read/write one rank's block of channels of a 2-D "channels x samples" dataset. */
#ifndef DASSA_COMMON_H
#define DASSA_COMMON_H

#include <hdf5.h>
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

#define DASSA_CHECK(expr)                                               \
  do {                                                                  \
    if ((expr) < 0) {                                                   \
      fprintf(stderr, "%s:%d: %s failed\n", __FILE__, __LINE__, #expr); \
      MPI_Abort(MPI_COMM_WORLD, 1);                                     \
    }                                                                   \
  } while (0)

static inline hid_t dassa_fapl(void) {
  hid_t fapl = H5Pcreate(H5P_FILE_ACCESS);
  DASSA_CHECK(H5Pset_fapl_mpio(fapl, MPI_COMM_WORLD, MPI_INFO_NULL));
  return fapl;
}

static inline hid_t dassa_collective(void) {
  hid_t dxpl = H5Pcreate(H5P_DATASET_XFER);
  DASSA_CHECK(H5Pset_dxpl_mpio(dxpl, H5FD_MPIO_COLLECTIVE));
  return dxpl;
}

/* Selects this rank's rows [first, first + rows) of a channels x samples dataspace. */
static inline void dassa_rows(int rank, int ranks, hsize_t channels, hsize_t* first, hsize_t* rows) {
  hsize_t per = channels / (hsize_t)ranks, extra = channels % (hsize_t)ranks;
  *first = (hsize_t)rank * per + ((hsize_t)rank < extra ? (hsize_t)rank : extra);
  *rows = per + ((hsize_t)rank < extra ? 1 : 0);
}

#endif
