// A tiny program that does "known I/O" through provio's C API, for prov-query's tests: each
// argument is one call, OP:PATH[:/object]:BYTES[xN], recorded with the HDF5 API name of OP.
//   create  H5Fcreate on the file           open   H5Fopen on the file
//   write   H5Dwrite on the object/file     read   H5Dread on the object/file
//   close   H5Fclose on the file            xN     repeat the call N times
// It also writes the expected totals (calls, bytes per API) to stdout, so tests compare
// prov-query's stats with what really happened.
#include <provio/provio.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>

int main(int argc, char** argv) {
  for (int i = 1; i < argc; ++i) {
    std::string arg = argv[i];
    auto c1 = arg.find(':');
    auto c2 = arg.rfind(':');
    if (c1 == std::string::npos || c2 == c1) {
      std::fprintf(stderr, "io_program: bad argument '%s' (OP:PATH[:/object]:BYTES[xN])\n", argv[i]);
      return 1;
    }
    std::string op = arg.substr(0, c1), target = arg.substr(c1 + 1, c2 - c1 - 1), amount = arg.substr(c2 + 1);
    unsigned long long bytes = std::strtoull(amount.c_str(), nullptr, 10), repeat = 1;
    if (auto x = amount.find('x'); x != std::string::npos)
      repeat = std::strtoull(amount.c_str() + x + 1, nullptr, 10);
    std::string path = target, object;
    if (auto o = target.find(":/"); o != std::string::npos) {
      path = target.substr(0, o);
      object = target.substr(o + 1);
    }
    provio_entity_t file = provio_file(path.c_str());
    provio_entity_t e = object.empty() ? file : provio_object(file, object.c_str(), PROVIO_DATASET);
    provio_op_t kind;
    const char* api;
    if (op == "create")
      kind = PROVIO_CREATE, api = "H5Fcreate";
    else if (op == "open")
      kind = PROVIO_OPEN, api = "H5Fopen";
    else if (op == "write")
      kind = PROVIO_WRITE, api = object.empty() ? "pwrite" : "H5Dwrite";
    else if (op == "read")
      kind = PROVIO_READ, api = object.empty() ? "pread" : "H5Dread";
    else if (op == "close")
      kind = PROVIO_CLOSE, api = "H5Fclose";
    else {
      std::fprintf(stderr, "io_program: unknown op '%s'\n", op.c_str());
      return 1;
    }
    if (op == "create") {  // really create it, so the path canonicalises like a real file
      if (FILE* f = std::fopen(path.c_str(), "a")) std::fclose(f);
    }
    for (unsigned long long n = 0; n < repeat; ++n) {
      // Elapsed is fixed (1 µs per call) so totals are exact and tests are not timing-dependent.
      if (provio_record_io(kind, api, e, bytes, 0, 1000) != PROVIO_OK) {
        std::fprintf(stderr, "io_program: %s\n", provio_last_error());
        return 1;
      }
    }
    std::printf("%s %llu %llu\n", api, repeat, bytes * repeat);
  }
  provio_flush();
  return 0;
}
