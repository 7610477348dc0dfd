// What the reader fuzz targets check alike: the bytes, written to a file without a name (memfd)
// and read by path as prov-merge reads its inputs, give a graph whose N-Triples are valid UTF-8
// that raptor parses back to as many triples. Aborts (fuzz::require) otherwise.
#pragma once

#include <cstddef>

namespace provio::fuzz {

// `file_name` names the memfd (what a message about the input would show).
void require_read_back(const void* bytes, std::size_t size, const char* file_name);

}  // namespace provio::fuzz
