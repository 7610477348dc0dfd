// A simulation-style program: reads a key = value configuration file, runs a 2-D heat diffusion
// and writes its snapshots and final field to an HDF5 file. The five lines marked "provio" are
// all it takes to link the configuration, the progress metrics and the output file to the I/O
// that the HDF5 VOL connector records transparently.
//
//   export HDF5_PLUGIN_PATH=<build>/plugins HDF5_VOL_CONNECTOR="provio under_vol=0;under_info={}"
//   ./heat heat.cfg
#include <hdf5.h>

#include <algorithm>
#include <cstdio>
#include <fstream>
#include <map>
#include <string>
#include <vector>

#include "provio/provio.hpp"

namespace {

std::map<std::string, std::string> read_config(const std::string& path) {
  std::map<std::string, std::string> cfg;
  std::ifstream in(path);
  for (std::string line; std::getline(in, line);) {
    line = line.substr(0, line.find('#'));
    auto eq = line.find('=');
    if (eq == std::string::npos) continue;
    auto trim = [](std::string s) {
      s.erase(0, s.find_first_not_of(" \t"));
      s.erase(s.find_last_not_of(" \t\r") + 1);
      return s;
    };
    cfg[trim(line.substr(0, eq))] = trim(line.substr(eq + 1));
  }
  return cfg;
}

bool write_field(hid_t loc, const std::string& name, const std::vector<double>& field, hsize_t ny,
                 hsize_t nx) {
  hsize_t dims[2] = {ny, nx};
  hid_t space = H5Screate_simple(2, dims, nullptr);
  hid_t dset = H5Dcreate2(loc, name.c_str(), H5T_NATIVE_DOUBLE, space, H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT);
  bool ok = dset >= 0 && H5Dwrite(dset, H5T_NATIVE_DOUBLE, H5S_ALL, H5S_ALL, H5P_DEFAULT, field.data()) >= 0;
  if (dset >= 0) H5Dclose(dset);
  H5Sclose(space);
  return ok;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc != 2) {
    std::fprintf(stderr, "usage: %s CONFIG\n", argv[0]);
    return 1;
  }
  auto cfg = read_config(argv[1]);
  auto num = [&](const char* k, double dflt) { return cfg.count(k) ? std::stod(cfg[k]) : dflt; };
  const int nx = static_cast<int>(num("nx", 32)), ny = static_cast<int>(num("ny", 32));
  const int steps = static_cast<int>(num("steps", 100)), every = static_cast<int>(num("snapshot_every", 25));
  const double alpha = num("alpha", 0.2);
  const std::string out = cfg.count("output") ? cfg["output"] : "heat.h5";

  provio::Workflow workflow("heat-diffusion");  // provio
  provio::Task task("simulate");                // provio
  provio::config_file(argv[1]);                 // provio

  std::vector<double> t(static_cast<std::size_t>(nx * ny), 0.0), next(t.size());
  for (int y = ny / 3; y < 2 * ny / 3; ++y)
    for (int x = nx / 3; x < 2 * nx / 3; ++x)
      t[static_cast<std::size_t>(y * nx + x)] = num("hot_temperature", 100);

  hid_t file = H5Fcreate(out.c_str(), H5F_ACC_TRUNC, H5P_DEFAULT, H5P_DEFAULT);
  if (file < 0) return 1;
  hid_t snaps = H5Gcreate2(file, "snapshots", H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT);
  bool ok = snaps >= 0;
  for (int s = 1; s <= steps && ok; ++s) {
    for (int y = 1; y < ny - 1; ++y) {
      for (int x = 1; x < nx - 1; ++x) {
        std::size_t i = static_cast<std::size_t>(y * nx + x);
        next[i] = t[i] + alpha * (t[i - 1] + t[i + 1] + t[i - static_cast<std::size_t>(nx)] +
                                  t[i + static_cast<std::size_t>(nx)] - 4 * t[i]);
      }
    }
    std::swap(t, next);
    if (s % every == 0) {
      ok = write_field(snaps, "step_" + std::to_string(s), t, static_cast<hsize_t>(ny),
                       static_cast<hsize_t>(nx));
      provio::metric("max_temperature", *std::max_element(t.begin(), t.end()), s);  // provio
    }
  }
  ok = ok && write_field(file, "temperature", t, static_cast<hsize_t>(ny), static_cast<hsize_t>(nx));
  if (snaps >= 0) H5Gclose(snaps);
  if (H5Fclose(file) < 0) ok = false;
  task.output(provio::Data::file(out));  // provio
  std::printf("%s: %d steps on %dx%d, max temperature %.3f\n", out.c_str(), steps, nx, ny,
              *std::max_element(t.begin(), t.end()));
  return ok ? 0 : 1;
}
