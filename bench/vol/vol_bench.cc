// HDF5 kernels for the VOL connector benchmark, run natively or under the connector (the caller
// sets HDF5_VOL_CONNECTOR). One process runs a warm-up file create ("startup": the first file
// operation, with every layer's one-time setup) and the three kernels and prints, per kernel, the
// slowest rank's wall time and the summed main-thread CPU time of all ranks:
//   vpic      h5bench-style VPIC-IO write: 8 particle properties (6 float, 2 int) × N particles
//             per rank × T timesteps, contiguous, one group per timestep, collective writes
//   bdcats    BD-CATS-style read of the same file: every rank reads its particles, collectively
//   metadata  G groups × D small datasets × A attributes created and written, then reopened and
//             the attributes read back
//   small_write  S single-element H5Dwrite calls (hyperslab of one int) into one dataset per rank;
//                HDF5 gathers them in its sieve buffer, so they cost CPU only: the worst case for
//                any connector, whose per-call cost is then all there is besides HDF5's own
//   small_read   S single-element H5Dread calls reading them back
//   small_io_write, small_io_read  the same with HDF5's sieve buffer off, so that every transfer
//                reaches the file (one pwrite or pread each)
//   small_mpio_write, small_mpio_read  the same through MPI-IO into one shared file, each rank its
//                own block, independent transfers: h5bench's small I/O, the setting of issue 11's
//                small-kernel figures (2 ranks)
//   mpirun -np R vol_bench DIR N T G D A S [KERNEL,… [ROUNDS CONNECTOR…]]
//     KERNEL,…: default all; bdcats reads vpic's file, small_read small_write's, small_io_read
//     small_io_write's, small_mpio_read small_mpio_write's. With ROUNDS and CONNECTORs ("name
//     info", as HDF5_VOL_CONNECTOR takes them), a paired run: the kernels run ROUNDS times
//     natively and through each connector, chosen per file with H5Pset_vol, in an order rotated
//     every round, all in this one process; each line then names its layer ("KERNEL LAYER wall …
//     cpu …"). This host's speed changes by up to ±40 % between processes, so ratios of one
//     process's rounds are what resolve a few per cent (bench/vol/paired).
#include <hdf5.h>
#include <mpi.h>
#include <time.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

