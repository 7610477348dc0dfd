// Opening and listing the tools' inputs (docs/security.md).
//
// Hard rule: an input never blocks and never disappears silently. Files are opened without
// blocking and read only when they are regular files (standard input only when asked for with
// "-"): a FIFO or device named *.ttl would otherwise hang the tool for ever. Everything that
// cannot be read is reported.
#pragma once

#include <string>

namespace provio::rdf {

// A descriptor of `path` open for reading ("-": standard input, not owned), or -1 with `error`
// ("cannot open: …", "not a regular file (fifo)").
int open_input(const std::string& path, std::string& error);

}  // namespace provio::rdf
