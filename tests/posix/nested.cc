// POSIX calls made while an HDF5 VOL callback runs (the connector holds a store::Hdf5Scope) are
// recorded with provio:nested true, apart from the application's own calls on the same file.
//   nested <file>
#include <fcntl.h>
#include <unistd.h>

#include "store/recorder.h"

int main(int argc, char** argv) {
  if (argc < 2) return 2;
  int fd = open(argv[1], O_CREAT | O_WRONLY | O_TRUNC, 0644);
  if (write(fd, "app\n", 4) != 4) return 3;
  {
    provio::store::Hdf5Scope inside_hdf5;
    if (write(fd, "hdf5 metadata\n", 14) != 14) return 3;
    if (write(fd, "hdf5 data\n", 10) != 10) return 3;
  }
  close(fd);
  return 0;
}
