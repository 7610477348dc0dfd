// Test program for the VOL connector: writes HDF5 files with known content.
//   vol_sample rich <file>     groups, chunked + gzip datasets, attributes, a named datatype,
//                              a soft link, a compound dataset (input for h5repack / h5dump)
//   vol_sample noclose <file>  writes a dataset and exits without closing anything
//   vol_sample ops <file>      one of each hand-written callback: multi-dataset write/read,
//                              set_extent, link move/copy/delete, attribute rename/delete,
//                              anonymous dataset, object copy, objects HDF5 opens by itself
//   vol_sample errors <file>   failing calls: the HDF5 error stack and errno must be native's;
//                              prints what the caller can observe, for comparison
// Exit status 0 on success; every HDF5 failure that is not expected is fatal.
#include <hdf5.h>

#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

namespace {

void check(bool ok, const char* what) {
  if (!ok) {
    std::fprintf(stderr, "vol_sample: %s failed\n", what);
    std::exit(2);
  }
}

struct Particle {
  int id;
  double x, y;
};

void rich(const char* path) {
  hid_t f = H5Fcreate(path, H5F_ACC_TRUNC, H5P_DEFAULT, H5P_DEFAULT);
  check(f >= 0, "H5Fcreate");
  hid_t g = H5Gcreate2(f, "grid", H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT);
  hid_t g2 = H5Gcreate2(g, "level1", H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT);
  check(g >= 0 && g2 >= 0, "H5Gcreate2");

  // Chunked, compressed 2-D dataset.
  const hsize_t dims[2] = {64, 48};
  const hsize_t chunk[2] = {16, 16};
  std::vector<float> data(dims[0] * dims[1]);
  for (std::size_t i = 0; i < data.size(); ++i) data[i] = static_cast<float>(i % 97) * 0.5f;
  hid_t space = H5Screate_simple(2, dims, nullptr);
  hid_t dcpl = H5Pcreate(H5P_DATASET_CREATE);
  check(H5Pset_chunk(dcpl, 2, chunk) >= 0 && H5Pset_deflate(dcpl, 6) >= 0, "dcpl");
  hid_t d = H5Dcreate2(g2, "temperature", H5T_NATIVE_FLOAT, space, H5P_DEFAULT, dcpl, H5P_DEFAULT);
  check(d >= 0, "H5Dcreate2");
  check(H5Dwrite(d, H5T_NATIVE_FLOAT, H5S_ALL, H5S_ALL, H5P_DEFAULT, data.data()) >= 0, "H5Dwrite");

  // Attributes on the dataset, the group and the root.
  hid_t ascalar = H5Screate(H5S_SCALAR);
  double scale = 0.5;
  hid_t a = H5Acreate2(d, "scale", H5T_NATIVE_DOUBLE, ascalar, H5P_DEFAULT, H5P_DEFAULT);
  check(a >= 0 && H5Awrite(a, H5T_NATIVE_DOUBLE, &scale) >= 0, "attribute scale");
  H5Aclose(a);
  hid_t str = H5Tcopy(H5T_C_S1);
  H5Tset_size(str, 8);
  a = H5Acreate2(g, "units", str, ascalar, H5P_DEFAULT, H5P_DEFAULT);
  check(a >= 0 && H5Awrite(a, str, "kelvin\0\0") >= 0, "attribute units");
  H5Aclose(a);
  const hsize_t vdims[1] = {3};
  hid_t vspace = H5Screate_simple(1, vdims, nullptr);
  int version[3] = {1, 14, 5};
  a = H5Acreate2(f, "version", H5T_NATIVE_INT, vspace, H5P_DEFAULT, H5P_DEFAULT);
  check(a >= 0 && H5Awrite(a, H5T_NATIVE_INT, version) >= 0, "attribute version");
  H5Aclose(a);

  // A named datatype and a dataset of it.
  hid_t ptype = H5Tcreate(H5T_COMPOUND, sizeof(Particle));
  H5Tinsert(ptype, "id", HOFFSET(Particle, id), H5T_NATIVE_INT);
  H5Tinsert(ptype, "x", HOFFSET(Particle, x), H5T_NATIVE_DOUBLE);
  H5Tinsert(ptype, "y", HOFFSET(Particle, y), H5T_NATIVE_DOUBLE);
  check(H5Tcommit2(f, "particle_t", ptype, H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT) >= 0, "H5Tcommit2");
  const hsize_t pdims[1] = {100};
  std::vector<Particle> ps(pdims[0]);
  for (int i = 0; i < 100; ++i) ps[i] = {i, i * 1.5, -i * 0.25};
  hid_t pspace = H5Screate_simple(1, pdims, nullptr);
  hid_t pd = H5Dcreate2(f, "particles", ptype, pspace, H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT);
  check(pd >= 0 && H5Dwrite(pd, ptype, H5S_ALL, H5S_ALL, H5P_DEFAULT, ps.data()) >= 0, "particles");

  // A contiguous integer dataset, written in two hyperslabs.
  const hsize_t idims[1] = {1000};
  std::vector<int> ints(500);
  hid_t ispace = H5Screate_simple(1, idims, nullptr);
  hid_t id = H5Dcreate2(g, "counts", H5T_NATIVE_INT, ispace, H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT);
  hid_t mspace = H5Screate_simple(1, std::vector<hsize_t>{500}.data(), nullptr);
  for (hsize_t half = 0; half < 2; ++half) {
    for (int i = 0; i < 500; ++i) ints[i] = static_cast<int>(half * 500 + i);
    hsize_t start = half * 500, count = 500;
    H5Sselect_hyperslab(ispace, H5S_SELECT_SET, &start, nullptr, &count, nullptr);
    check(H5Dwrite(id, H5T_NATIVE_INT, mspace, ispace, H5P_DEFAULT, ints.data()) >= 0, "counts");
  }
  check(H5Lcreate_soft("/grid/level1/temperature", f, "latest", H5P_DEFAULT, H5P_DEFAULT) >= 0, "soft link");

  for (hid_t x : {id, pd, d}) H5Dclose(x);
  for (hid_t x : {mspace, ispace, pspace, vspace, ascalar, space}) H5Sclose(x);
  for (hid_t x : {ptype, str}) H5Tclose(x);
  H5Pclose(dcpl);
  H5Gclose(g2);
  H5Gclose(g);
  check(H5Fclose(f) >= 0, "H5Fclose");
}

// Closes a file while one of its datasets is still open (HDF5's default "weak" close keeps the
// file alive for it), writes through the dataset afterwards; then writes another file and leaves
// it and its dataset open: HDF5 closes them at exit.
void noclose(const char* path) {
  const hsize_t n = 8;
  hid_t s8 = H5Screate_simple(1, &n, nullptr);
  std::string early = std::string(path) + ".early";
  hid_t e = H5Fcreate(early.c_str(), H5F_ACC_TRUNC, H5P_DEFAULT, H5P_DEFAULT);
  hid_t ed = H5Dcreate2(e, "still_open", H5T_NATIVE_INT, s8, H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT);
  check(ed >= 0 && H5Fclose(e) >= 0, "H5Fclose with an open dataset");
  std::vector<int> iv(8, 5);
  check(H5Dwrite(ed, H5T_NATIVE_INT, H5S_ALL, H5S_ALL, H5P_DEFAULT, iv.data()) >= 0,
        "write after file close");
  check(H5Dclose(ed) >= 0, "H5Dclose after file close");
  H5Sclose(s8);
  hid_t f = H5Fcreate(path, H5F_ACC_TRUNC, H5P_DEFAULT, H5P_DEFAULT);
  const hsize_t dims[1] = {256};
  hid_t s = H5Screate_simple(1, dims, nullptr);
  hid_t d = H5Dcreate2(f, "left_open", H5T_NATIVE_DOUBLE, s, H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT);
  std::vector<double> v(256, 3.0);
  check(d >= 0 && H5Dwrite(d, H5T_NATIVE_DOUBLE, H5S_ALL, H5S_ALL, H5P_DEFAULT, v.data()) >= 0, "write");
  std::exit(0);
}

void ops(const char* path) {
  hid_t f = H5Fcreate(path, H5F_ACC_TRUNC, H5P_DEFAULT, H5P_DEFAULT);
  hid_t g = H5Gcreate2(f, "g", H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT);
  check(f >= 0 && g >= 0, "create");
  const hsize_t n10 = 10, n20 = 20, n5 = 5, unlimited = H5S_UNLIMITED, chunk = 5;
  hid_t s10 = H5Screate_simple(1, &n10, &unlimited), s20 = H5Screate_simple(1, &n20, nullptr),
        s5 = H5Screate_simple(1, &n5, nullptr);
  hid_t dcpl = H5Pcreate(H5P_DATASET_CREATE);
  H5Pset_chunk(dcpl, 1, &chunk);
  hid_t a = H5Dcreate2(g, "a", H5T_NATIVE_INT, s10, H5P_DEFAULT, dcpl, H5P_DEFAULT);
  hid_t b = H5Dcreate2(g, "b", H5T_NATIVE_DOUBLE, s20, H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT);
  hid_t c = H5Dcreate2(f, "/c", H5T_NATIVE_FLOAT, s5, H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT);
  check(a >= 0 && b >= 0 && c >= 0, "H5Dcreate2");
  std::vector<int> ai(10, 7);
  std::vector<double> bd(20, 2.5);
  std::vector<float> cf(5, 1.5f);
  hid_t dsets[3] = {a, b, c};
  hid_t types[3] = {H5T_NATIVE_INT, H5T_NATIVE_DOUBLE, H5T_NATIVE_FLOAT};
  hid_t all[3] = {H5S_ALL, H5S_ALL, H5S_ALL};
  const void* wbufs[3] = {ai.data(), bd.data(), cf.data()};
  check(H5Dwrite_multi(3, dsets, types, all, all, H5P_DEFAULT, wbufs) >= 0, "H5Dwrite_multi");
  void* rbufs[2] = {ai.data(), bd.data()};
  check(H5Dread_multi(2, dsets, types, all, all, H5P_DEFAULT, rbufs) >= 0, "H5Dread_multi");
  // The same with selections of their own (3 of a's elements, 5 of b's), then one H5Dread: the
  // bytes come from dataspaces that are not the last the library looked up (the multi-dataset
  // transfer's first) and from the one that is (the single read's memory space), src/vol/native_lookup.cc.
  const hsize_t from = 2, three = 3, five = 5;
  hid_t fa = H5Dget_space(a), fb = H5Dget_space(b);
  hid_t m3 = H5Screate_simple(1, &three, nullptr), m5 = H5Screate_simple(1, &five, nullptr);
  check(H5Sselect_hyperslab(fa, H5S_SELECT_SET, &from, nullptr, &three, nullptr) >= 0 &&
            H5Sselect_hyperslab(fb, H5S_SELECT_SET, &from, nullptr, &five, nullptr) >= 0,
        "select");
  hid_t mems[2] = {m3, m5}, files[2] = {fa, fb};
  check(H5Dread_multi(2, dsets, types, mems, files, H5P_DEFAULT, rbufs) >= 0,
        "H5Dread_multi with selections");
  check(H5Dread(b, H5T_NATIVE_DOUBLE, m5, fb, H5P_DEFAULT, bd.data()) >= 0, "H5Dread with a selection");
  // Again as floats: a memory type other than the one the dataset's wrapper remembers the size
  // of (src/vol/record.h, transfer_type_size).
  check(H5Dread(b, H5T_NATIVE_FLOAT, m5, fb, H5P_DEFAULT, bd.data()) >= 0, "H5Dread as floats");
  for (hid_t s : {fa, fb, m3, m5}) H5Sclose(s);
  const hsize_t n20b = 20;
  check(H5Dset_extent(a, &n20b) >= 0, "H5Dset_extent");
  check(H5Dwrite(a, H5T_NATIVE_INT, H5S_ALL, H5S_ALL, H5P_DEFAULT, std::vector<int>(20, 1).data()) >= 0,
        "H5Dwrite after set_extent");
  H5Dclose(c);
  check(H5Lmove(f, "/c", g, "c2", H5P_DEFAULT, H5P_DEFAULT) >= 0, "H5Lmove");
  check(H5Lcopy(g, "b", f, "/bcopy", H5P_DEFAULT, H5P_DEFAULT) >= 0, "H5Lcopy");
  check(H5Ldelete(f, "/bcopy", H5P_DEFAULT) >= 0, "H5Ldelete");
  hid_t scalar = H5Screate(H5S_SCALAR);
  hid_t at = H5Acreate2(g, "old", H5T_NATIVE_INT, scalar, H5P_DEFAULT, H5P_DEFAULT);
  check(at >= 0 && H5Aclose(at) >= 0, "H5Acreate2");
  check(H5Arename(g, "old", "new") >= 0, "H5Arename");
  check(H5Adelete(g, "new") >= 0, "H5Adelete");
  // An attribute read back after it was closed (its size then comes from HDF5, not from its
  // create): stored as 8-byte integers, read as 4-byte ints and as doubles.
  const hsize_t n3 = 3;
  hid_t s3 = H5Screate_simple(1, &n3, nullptr);
  const long long wide[3] = {1, 2, 3};
  at = H5Acreate2(b, "wide", H5T_STD_I64LE, s3, H5P_DEFAULT, H5P_DEFAULT);
  check(at >= 0 && H5Awrite(at, H5T_NATIVE_LLONG, wide) >= 0 && H5Aclose(at) >= 0, "attribute wide");
  int narrow[3];
  double real[3];
  at = H5Aopen(b, "wide", H5P_DEFAULT);
  check(at >= 0 && H5Aread(at, H5T_NATIVE_INT, narrow) >= 0 && H5Aread(at, H5T_NATIVE_DOUBLE, real) >= 0 &&
            H5Aclose(at) >= 0 && narrow[2] == 3 && real[1] == 2.0,
        "attribute wide read back");
  // A file's attribute is its root group's.
  at = H5Acreate2(f, "top", H5T_NATIVE_INT, scalar, H5P_DEFAULT, H5P_DEFAULT);
  check(at >= 0 && H5Awrite(at, H5T_NATIVE_INT, narrow) >= 0 && H5Aclose(at) >= 0, "file attribute");
  at = H5Aopen_by_name(f, "/", "top", H5P_DEFAULT, H5P_DEFAULT);
  check(at >= 0 && H5Aread(at, H5T_NATIVE_INT, narrow) >= 0 && H5Aclose(at) >= 0, "root group attribute");
  H5Sclose(s3);
  hid_t anon = H5Dcreate_anon(f, H5T_NATIVE_DOUBLE, s5, H5P_DEFAULT, H5P_DEFAULT);
  check(anon >= 0 && H5Dwrite(anon, H5T_NATIVE_DOUBLE, H5S_ALL, H5S_ALL, H5P_DEFAULT, bd.data()) >= 0,
        "anon");
  H5Dclose(anon);
  check(H5Ocopy(f, "g", f, "gcopy", H5P_DEFAULT, H5P_DEFAULT) >= 0, "H5Ocopy");
  // A committed type that HDF5 hands back by itself (H5Dget_type): named by asking below.
  hid_t t = H5Tcopy(H5T_NATIVE_SHORT);
  check(H5Tcommit2(f, "t", t, H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT) >= 0, "H5Tcommit2");
  hid_t dt = H5Dcreate2(f, "d_t", t, s5, H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT);
  hid_t t2 = H5Dget_type(dt);
  check(t2 >= 0 && H5Tclose(t2) >= 0, "H5Dget_type");
  // An object opened by token: the same IRI as by name.
  H5O_info2_t info;
  check(H5Oget_info3(b, &info, H5O_INFO_BASIC) >= 0, "H5Oget_info3");
  hid_t byt = H5Oopen_by_token(f, info.token);
  check(byt >= 0 && H5Oclose(byt) >= 0, "H5Oopen_by_token");
  // An external link into another file: what is read through it belongs to that file.
  std::string ext = std::string(path) + ".ext.h5";
  hid_t xf = H5Fcreate(ext.c_str(), H5F_ACC_TRUNC, H5P_DEFAULT, H5P_DEFAULT);
  hid_t xd = H5Dcreate2(xf, "x", H5T_NATIVE_INT, s5, H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT);
  check(xd >= 0 && H5Dwrite(xd, H5T_NATIVE_INT, H5S_ALL, H5S_ALL, H5P_DEFAULT, ai.data()) >= 0,
        "external file");
  H5Dclose(xd);
  H5Fclose(xf);
  check(H5Lcreate_external(ext.c_str(), "/x", g, "ext", H5P_DEFAULT, H5P_DEFAULT) >= 0, "H5Lcreate_external");
  hid_t ed = H5Dopen2(f, "/g/ext", H5P_DEFAULT);
  check(ed >= 0 && H5Dread(ed, H5T_NATIVE_INT, H5S_ALL, H5S_ALL, H5P_DEFAULT, ai.data()) >= 0,
        "read via external link");
  H5Dclose(ed);
  for (hid_t x : {dt, b, a}) H5Dclose(x);
  H5Tclose(t);
  for (hid_t x : {scalar, s5, s20, s10}) H5Sclose(x);
  H5Pclose(dcpl);
  H5Gclose(g);
  check(H5Fclose(f) >= 0, "H5Fclose");
}

herr_t count_frames(unsigned, const H5E_error2_t* e, void* data) {
  auto* out = static_cast<std::string*>(data);
  *out += std::string("  ") + (e->func_name ? e->func_name : "?") + ": " + (e->desc ? e->desc : "") + "\n";
  return 0;
}

// Prints what an application sees of failures: return values, the error stack's descriptions,
// errno. Run natively and under the connector, the outputs must be equal.
void errors(const char* path) {
  H5Eset_auto2(H5E_DEFAULT, nullptr, nullptr);
  hid_t f = H5Fcreate(path, H5F_ACC_TRUNC, H5P_DEFAULT, H5P_DEFAULT);
  check(f >= 0, "H5Fcreate");
  errno = 1234;
  hid_t d = H5Dopen2(f, "missing", H5P_DEFAULT);
  std::string stack;
  H5Ewalk2(H5E_DEFAULT, H5E_WALK_DOWNWARD, count_frames, &stack);
  std::printf("H5Dopen2 missing -> %d\n%s", d < 0 ? -1 : 0, stack.c_str());
  hid_t g = H5Gopen2(f, "/no/such/group", H5P_DEFAULT);
  stack.clear();
  H5Ewalk2(H5E_DEFAULT, H5E_WALK_DOWNWARD, count_frames, &stack);
  std::printf("H5Gopen2 missing -> %d\n%s", g < 0 ? -1 : 0, stack.c_str());
  htri_t e = H5Lexists(f, "nothing", H5P_DEFAULT);
  std::printf("H5Lexists -> %d\n", static_cast<int>(e));
  hid_t bad = H5Fopen("/nonexistent/dir/file.h5", H5F_ACC_RDONLY, H5P_DEFAULT);
  stack.clear();
  H5Ewalk2(H5E_DEFAULT, H5E_WALK_DOWNWARD, count_frames, &stack);
  std::printf("H5Fopen missing -> %d\n%s", bad < 0 ? -1 : 0, stack.c_str());
  H5Fclose(f);
}

}  // namespace

int main(int argc, char** argv) {
  if (argc != 3) {
    std::fprintf(stderr, "usage: vol_sample rich|noclose|ops|errors FILE\n");
    return 1;
  }
  std::string mode = argv[1];
  if (mode == "rich") {
    rich(argv[2]);
  } else if (mode == "noclose") {
    noclose(argv[2]);
  } else if (mode == "ops") {
    ops(argv[2]);
  } else if (mode == "errors") {
    errors(argv[2]);
  } else {
    std::fprintf(stderr, "vol_sample: unknown mode %s\n", argv[1]);
    return 1;
  }
  return 0;
}
