/* A 4-rank job in which rank 1 calls MPI_Abort after every rank wrote its file: the launcher then
 * ends the other ranks with SIGTERM. On main the job left no provenance at all (issue 10 item 5).
 *   mpirun -np 4 mpi_abort <dir> */
#include <mpi.h>
#include <stdio.h>
#include <unistd.h>

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int rank = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  if (argc != 2) MPI_Abort(MPI_COMM_WORLD, 2);
  char path[4096];
  snprintf(path, sizeof path, "%s/rank%d.txt", argv[1], rank);
  FILE* f = fopen(path, "w");
  fprintf(f, "rank %d\n", rank);
  fclose(f);
  MPI_Barrier(MPI_COMM_WORLD);
  if (rank == 1) MPI_Abort(MPI_COMM_WORLD, 3);
  for (;;) sleep(1);
}
