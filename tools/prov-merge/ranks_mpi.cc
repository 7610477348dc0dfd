// prov-merge's ranks over MPI (see ranks.h).
#include <mpi.h>

#include <algorithm>
#include <cstdint>
#include <cstdlib>

#include "ranks.h"

namespace provio::merge {

namespace {
constexpr std::size_t kChunk = 1u << 30;
}

void Mpi::init(int* argc, char*** argv) {
  for (const char* v : {"OMPI_COMM_WORLD_SIZE", "PMI_SIZE", "PMIX_SIZE", "MPI_LOCALNRANKS"}) {
    const char* s = std::getenv(v);
    if (s && std::atoi(s) > 1) on = true;
  }
  if (!on) return;
  MPI_Init(argc, argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
}

Mpi::~Mpi() {
  if (on) MPI_Finalize();
}

void Mpi::send(const std::string& data, int to) const {
  std::uint64_t n = data.size();
  MPI_Send(&n, 1, MPI_UINT64_T, to, 0, MPI_COMM_WORLD);
  for (std::size_t off = 0; off < data.size(); off += kChunk) {
    int len = static_cast<int>(std::min(kChunk, data.size() - off));
    MPI_Send(data.data() + off, len, MPI_BYTE, to, 1, MPI_COMM_WORLD);
  }
}

std::string Mpi::receive(int from) const {
  std::uint64_t n = 0;
  MPI_Recv(&n, 1, MPI_UINT64_T, from, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
  std::string data(n, '\0');
  for (std::size_t off = 0; off < n; off += kChunk) {
    int len = static_cast<int>(std::min<std::size_t>(kChunk, n - off));
    MPI_Recv(data.data() + off, len, MPI_BYTE, from, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
  }
  return data;
}

void Mpi::broadcast(int& value) const {
  if (several()) MPI_Bcast(&value, 1, MPI_INT, 0, MPI_COMM_WORLD);
}

}  // namespace provio::merge