namespace {

int g_rank = 0, g_size = 1;

void check(bool ok, const char* what) {
  if (!ok) {
    std::fprintf(stderr, "vol_bench[%d]: %s failed\n", g_rank, what);
    MPI_Abort(MPI_COMM_WORLD, 2);
  }
}

// A reading kernel's file, which its writing kernel leaves in DIR (in this process or an earlier
// one, as bench/vol/run runs them): without it HDF5 would abort in its error stack.
void require_input(const std::string& path, const char* reader, const char* writer) {
  if (access(path.c_str(), F_OK) != 0) {
    std::fprintf(stderr, "vol_bench[%d]: kernel %s reads %s, which kernel %s writes: run %s first\n", g_rank,
                 reader, path.c_str(), writer, writer);
    MPI_Abort(MPI_COMM_WORLD, 2);
  }
}

double cpu_now() {
  timespec ts;
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
  return ts.tv_sec + ts.tv_nsec * 1e-9;
}

struct Timer {
  double wall = MPI_Wtime();
  double cpu = cpu_now();
};

const char* g_layer = "";  // the label of the layer the kernels now run through, "" for the default

void report(const char* kernel, const Timer& t) {
  double wall = MPI_Wtime() - t.wall, cpu = cpu_now() - t.cpu, wall_max = 0, cpu_sum = 0;
  MPI_Reduce(&wall, &wall_max, 1, MPI_DOUBLE, MPI_MAX, 0, MPI_COMM_WORLD);
  MPI_Reduce(&cpu, &cpu_sum, 1, MPI_DOUBLE, MPI_SUM, 0, MPI_COMM_WORLD);
  if (g_rank == 0)
    std::printf("%s%s%s wall %.6f cpu %.6f\n", kernel, *g_layer ? " " : "", g_layer, wall_max, cpu_sum);
}

// The layer files are opened through: the default (HDF5_VOL_CONNECTOR, else native) or a named
// connector with its info, set on each file access property list.
struct Layer {
  std::string label;  // "" for the default layer: lines then carry no layer
  hid_t connector = H5I_INVALID_HID;
  void* info = nullptr;
};

// A new file access property list using `layer`; the caller closes it.
hid_t file_access(const Layer& layer) {
  hid_t fapl = H5Pcreate(H5P_FILE_ACCESS);
  check(fapl >= 0 && (layer.connector < 0 || H5Pset_vol(fapl, layer.connector, layer.info) >= 0),
        "file access list");
  return fapl;
}

hid_t mpio_fapl(const Layer& layer) {
  hid_t fapl = file_access(layer);
  check(H5Pset_fapl_mpio(fapl, MPI_COMM_WORLD, MPI_INFO_NULL) >= 0, "H5Pset_fapl_mpio");
  return fapl;
}

const char* const kProps[8] = {"x", "y", "z", "px", "py", "pz", "id1", "id2"};

void vpic(const Layer& layer, const std::string& path, hsize_t n, int steps) {
  std::vector<float> f(n);
  std::vector<int> ids(n);
  for (hsize_t i = 0; i < n; ++i) {
    f[i] = static_cast<float>(i) * 0.001f;
    ids[i] = static_cast<int>(i);
  }
  hid_t fapl = mpio_fapl(layer);
  hid_t dxpl = H5Pcreate(H5P_DATASET_XFER);
  H5Pset_dxpl_mpio(dxpl, H5FD_MPIO_COLLECTIVE);
  MPI_Barrier(MPI_COMM_WORLD);
  Timer t;
  hid_t file = H5Fcreate(path.c_str(), H5F_ACC_TRUNC, H5P_DEFAULT, fapl);
  check(file >= 0, "H5Fcreate");
  const hsize_t total = n * g_size, start = n * g_rank;
  hid_t fspace = H5Screate_simple(1, &total, nullptr);
  hid_t mspace = H5Screate_simple(1, &n, nullptr);
  H5Sselect_hyperslab(fspace, H5S_SELECT_SET, &start, nullptr, &n, nullptr);
  for (int s = 0; s < steps; ++s) {
    hid_t g =
        H5Gcreate2(file, ("Timestep_" + std::to_string(s)).c_str(), H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT);
    for (int p = 0; p < 8; ++p) {
      hid_t type = p < 6 ? H5T_NATIVE_FLOAT : H5T_NATIVE_INT;
      hid_t d = H5Dcreate2(g, kProps[p], type, fspace, H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT);
      const void* buf = p < 6 ? static_cast<const void*>(f.data()) : static_cast<const void*>(ids.data());
      check(d >= 0 && H5Dwrite(d, type, mspace, fspace, dxpl, buf) >= 0, "H5Dwrite");
      H5Dclose(d);
    }
    H5Gclose(g);
  }
  H5Sclose(mspace);
  H5Sclose(fspace);
  check(H5Fclose(file) >= 0, "H5Fclose");
  report("vpic", t);
  H5Pclose(dxpl);
  H5Pclose(fapl);
}

void bdcats(const Layer& layer, const std::string& path, hsize_t n, int steps) {
  require_input(path, "bdcats", "vpic");
  std::vector<float> f(n);
  std::vector<int> ids(n);
  hid_t fapl = mpio_fapl(layer);
  hid_t dxpl = H5Pcreate(H5P_DATASET_XFER);
  H5Pset_dxpl_mpio(dxpl, H5FD_MPIO_COLLECTIVE);
  MPI_Barrier(MPI_COMM_WORLD);
  Timer t;
  hid_t file = H5Fopen(path.c_str(), H5F_ACC_RDONLY, fapl);
  check(file >= 0, "H5Fopen");
  const hsize_t start = n * g_rank;
  hid_t mspace = H5Screate_simple(1, &n, nullptr);
  for (int s = 0; s < steps; ++s) {
    for (int p = 0; p < 8; ++p) {
      std::string name = "Timestep_" + std::to_string(s) + "/" + kProps[p];
      hid_t d = H5Dopen2(file, name.c_str(), H5P_DEFAULT);
      check(d >= 0, "H5Dopen2");
      hid_t fspace = H5Dget_space(d);
      H5Sselect_hyperslab(fspace, H5S_SELECT_SET, &start, nullptr, &n, nullptr);
      hid_t type = p < 6 ? H5T_NATIVE_FLOAT : H5T_NATIVE_INT;
      void* buf = p < 6 ? static_cast<void*>(f.data()) : static_cast<void*>(ids.data());
      check(H5Dread(d, type, mspace, fspace, dxpl, buf) >= 0, "H5Dread");
      H5Sclose(fspace);
      H5Dclose(d);
    }
  }
  H5Sclose(mspace);
  check(H5Fclose(file) >= 0, "H5Fclose");
  report("bdcats", t);
  check(ids[n - 1] == static_cast<int>(n - 1), "read back");
  H5Pclose(dxpl);
  H5Pclose(fapl);
}

// Each rank works in its own file (metadata operations on a shared file are collective in
// parallel HDF5, which would measure MPI, not the connector).
void metadata(const Layer& layer, const std::string& dir, int groups, int dsets, int attrs) {
  std::string path = dir + "/meta-" + std::to_string(g_rank) + ".h5";
  hid_t fapl = file_access(layer);
  MPI_Barrier(MPI_COMM_WORLD);
  Timer t;
  hid_t file = H5Fcreate(path.c_str(), H5F_ACC_TRUNC, H5P_DEFAULT, fapl);
  check(file >= 0, "H5Fcreate");
  const hsize_t four = 4;
  hid_t space = H5Screate_simple(1, &four, nullptr);
  hid_t scalar = H5Screate(H5S_SCALAR);
  int vals[4] = {1, 2, 3, 4};
  for (int g = 0; g < groups; ++g) {
    hid_t grp = H5Gcreate2(file, ("g" + std::to_string(g)).c_str(), H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT);
    for (int d = 0; d < dsets; ++d) {
      hid_t ds = H5Dcreate2(grp, ("d" + std::to_string(d)).c_str(), H5T_NATIVE_INT, space, H5P_DEFAULT,
                            H5P_DEFAULT, H5P_DEFAULT);
      check(ds >= 0 && H5Dwrite(ds, H5T_NATIVE_INT, H5S_ALL, H5S_ALL, H5P_DEFAULT, vals) >= 0, "meta write");
      for (int a = 0; a < attrs; ++a) {
        hid_t at = H5Acreate2(ds, ("a" + std::to_string(a)).c_str(), H5T_NATIVE_INT, scalar, H5P_DEFAULT,
                              H5P_DEFAULT);
        check(at >= 0 && H5Awrite(at, H5T_NATIVE_INT, &a) >= 0, "attr write");
        H5Aclose(at);
      }
      H5Dclose(ds);
    }
    H5Gclose(grp);
  }
  H5Fclose(file);
  file = H5Fopen(path.c_str(), H5F_ACC_RDONLY, fapl);
  int sum = 0;
  for (int g = 0; g < groups; ++g) {
    for (int d = 0; d < dsets; ++d) {
      std::string name = "g" + std::to_string(g) + "/d" + std::to_string(d);
      hid_t ds = H5Dopen2(file, name.c_str(), H5P_DEFAULT);
      for (int a = 0; a < attrs; ++a) {
        int v = 0;
        hid_t at = H5Aopen(ds, ("a" + std::to_string(a)).c_str(), H5P_DEFAULT);
        check(at >= 0 && H5Aread(at, H5T_NATIVE_INT, &v) >= 0, "attr read");
        sum += v;
        H5Aclose(at);
      }
      H5Dclose(ds);
    }
  }
  H5Fclose(file);
  H5Sclose(space);
  H5Sclose(scalar);
  report("metadata", t);
  H5Pclose(fapl);
  check(sum == groups * dsets * attrs * (attrs - 1) / 2, "metadata read back");
}

// The small kernels: where their transfers go, and what their kernels and file are called.
struct SmallPath {
  const char* write_kernel;
  const char* read_kernel;
  const char* file;  // its name in DIR: FILE-RANK.h5, or FILE.h5 when shared
  bool sieve_off;    // every transfer reaches the file: one pwrite or pread each
  bool shared;       // one file for all ranks through MPI-IO, each rank its own block
};
const SmallPath kSmallPaths[] = {
    // gathered in HDF5's sieve buffer: CPU only
    {"small_write", "small_read", "small", false, false},
    {"small_io_write", "small_io_read", "small-io", true, false},
    // independent transfers (HDF5 does not sieve over MPI-IO) through a transfer list of the
    // program's own, as h5bench's small I/O (set_dspace_plist)
    {"small_mpio_write", "small_mpio_read", "small-mpio", false, true},
};

// `n` ints per rank, written (or read back) one element per call, into one dataset: per rank
// or shared, each rank its own block of it.
void small_transfers(const Layer& layer, const std::string& dir, hsize_t n, bool write,
                     const SmallPath& path) {
  const std::string file_path =
      dir + "/" + path.file + (path.shared ? std::string() : "-" + std::to_string(g_rank)) + ".h5";
  if (!write) require_input(file_path, path.read_kernel, path.write_kernel);
  hid_t fapl = path.shared ? mpio_fapl(layer) : file_access(layer);
  check(!path.sieve_off || H5Pset_sieve_buf_size(fapl, 0) >= 0, "small file access");
  MPI_Barrier(MPI_COMM_WORLD);
  Timer t;
  hid_t file = write ? H5Fcreate(file_path.c_str(), H5F_ACC_TRUNC, H5P_DEFAULT, fapl)
                     : H5Fopen(file_path.c_str(), H5F_ACC_RDONLY, fapl);
  check(file >= 0, "small file");
  const hsize_t total = path.shared ? n * static_cast<hsize_t>(g_size) : n;
  const hsize_t first = path.shared ? n * static_cast<hsize_t>(g_rank) : 0;
  hid_t space = H5Screate_simple(1, &total, nullptr);
  hid_t ds = write ? H5Dcreate2(file, "small", H5T_NATIVE_INT, space, H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT)
                   : H5Dopen2(file, "small", H5P_DEFAULT);
  check(ds >= 0, "small dataset");
  hsize_t one = 1;
  hid_t mem = H5Screate_simple(1, &one, nullptr);
  hid_t dxpl = H5P_DEFAULT;
  if (path.shared) {
    dxpl = H5Pcreate(H5P_DATASET_XFER);
    check(dxpl >= 0 && H5Pset_dxpl_mpio(dxpl, H5FD_MPIO_INDEPENDENT) >= 0, "small transfer list");
  }
  long long sum = 0;
  for (hsize_t i = 0; i < n; ++i) {
    int v = static_cast<int>(i);
    hsize_t at = first + i;
    check(H5Sselect_hyperslab(space, H5S_SELECT_SET, &at, nullptr, &one, nullptr) >= 0, "small select");
    if (write) {
      check(H5Dwrite(ds, H5T_NATIVE_INT, mem, space, dxpl, &v) >= 0, "small write");
    } else {
      check(H5Dread(ds, H5T_NATIVE_INT, mem, space, dxpl, &v) >= 0, "small read");
      sum += v;
    }
  }
  if (path.shared) H5Pclose(dxpl);
  H5Sclose(mem);
  H5Dclose(ds);
  H5Sclose(space);
  H5Fclose(file);
  report(write ? path.write_kernel : path.read_kernel, t);
  H5Pclose(fapl);
  if (!write) check(sum == static_cast<long long>(n) * static_cast<long long>(n - 1) / 2, "small read back");
}

}  // namespace

