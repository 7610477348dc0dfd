// prov-merge's processes under an MPI launcher (docs/prov-merge.md, "MPI"): rank r reads its
// share, sends it to rank 0, which folds and writes. A build without MPI (a serial HDF5 on a
// machine without MPI) has ranks_single.cc instead of ranks_mpi.cc: one process merges all.
#pragma once

#include <string>

namespace provio::merge {

struct Mpi {
  int rank = 0;
  int size = 1;
  bool on = false;  // started by a launcher with more than one process, MPI initialised

  void init(int* argc, char*** argv);
  ~Mpi();
  bool several() const { return on && size > 1; }
  // Point to point, any size (sent in chunks MPI's int counts can hold).
  void send(const std::string& data, int to) const;
  std::string receive(int from) const;
  // Rank 0's `value` to every rank (nothing to do with one process).
  void broadcast(int& value) const;
};

}  // namespace provio::merge
