// The one error convention of the tools' libraries (tools/graph, tools/query): a function that
// can fail returns a Status, which the caller must look at ([[nodiscard]]); the mains turn a
// failed one into "TOOL: message" and an exit code (cli.h).
// Hard rule: the message names what and where ("path: why", "path:line:col: why") and never
// starts with a tool name: the main adds it. Nothing in the libraries throws or prints.
#pragma once

#include <string>
#include <utility>

namespace provio::rdf {

struct [[nodiscard]] Status {
  bool ok = true;
  std::string message;

  static Status success() { return {}; }
  static Status error(std::string m) { return {false, std::move(m)}; }
};

}  // namespace provio::rdf
