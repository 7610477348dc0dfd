// The I/O characterisation (see io_view.h).
#include "query/io_view.h"

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <map>
#include <string_view>
#include <tuple>

#include "graph/terms.h"
#include "model/raw_terms.h"
#include "query/runs.h"

namespace provio::query {

void IoFigures::add(const IoFigures& o) {
  for (std::size_t i = 0; i < kOpKinds; ++i) ops[i] += o.ops[i];
  bytes_read += o.bytes_read;
  bytes_written += o.bytes_written;
  read_ns += o.read_ns;
  write_ns += o.write_ns;
  meta_ns += o.meta_ns;
  collective_reads += o.collective_reads;
  collective_writes += o.collective_writes;
  independent_reads += o.independent_reads;
  independent_writes += o.independent_writes;
  for (std::size_t i = 0; i < kSizeBuckets; ++i) {
    size_read[i] += o.size_read[i];
    size_write[i] += o.size_write[i];
  }
  sizes_known = sizes_known && o.sizes_known;
}

bool parse_io_grouping(const std::string& name, IoGrouping& out) {
  static const std::pair<const char*, IoGrouping> kNames[] = {{"job", IoGrouping::kJob},
                                                              {"rank", IoGrouping::kRank},
                                                              {"file", IoGrouping::kFile},
                                                              {"dataset", IoGrouping::kDataset}};
  for (const auto& [n, g] : kNames)
    if (name == n) {
      out = g;
      return true;
    }
  return false;
}

namespace {

constexpr std::array<const char*, kOpKinds> kOpClasses = {
    "Create", "Open", "Read", "Write", "Flush", "Close", "Rename", "Delete", "Modify", "Copy", "Access"};
constexpr std::array<const char*, kOpKinds> kOpColumns = {"creates",  "opens",  "reads",   "writes",
                                                          "flushes",  "closes", "renames", "deletes",
                                                          "modifies", "copies", "accesses"};

bool is_stdio(std::string_view api) {
  static constexpr std::string_view kStdio[] = {"fopen",  "fopen64",  "fdopen", "freopen", "fclose", "fread",
                                                "fwrite", "fprintf",  "fputs",  "fgets",   "fflush", "fseek",
                                                "fseeko", "fseeko64", "ftell",  "fscanf",  "fputc",  "fgetc"};
  return std::find(std::begin(kStdio), std::end(kStdio), api) != std::end(kStdio);
}

// The layer a record belongs to: the API family, and the POSIX calls HDF5 made apart.
std::string layer_of(const ActivityRecord& r) {
  if (r.api.rfind("H5", 0) == 0) return "HDF5";
  if (r.api.rfind("MPI_File", 0) == 0) return "MPI-IO";
  if (r.nested) return "POSIX in HDF5";
  if (is_stdio(r.api)) return "STDIO";
  return "POSIX";
}

// One record's figures. Access sizes: a call's bytes at trace level (and for a summary activity of
// one call); the provio:size_read_* / size_write_* statements of a summary activity when it
// carries them; otherwise unknown.
IoFigures figures_of(View& v, const ActivityRecord& r) {
  IoFigures f;
  std::size_t kind = 0;
  while (kind < kOpKinds && r.op != kOpClasses[kind]) ++kind;
  if (kind < kOpKinds) f.ops[kind] = r.count;
  bool read = r.op == "Read", write = r.op == "Write";
  if (read) {
    f.bytes_read = r.bytes;
    f.read_ns = r.elapsed_ns;
  } else if (write) {
    f.bytes_written = r.bytes;
    f.write_ns = r.elapsed_ns;
  } else {
    f.meta_ns = r.elapsed_ns;
  }
  if (!read && !write) return f;
  std::string transfer = r.iri.empty() ? "" : v.graph().value(r.iri, provio("transfer"));
  if (transfer == "collective") (read ? f.collective_reads : f.collective_writes) = r.count;
  if (transfer == "independent") (read ? f.independent_reads : f.independent_writes) = r.count;
  auto& sizes = read ? f.size_read : f.size_write;
  if (r.count == 1 && !r.group) {
    sizes[size_bucket(r.bytes)] = 1;
    return f;
  }
  if (r.count == 0) return f;
  std::uint64_t found = 0;
  for (std::size_t b = 0; b < kSizeBuckets && !r.iri.empty(); ++b) {
    std::string_view term = (read ? model::raw::kSizeRead : model::raw::kSizeWrite)[b];
    std::string n = v.graph().value(r.iri, provio(std::string(term.substr(1))));
    if (!n.empty()) found += sizes[b] = rdf::parse_u64(n).value_or(0);
  }
  f.sizes_known = found == r.count;
  if (!f.sizes_known) sizes.fill(0);
  return f;
}

bool is_dataset(View& v, const std::string& entity) {
  return !entity.empty() && v.graph().has(entity, rdf_type(), provio("Dataset"));
}

// MiB/s to three decimals (a rate, not a count: more digits would only be noise), empty when
// no time was spent.
Cell bandwidth(std::uint64_t bytes, std::uint64_t ns) {
  if (ns == 0) return Cell::unbound();
  double mib_s = static_cast<double>(bytes) / 1048576.0 / (static_cast<double>(ns) / 1e9);
  return Cell::number(std::round(mib_s * 1000) / 1000);
}

// Population variance, as Darshan's F_VARIANCE_RANK_TIME / VARIANCE_RANK_BYTES.
double variance(const std::vector<double>& xs) {
  double mean = 0, sq = 0;
  for (double x : xs) mean += x;
  mean /= static_cast<double>(xs.size());
  for (double x : xs) sq += (x - mean) * (x - mean);
  return sq / static_cast<double>(xs.size());
}

}  // namespace

std::vector<IoRow> io_rows(View& v, const std::vector<ActivityRecord>& records, IoGrouping by) {
  Runs runs(v);
  using Key = std::tuple<std::string, std::string, std::string, std::string>;  // run, key, layer, entity
  std::map<Key, IoRow> rows;
  std::map<Key, std::map<std::string, IoFigures>> per_rank;
  for (const auto& r : records) {
    std::string layer = layer_of(r);
    if (by == IoGrouping::kDataset && (layer != "HDF5" || !is_dataset(v, r.entity))) continue;
    std::string run = r.program.empty() ? "" : runs.run_of(r.program);
    std::string key = by == IoGrouping::kRank      ? r.program
                      : by == IoGrouping::kFile    ? r.file
                      : by == IoGrouping::kDataset ? r.entity_label
                                                   : "";
    Key k{run, key, layer, by == IoGrouping::kDataset ? r.entity : ""};
    auto [it, fresh] = rows.try_emplace(k);
    IoRow& row = it->second;
    if (fresh) {
      row.run = run;
      row.layer = layer;
      if (by == IoGrouping::kRank) row.program = r.program;
      if (by == IoGrouping::kFile || by == IoGrouping::kDataset) row.file = r.file;
      if (by == IoGrouping::kDataset) row.entity = r.entity;
    }
    IoFigures f = figures_of(v, r);
    row.figures.add(f);
    per_rank[k][r.program].add(f);
  }
  std::vector<IoRow> out;
  for (auto& [k, row] : rows) {
    for (auto& [program, f] : per_rank[k]) row.per_rank.emplace_back(program, f);
    out.push_back(std::move(row));
  }
  return out;
}

Table io_table(View& v, const std::vector<IoRow>& rows, IoGrouping by) {
  Runs runs(v);
  Table t;
  t.columns = {"job", "run"};
  if (by == IoGrouping::kRank) t.columns.insert(t.columns.end(), {"rank", "program"});
  if (by == IoGrouping::kFile) t.columns.push_back("file");
  if (by == IoGrouping::kDataset) t.columns.push_back("dataset");
  t.columns.insert(t.columns.end(), {"layer", "ranks"});
  for (const char* c : kOpColumns) t.columns.push_back(c);
  t.columns.insert(t.columns.end(), {"bytes_read", "bytes_written", "read_time", "write_time", "meta_time",
                                     "read_bandwidth", "write_bandwidth", "collective_reads",
                                     "collective_writes", "independent_reads", "independent_writes"});
  for (const auto* terms : {&model::raw::kSizeRead, &model::raw::kSizeWrite})
    for (std::string_view term : *terms) t.columns.push_back(std::string(term.substr(1)));
  bool shared = by == IoGrouping::kFile || by == IoGrouping::kDataset;
  if (shared)
    t.columns.insert(t.columns.end(), {"fastest_rank", "fastest_rank_bytes", "fastest_rank_time",
                                       "slowest_rank", "slowest_rank_bytes", "slowest_rank_time",
                                       "variance_rank_time", "variance_rank_bytes"});
  for (const auto& row : rows) {
    const IoFigures& f = row.figures;
    std::vector<Cell> cells;
    cells.push_back(Cell::text(row.run.empty() ? "" : v.program(row.run).job));
    cells.push_back(Cell::text(row.run.empty() ? "" : runs.label(row.run)));
    if (by == IoGrouping::kRank) {
      cells.push_back(Cell::text(row.program.empty() ? "" : v.program(row.program).rank));
      cells.push_back(Cell::text(row.program.empty() ? "" : v.program_label(row.program)));
    }
    if (by == IoGrouping::kFile) cells.push_back(Cell::text(v.entity_label(row.file, true)));
    if (by == IoGrouping::kDataset) cells.push_back(Cell::text(v.entity_label(row.entity, true)));
    cells.push_back(Cell::text(row.layer));
    std::uint64_t ranks = by == IoGrouping::kRank ? 1 : row.per_rank.size();
    if (by == IoGrouping::kJob && !row.run.empty()) ranks = runs.ranks(row.run).size();
    cells.push_back(Cell::integer(ranks));
    for (std::uint64_t n : f.ops) cells.push_back(Cell::integer(n));
    cells.push_back(Cell::integer(f.bytes_read));
    cells.push_back(Cell::integer(f.bytes_written));
    cells.push_back(Cell::seconds(f.read_ns));
    cells.push_back(Cell::seconds(f.write_ns));
    cells.push_back(Cell::seconds(f.meta_ns));
    cells.push_back(bandwidth(f.bytes_read, f.read_ns));
    cells.push_back(bandwidth(f.bytes_written, f.write_ns));
    for (std::uint64_t n :
         {f.collective_reads, f.collective_writes, f.independent_reads, f.independent_writes})
      cells.push_back(Cell::integer(n));
    for (const auto* sizes : {&f.size_read, &f.size_write})
      for (std::uint64_t n : *sizes) cells.push_back(f.sizes_known ? Cell::integer(n) : Cell::unbound());
    if (shared) {
      if (row.per_rank.size() < 2) {
        cells.resize(t.columns.size());
      } else {
        auto by_time = [](const auto& a, const auto& b) {
          return std::make_pair(a.second.time_ns(), a.first) < std::make_pair(b.second.time_ns(), b.first);
        };
        const auto& fast = *std::min_element(row.per_rank.begin(), row.per_rank.end(), by_time);
        const auto& slow = *std::max_element(row.per_rank.begin(), row.per_rank.end(), by_time);
        std::vector<double> times, bytes;
        for (const auto& [p, rf] : row.per_rank) {
          times.push_back(static_cast<double>(rf.time_ns()) / 1e9);
          bytes.push_back(static_cast<double>(rf.bytes()));
        }
        for (const auto* r : {&fast, &slow}) {
          cells.push_back(Cell::text(v.program(r->first).rank));
          cells.push_back(Cell::integer(r->second.bytes()));
          cells.push_back(Cell::seconds(r->second.time_ns()));
        }
        cells.push_back(Cell::number(variance(times)));
        cells.push_back(Cell::number(variance(bytes)));
      }
    }
    t.rows.push_back(std::move(cells));
  }
  return t;
}

}  // namespace provio::query
