// prov-merge --into URL: each job as one named graph of a SPARQL 1.1 server, through the Graph
// Store HTTP Protocol (docs/shared-store.md).
//
// Hard rule: a job's graph on the server is replaced as a whole or not at all. Its current
// content is read back and merged with the job's files exactly as a local incremental merge
// would (so loading twice changes nothing and partly loaded summary parts fold once); a graph
// larger than one chunk is built in a staging graph and moved into place with SPARQL Update.
#pragma once

#include <cstddef>
#include <string>
#include <vector>

#include "sparql/sparql_server.h"

namespace provio::into {

struct Options {
  sparql::Endpoints endpoints;  // --into is the Graph Store URL; --query / --update override
  std::string credentials;      // netrc-format file
  std::string ca_file;          // PEM certificates to trust for HTTPS
  std::string graph;            // --graph NAME: the job's name when there is one job
  std::vector<std::string> remove;
  std::size_t chunk = 0;      // triples per request; 0: the default of the way of loading
  bool by_update = false;     // --load-with update: SPARQL Update INSERT DATA, not the Graph Store
  bool list = false;          // --list: provio's graphs on the server
  bool remove_stale = false;  // --remove-stale: every staging graph
  bool active() const { return !endpoints.store.empty() || needs_no_input(); }
  bool needs_no_input() const { return !remove.empty() || list || remove_stale; }
};

// Stores the value of one of the options above ("--into", "--graph", "--remove", "--query",
// "--update", "--credentials", "--ca-file", "--chunk", "--load-with", and the flags "--list",
// "--remove-stale"; prov-merge's option table lists them); false with a message if it is malformed.
bool set_option(const std::string& arg, const std::string& value, Options& o, std::string& error);
extern const char* const kUsage;

// Loads every job of `inputs` (and removes the --remove jobs and graphs, --remove-stale's staging
// graphs), or lists the graphs (--list). Returns prov-merge's exit status; 128 + the signal when
// SIGTERM / SIGINT stopped it (staging.h).
int run(const std::vector<std::string>& inputs, unsigned jobs, bool quiet, const Options& o);

// The job name of each input: a directory holding provenance files is one job named after it;
// a directory of such directories is one job per subdirectory; a file is a job named after its
// stem. Pairs of (name, inputs).
std::vector<std::pair<std::string, std::vector<std::string>>> jobs_of(const std::vector<std::string>& inputs);

// urn:provio:graph:<name, percent-encoded>.
std::string graph_iri(const std::string& job);

}  // namespace provio::into
