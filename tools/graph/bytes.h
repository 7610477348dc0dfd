// Plain binary encoding of fixed-size values, for the graph's serialized form and the MPI
// reduction (same machine type on every rank: no byte-order conversion).
#pragma once

#include <cstring>
#include <string>
#include <string_view>

namespace provio::rdf {

template <typename T>
void put(std::string& out, T v) {
  out.append(reinterpret_cast<const char*>(&v), sizeof v);
}

// Reads one value from the front of `in`; false if too short.
template <typename T>
bool get(std::string_view& in, T& v) {
  if (in.size() < sizeof v) return false;
  std::memcpy(&v, in.data(), sizeof v);
  in.remove_prefix(sizeof v);
  return true;
}

}  // namespace provio::rdf
