// prov-merge built without MPI (see ranks.h): always one process, rank 0 of 1, so nothing is
// ever sent or received.
#include <cstdlib>

#include "ranks.h"

namespace provio::merge {

void Mpi::init(int*, char***) {}
Mpi::~Mpi() = default;
void Mpi::send(const std::string&, int) const {
  std::abort();
}  // never called: one rank
std::string Mpi::receive(int) const {
  std::abort();
}  // never called: one rank
void Mpi::broadcast(int&) const {}

}  // namespace provio::merge
