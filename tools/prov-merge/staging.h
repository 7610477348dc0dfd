// The graphs prov-merge --into leaves on a server besides the jobs: staging graphs, where a job
// larger than one chunk is built before it is moved into place (docs/shared-store.md). A load
// stopped by SIGTERM / SIGINT removes its own; one killed outright (SIGKILL, a crash of the
// server or the node) leaves it, and the next load of the same job removes it, which is why a
// staging graph is named after its job: urn:provio:staging:<job, percent-encoded>#<host>-<pid>.
#pragma once

#include <csignal>
#include <cstddef>
#include <string>
#include <vector>

#include "sparql/sparql_server.h"

namespace provio::into {

inline constexpr const char* kStagingPrefix = "urn:provio:staging:";

// This process's staging graph for `job`, and the prefix shared by every staging graph of `job`.
std::string staging_iri(const std::string& job);
std::string staging_prefix(const std::string& job);

// provio's graphs on the server (job graphs and staging graphs), sorted, with their sizes.
struct ServerGraph {
  std::string iri;
  std::size_t triples = 0;
  bool staging() const { return iri.rfind(kStagingPrefix, 0) == 0; }
};
[[nodiscard]] bool provio_graphs(sparql::Server& server, std::vector<ServerGraph>& out, std::string& error);

// --list: one line per graph on standard output ("job" or "staging", triples, IRI).
int list_graphs(sparql::Server& server);

// SIGTERM / SIGINT end a load cleanly: the handler only notes the signal; the load notices it
// between requests, removes its staging graph and returns 128 + the signal. A second signal
// ends the process at once (the handlers are one-shot).
void catch_stop_signals();
int stop_signal();  // the signal noted, 0 if none

}  // namespace provio::into
