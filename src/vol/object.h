// The connector's wrapper around every object the connector below hands up (files, groups,
// datasets, attributes, named datatypes, async requests), and what provio knows about it.
// Hard rule: a wrapper owns one reference on its under connector id and nothing else of HDF5's;
// it is freed only after the under object was successfully released (or unwrapped).
#pragma once

#include <hdf5.h>

#include <cstdint>
#include <string>

#include "model/event.h"

namespace provio::vol {

struct Obj {
  void* under = nullptr;                      // the under connector's object
  hid_t under_id = H5I_INVALID_HID;           // the under connector (one reference held)
  H5I_type_t type = H5I_BADID;                // what the object is, when known
  model::EntityId file = model::kNoEntity;    // its file, once known
  model::EntityId entity = model::kNoEntity;  // the object itself (a file: the file)
  std::string path;                           // full path inside the file; empty when not (yet) known
  bool mpio = false;                          // its file was opened with the MPI-IO driver
  std::int64_t points = -1;                   // dataset / attribute extent in elements, -1 unknown
};

// Connector info (what HDF5 keeps in a FAPL for us).
struct Info;

}  // namespace provio::vol
