// The I/O characterisation of a job, Darshan's job summary from provenance (prov-query io and the
// report's I/O pages): per job (an MPI job step is one run, runs.h), per rank, per file and per
// HDF5 dataset, split by layer (HDF5, MPI-IO, STDIO, POSIX; with --nested also the POSIX calls
// HDF5 made, as a layer of their own): operations by kind, bytes, time reading / writing / in
// metadata, bandwidth, access-size histograms in Darshan's ten buckets, collective and
// independent transfers, and for files several ranks touched the fastest and slowest rank.
//
// Hard rule: every figure sums the records query/counting.h lets through, each into exactly one
// layer; nothing here counts a second way.
#pragma once

#include <array>
#include <cstdint>
#include <string>
#include <vector>

#include "model/access_size.h"
#include "query/table.h"
#include "query/view.h"

namespace provio::query {

// Darshan's access-size buckets: the capture's rule (model/access_size.h).
using model::kSizeBucketNames;
using model::kSizeBuckets;
using model::size_bucket;

// Kinds of operation, in the order of model::Op (create, open, read, write, flush, close, rename,
// delete, modify, copy, access).
constexpr std::size_t kOpKinds = 11;

struct IoFigures {
  std::array<std::uint64_t, kOpKinds> ops{};
  std::uint64_t bytes_read = 0, bytes_written = 0;
  std::uint64_t read_ns = 0, write_ns = 0, meta_ns = 0;  // meta: every operation but read and write
  std::uint64_t collective_reads = 0, collective_writes = 0, independent_reads = 0, independent_writes = 0;
  std::array<std::uint64_t, kSizeBuckets> size_read{}, size_write{};
  // False when a summary activity of several transfers without bucket statements contributed:
  // the histogram is then unknown (its columns stay empty), never guessed.
  bool sizes_known = true;

  std::uint64_t time_ns() const { return read_ns + write_ns + meta_ns; }
  std::uint64_t bytes() const { return bytes_read + bytes_written; }
  void add(const IoFigures& o);
};

enum class IoGrouping { kJob, kRank, kFile, kDataset };
// "job", "rank", "file", "dataset"; false if unknown.
[[nodiscard]] bool parse_io_grouping(const std::string& name, IoGrouping& out);

// One row of the characterisation: its key (run always; program for ranks; file for files and
// datasets; entity for datasets) and layer, its figures, and for files each rank's figures.
struct IoRow {
  std::string run, program, file, entity, layer;
  IoFigures figures;
  std::vector<std::pair<std::string, IoFigures>> per_rank;  // program IRI → figures (files only)
};

// The rows for `records` (already counted, counting.h), sorted by run, then key, then layer.
std::vector<IoRow> io_rows(View& v, const std::vector<ActivityRecord>& records, IoGrouping by);

// The rows as prov-query io prints them (docs/prov-query.md, "io").
Table io_table(View& v, const std::vector<IoRow>& rows, IoGrouping by);

}  // namespace provio::query