// The layers of a paired run: native, then each "name info" connector string.
std::vector<Layer> paired_layers(char** first, char** last) {
  std::vector<Layer> layers{{"native", H5VL_NATIVE, nullptr}};
  for (char** c = first; c != last; ++c) {
    std::string spec = *c, name = spec.substr(0, spec.find(' '));
    std::string info = name.size() < spec.size() ? spec.substr(name.size() + 1) : "";
    // HDF5's own pass-through is built in, registered by its function rather than found by name.
    Layer l{
        name,
        name == "pass_through" ? H5VL_PASSTHRU : H5VLregister_connector_by_name(name.c_str(), H5P_DEFAULT),
        nullptr};
    check(l.connector >= 0, "registering a paired connector");
    check(info.empty() || H5VLconnector_str_to_info(info.c_str(), l.connector, &l.info) >= 0,
          "connector info");
    layers.push_back(l);
  }
  return layers;
}

// The first file operation carries each layer's one-time setup (for provio: identity, output
// directory and file); timed on its own so that the kernels measure the steady state.
void warm_up(const Layer& layer, const std::string& dir) {
  hid_t fapl = file_access(layer);
  MPI_Barrier(MPI_COMM_WORLD);
  Timer t;
  std::string warm = dir + "/warmup-" + std::to_string(g_rank) + ".h5";
  hid_t f = H5Fcreate(warm.c_str(), H5F_ACC_TRUNC, H5P_DEFAULT, fapl);
  check(f >= 0 && H5Fclose(f) >= 0, "warm-up file");
  report("startup", t);
  H5Pclose(fapl);
}

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &g_rank);
  MPI_Comm_size(MPI_COMM_WORLD, &g_size);
  if (argc < 8 || argc == 10) {
    if (g_rank == 0)
      std::fprintf(stderr, "usage: vol_bench DIR N T G D A S [KERNEL,... [ROUNDS CONNECTOR...]]\n");
    MPI_Finalize();
    return 1;
  }
  std::string dir = argv[1];
  hsize_t n = std::strtoull(argv[2], nullptr, 10);
  int steps = std::atoi(argv[3]);
  hsize_t small = std::strtoull(argv[7], nullptr, 10);
  const char* const all_kernels =
      "vpic,bdcats,metadata,small_write,small_read,small_io_write,small_io_read,small_mpio_write,small_mpio_"
      "read";
  std::string kernels = "," + std::string(argc >= 9 ? argv[8] : all_kernels) + ",";
  auto wanted = [&](const char* k) { return kernels.find("," + std::string(k) + ",") != std::string::npos; };
  H5open();  // load the connector before any kernel is timed
  const bool paired = argc > 10;
  const int rounds = paired ? std::atoi(argv[9]) : 1;
  // Assigned, not picked by a conditional between a call and a temporary: g++ 16 then took
  // g_layer, which points into `layers`, for a pointer into that temporary (-Wdangling-pointer).
  std::vector<Layer> layers(1);  // the default layer
  if (paired) layers = paired_layers(argv + 10, argv + argc);
  for (const Layer& layer : layers) {
    g_layer = layer.label.c_str();
    warm_up(layer, dir);
  }
  for (int r = 0; r < rounds; ++r) {
    for (std::size_t i = 0; i < layers.size(); ++i) {
      const Layer& layer = layers[(i + r) % layers.size()];  // rotated: no layer always runs first
      g_layer = layer.label.c_str();
      if (wanted("vpic")) vpic(layer, dir + "/vpic.h5", n, steps);
      if (wanted("bdcats")) bdcats(layer, dir + "/vpic.h5", n, steps);
      if (wanted("metadata"))
        metadata(layer, dir, std::atoi(argv[4]), std::atoi(argv[5]), std::atoi(argv[6]));
      for (const SmallPath& path : kSmallPaths)
        for (bool write : {true, false})
          if (wanted(write ? path.write_kernel : path.read_kernel))
            small_transfers(layer, dir, small, write, path);
    }
  }
  g_layer = "";  // `layers` ends with main
  for (const Layer& layer : layers)
    if (layer.info) H5VLfree_connector_info(layer.connector, layer.info);
  MPI_Finalize();
  return 0;
}
