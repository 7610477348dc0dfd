/* Each rank r writes rank<r>.dat with r + 1 POSIX writes of 10 bytes; after a barrier it reads its
 * neighbour's file. Run under mpirun with the preload library.
 *   mpi_io <dir> */
#include <fcntl.h>
#include <mpi.h>
#include <stdio.h>
#include <unistd.h>

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int rank = 0, size = 1;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  char path[4096];
  snprintf(path, sizeof path, "%s/rank%d.dat", argv[1], rank);
  int fd = open(path, O_CREAT | O_WRONLY | O_TRUNC, 0644);
  for (int i = 0; i <= rank; ++i) {
    if (write(fd, "0123456789", 10) != 10) MPI_Abort(MPI_COMM_WORLD, 3);
  }
  close(fd);
  MPI_Barrier(MPI_COMM_WORLD);
  snprintf(path, sizeof path, "%s/rank%d.dat", argv[1], (rank + 1) % size);
  fd = open(path, O_RDONLY);
  char buf[256];
  ssize_t n, total = 0;
  while ((n = read(fd, buf, sizeof buf)) > 0) total += n;
  close(fd);
  MPI_Finalize();
  return total == 10 * ((rank + 1) % size + 1) ? 0 : 1;
}
