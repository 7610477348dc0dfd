// Staging graphs on the server, and the signals that interrupt a load (see staging.h).
#include "staging.h"

#include <unistd.h>

#include <algorithm>
#include <climits>
#include <cstdio>
#include <cstdlib>

#include "graph/terms.h"
#include "net/http.h"

namespace provio::into {
namespace {

volatile std::sig_atomic_t g_signal = 0;

void on_stop(int sig) {
  g_signal = sig;
}

}  // namespace

std::string staging_prefix(const std::string& job) {
  // '#' is percent-encoded in a job name, so no other job's prefix starts with this one.
  return kStagingPrefix + net::percent_encode(job) + "#";
}

std::string staging_iri(const std::string& job) {
  char host[HOST_NAME_MAX + 1] = {};
  if (gethostname(host, sizeof host - 1) != 0) host[0] = '\0';
  return staging_prefix(job) + net::percent_encode(host) + "-" + std::to_string(::getpid());
}

bool provio_graphs(sparql::Server& server, std::vector<ServerGraph>& out, std::string& error) {
  sparql::Results r;
  std::string q =
      std::string("SELECT ?g (COUNT(*) AS ?n) WHERE { GRAPH ?g { ?s ?p ?o } FILTER(STRSTARTS(STR(?g), \"") +
      sparql::kGraphPrefix + "\") || STRSTARTS(STR(?g), \"" + kStagingPrefix + "\")) } GROUP BY ?g";
  if (!server.select(q, r, error)) return false;
  out.clear();
  for (const auto& row : r.rows)
    if (row.size() == 2 && row[0] && row[1])
      out.push_back({row[0]->value, static_cast<std::size_t>(rdf::parse_u64(row[1]->value).value_or(0))});
  std::sort(out.begin(), out.end(), [](const ServerGraph& a, const ServerGraph& b) { return a.iri < b.iri; });
  return true;
}

int list_graphs(sparql::Server& server) {
  std::vector<ServerGraph> graphs;
  std::string error;
  if (!provio_graphs(server, graphs, error)) {
    std::fprintf(stderr, "prov-merge: cannot list the server's graphs: %s\n", error.c_str());
    return 1;
  }
  for (const ServerGraph& g : graphs)
    std::printf("%-8s %12zu  %s\n", g.staging() ? "staging" : "job", g.triples, g.iri.c_str());
  return 0;
}

void catch_stop_signals() {
  struct sigaction sa {};
  sa.sa_handler = on_stop;
  sa.sa_flags = SA_RESETHAND;
  sigemptyset(&sa.sa_mask);
  for (int sig : {SIGTERM, SIGINT}) sigaction(sig, &sa, nullptr);
}

int stop_signal() {
  return g_signal;
}

}  // namespace provio::into
