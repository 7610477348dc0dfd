// prov-merge: consolidates the per-thread provenance files of one or many jobs (and merged graphs
// or stores made before) into one graph, folding summary parts (docs/prov-merge.md).
//
// Hard rule: never drop data silently. Every input problem is reported as "file:line: message",
// everything readable is merged, and the exit status is 2 when anything was dropped or skipped.
#include <sys/stat.h>
#include <unistd.h>

#include <chrono>
#include <csignal>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <string>
#include <thread>
#include <utility>
#include <vector>

#include "cli/cli.h"
#include "cli/options.h"
#include "cli/progress.h"
#include "cli/terminal.h"
#include "cli/trust.h"
#include "graph/bytes.h"
#include "graph/fold.h"
#include "graph/graph.h"
#include "graph/output.h"
#include "graph/reader.h"
#include "graph/store.h"
#include "graph/store_lock.h"
#include "graph/writer.h"
#include "into.h"
#include "query/query_graph.h"
#include "query/view.h"
#include "ranks.h"

namespace {

using provio::merge::Mpi;
using provio::rdf::get;
using provio::rdf::Graph;
using provio::rdf::put;
using provio::rdf::ReadResult;
using provio::rdf::Status;

constexpr const char* kTool = "prov-merge";
using provio::cli::kExitData;
using provio::cli::kExitOk;
using provio::cli::kExitUsage;

struct Options {
  std::vector<std::string> inputs;
  std::string output = "-";
  std::string format;  // empty: from the output's extension, else turtle
  std::string store;
  unsigned jobs = 0;
  bool quiet = false;
  bool follow = false;
  bool trust_inputs = false;  // read other users' inputs (and --store) with a warning
  double interval = 5;
  long rounds = 0;  // --follow: stop after this many merges (0: until interrupted)
  provio::into::Options into;
};

// The --help text (the --into family's lines from into.h).
const std::string& usage() {
  static const std::string text =
      std::string(
          "usage: prov-merge [options] INPUT...\n"
          "Merges provio provenance into one RDF graph, folding summary parts.\n"
          "INPUT: a directory (searched recursively for *.ttl and *.nt), a provenance file, or\n"
          "a graph merged before (Turtle, N-Triples, RDF/XML by extension).\n"
          "\n"
          "  -o, --output FILE    write the graph to FILE (default '-': standard output)\n"
          "  -f, --format NAME    turtle (default), ntriples, or a raptor serializer: rdfxml,\n"
          "                       rdfxml-abbrev, json (RDF/JSON), json-triples, nquads, ...\n"
          "                       (default from FILE's extension: .nt .rdf .json)\n"
          "  -j, --jobs N         parser threads per process (default: all cores)\n"
          "      --store DIR      also load the graph into a Redland store (hashes, bdb) in DIR;\n"
          "                       a store already there is merged in first\n"
          "      --follow         keep merging while a job runs: re-merge every --interval\n"
          "                       seconds and replace the output, until interrupted\n"
          "      --interval SEC   --follow period (default 5)\n"
          "      --rounds N       --follow: stop after N merges\n"
          "      --trust-inputs   read inputs (and a --store) another user could have planted\n"
          "                       (docs/security.md), with a warning\n") +
      provio::into::kUsage +
      "  -q, --quiet          no summary line, no progress on a terminal\n"
      "  -V, --version        the provio version\n"
      "  -h, --help           this help\n"
      "\n"
      "Under mpirun, the inputs are split across ranks and rank 0 writes the result.\n"
      "Exit status: 0 merged everything; 2 merged, but some input was damaged, dropped or\n"
      "skipped (see the messages); 1 usage or output error.\n";
  return text;
}

int misuse(const std::string& message) {
  return provio::cli::usage_error(kTool, usage(), message);
}

// prov-merge's options (options.h); the --into family is handed to into.h.
const std::vector<provio::cli::OptionSpec> kOptions = {
    {"--output", "-o", true},
    {"--format", "-f", true},
    {"--jobs", "-j", true},
    {"--store", nullptr, true},
    {"--follow", nullptr, false},
    {"--interval", nullptr, true},
    {"--rounds", nullptr, true},
    {"--quiet", "-q", false},
    {"--version", "-V", false},
    {"--help", "-h", false},
    {"--into", nullptr, true},
    {"--graph", nullptr, true},
    {"--remove", nullptr, true},
    {"--query", nullptr, true},
    {"--update", nullptr, true},
    {"--credentials", nullptr, true},
    {"--ca-file", nullptr, true},
    {"--chunk", nullptr, true},
    {"--load-with", nullptr, true},
    {"--list", nullptr, false},
    {"--remove-stale", nullptr, false},
    {provio::cli::kTrustInputs, nullptr, false},
};

// Parses argv; returns -1 to go on, else an exit code.
int parse_args(int argc, char** argv, Options& o) {
  provio::cli::ParsedArgs p;
  Status s = provio::cli::parse_options(argc, argv, 1, kOptions, "", p);
  if (!s.ok) return misuse(s.message);
  if (p.has("--help")) {
    std::fputs(usage().c_str(), stdout);
    return std::fflush(stdout) == 0 ? kExitOk : kExitData;
  }
  if (p.has("--version")) return provio::cli::print_version(kTool);
  for (const provio::cli::ParsedOption& opt : p.options) {
    const std::string name = opt.spec->name;
    const std::string& v = opt.value;
    char* end = nullptr;
    if (name == "--quiet") {
      o.quiet = true;
    } else if (name == "--follow") {
      o.follow = true;
    } else if (name == provio::cli::kTrustInputs) {
      o.trust_inputs = true;
    } else if (name == "--output") {
      o.output = v;
    } else if (name == "--format") {
      o.format = v;
      if (!provio::rdf::is_output_format(o.format)) return misuse("unknown format '" + o.format + "'");
    } else if (name == "--jobs") {
      long n = std::strtol(v.c_str(), &end, 10);
      if (v.empty() || *end || n < 1 || n > 1024) return misuse("bad number of jobs '" + v + "'");
      o.jobs = static_cast<unsigned>(n);
    } else if (name == "--store") {
      if (v.empty()) return misuse("option --store needs a directory");
      o.store = v;
    } else if (name == "--interval") {
      o.interval = std::strtod(v.c_str(), &end);
      if (v.empty() || *end || !(o.interval > 0)) return misuse("bad interval '" + v + "'");
    } else if (name == "--rounds") {
      o.rounds = std::strtol(v.c_str(), &end, 10);
      if (v.empty() || *end || o.rounds < 1) return misuse("bad number of rounds '" + v + "'");
    } else {
      std::string error;
      if (!provio::into::set_option(name, v, o.into, error)) return misuse(error);
    }
  }
  o.inputs = std::move(p.positional);
  if (o.inputs.empty() && !o.into.needs_no_input()) return misuse("no input");
  if (o.into.active() && (o.output != "-" || !o.store.empty() || o.follow || o.trust_inputs))
    return misuse("--into and --remove exclude -o, --store, --follow and --trust-inputs");
  if (o.format.empty()) {
    auto ends = [&](const char* s) {
      std::string x = s;
      return o.output.size() >= x.size() && o.output.compare(o.output.size() - x.size(), x.size(), x) == 0;
    };
    o.format = ends(".nt")                    ? "ntriples"
               : ends(".rdf") || ends(".xml") ? "rdfxml"
               : ends(".json")                ? "json"
               : ends(".nq")                  ? "nquads"
                                              : "turtle";
  }
  return -1;
}

// A rank's share of the work, shipped to rank 0: counters, messages, then the graph.
std::string pack(const ReadResult& r, const Graph& g) {
  std::string out;
  put<std::uint64_t>(out, r.files);
  put<std::uint64_t>(out, r.triples_in);
  put<std::uint64_t>(out, r.damaged);
  put<std::uint64_t>(out, r.messages.size());
  for (const std::string& m : r.messages) {
    put<std::uint32_t>(out, static_cast<std::uint32_t>(m.size()));
    out += m;
  }
  g.serialize(out);
  return out;
}

bool unpack(std::string_view in, ReadResult& r, Graph& g) {
  std::uint64_t files, triples, damaged, n;
  if (!get(in, files) || !get(in, triples) || !get(in, damaged) || !get(in, n)) return false;
  r.files += files;
  r.triples_in += triples;
  r.damaged += damaged;
  for (std::uint64_t k = 0; k < n; ++k) {
    std::uint32_t len;
    if (!get(in, len) || in.size() < len) return false;
    r.messages.emplace_back(in.substr(0, len));
    in.remove_prefix(len);
  }
  return g.merge_serialized(in);
}

bool write_output(const Options& o, const Graph& g) {
  if (o.output == "-") {
    Status s = provio::rdf::write_graph(g, o.format, stdout);
    if (s.ok && (std::fflush(stdout) != 0 || std::ferror(stdout)))
      s = Status::error(std::string("write error: ") + std::strerror(errno));
    if (!s.ok) std::fprintf(stderr, "%s: standard output: %s\n", kTool, s.message.c_str());
    return s.ok;
  }
  // Written beside the target and renamed into place (graph/output.h): readers (and --follow)
  // never see half a file, and a symlink planted at the path is replaced, not followed.
  provio::rdf::OutputFile out;
  Status s = out.open(o.output);
  if (s.ok) {
    s = provio::rdf::write_graph(g, o.format, out.stream());
    if (!s.ok) s.message = o.output + ": " + s.message;
  }
  if (s.ok) s = out.commit();
  if (!s.ok) provio::cli::print_message(kTool, s.message);
  return s.ok;
}

provio::cli::OtherOwners other_owners(const Options& o) {
  return o.trust_inputs ? provio::cli::OtherOwners::kWarn : provio::cli::OtherOwners::kRefuse;
}

// Takes the store's lock (graph/store_lock.h), after judging who could have planted the store: it
// is read and then replaced, so one another user could have planted is refused as an input is.
Status lock_store(const Options& o, provio::rdf::StoreLock& lock) {
  if (provio::cli::Trust t = provio::cli::directory_trust(o.store); !t.ok) {
    if (!o.trust_inputs)
      return Status::error(o.store + ": refused as the store: another user could have planted it: " + t.why +
                           " (give --trust-inputs to merge into it anyway)");
    provio::cli::print_message(
        kTool, o.store + ": warning: merging into a store another user could have planted: " + t.why);
  }
  return lock.acquire(o.store, [&] {
    if (!o.quiet)
      provio::cli::print_message(kTool, o.store + ": waiting for another merge into it to finish");
  });
}

volatile std::sig_atomic_t g_stop = 0;
void on_signal(int) {
  g_stop = 1;
}
// Builds prov-query's activity index beside a new store (docs/prov-query.md, "store cache"), so
// that the first I/O question on the store is as fast as later ones, from the graph just written
// (the store holds exactly it). Best effort: prov-query rebuilds the index itself if this fails.
void index_store_for_queries(const std::string& store, Graph&& graph) {
  provio::query::QueryGraph g;
  if (!g.hold(std::make_unique<Graph>(std::move(graph)), store).ok) return;
  provio::query::View view(g);
  view.each_activity([](provio::query::ActivityRecord&&) {}, [] {});  // written, not held
}

// One merge: read (this rank's share), reduce on rank 0, fold, write. Returns the exit code.
// `growing`: a --follow round before the stop, while writers may be mid-line.
int merge_once(const Options& o, const Mpi& mpi, bool growing = false) {
  auto t0 = std::chrono::steady_clock::now();
  provio::cli::Progress progress(kTool, o.quiet || mpi.rank != 0 || growing);
  ReadResult result;
  std::vector<std::string> files = provio::rdf::list_inputs(o.inputs, result, true, other_owners(o));
  progress.step("reading " + std::to_string(files.size()) + " files");
  if (mpi.rank != 0) result = ReadResult();  // rank 0 reports the listing problems once
  std::size_t begin = files.size() * static_cast<std::size_t>(mpi.rank) / static_cast<std::size_t>(mpi.size);
  std::size_t end =
      files.size() * static_cast<std::size_t>(mpi.rank + 1) / static_cast<std::size_t>(mpi.size);
  std::vector<std::string> mine(files.begin() + static_cast<long>(begin),
                                files.begin() + static_cast<long>(end));

  Graph graph;
  provio::rdf::read_files(mine, o.jobs, graph, result, begin, growing);
  int status = kExitOk;
  if (mpi.several()) {
    if (mpi.rank != 0) {
      mpi.send(pack(result, graph), 0);
      mpi.broadcast(status);
      return status;
    }
    for (int r = 1; r < mpi.size; ++r) {
      if (!unpack(mpi.receive(r), result, graph)) {
        std::fprintf(stderr, "%s: rank %d sent a malformed graph\n", kTool, r);
        status = kExitUsage;
      }
    }
  }
  provio::rdf::StoreLock lock;
  if (!o.store.empty()) {
    if (Status s = lock_store(o, lock); !s.ok) {
      provio::cli::print_message(kTool, s.message);
      status = kExitUsage;
      mpi.broadcast(status);
      return status;
    }
    // A store that cannot be read whole holds earlier jobs this merge would lose: it stays.
    if (provio::rdf::is_store(o.store)) {
      if (Status s = provio::rdf::load_store(o.store, graph, &result.triples_in); !s.ok) {
        provio::cli::print_message(kTool, s.message + " (left as it is)");
        status = kExitUsage;
        mpi.broadcast(status);
        return status;
      }
    }
  }
  progress.step("folding");
  for (const std::string& m : result.messages) provio::cli::print_message(kTool, m);
  provio::rdf::FoldResult folded = provio::rdf::fold(graph);
  for (const std::string& m : folded.messages) provio::cli::print_message(kTool, m);

  progress.step("writing " + std::to_string(graph.size()) + " triples");
  graph.sort();  // in place: the writers then need no sorted copy
  bool ok = write_output(o, graph);
  if (ok && !o.store.empty()) {
    if (Status s = provio::rdf::save_store(o.store, graph); !s.ok) {
      provio::cli::print_message(kTool, s.message);
      ok = false;
    }
  }
  std::size_t triples_out = graph.size();
  if (ok && !o.store.empty()) index_store_for_queries(o.store, std::move(graph));
  double secs = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  if (!o.quiet) {
    std::fprintf(
        stderr,
        "%s: %zu files, %llu triples in, %zu unique triples out, %zu activities folded, %.3f s, %.0f "
        "triples/s%s\n",
        kTool, result.files, static_cast<unsigned long long>(result.triples_in), triples_out,
        folded.activities, secs, secs > 0 ? static_cast<double>(result.triples_in) / secs : 0.0,
        result.damaged ? (", " + std::to_string(result.damaged) + " inputs damaged or skipped").c_str() : "");
  }
  if (!ok)
    status = kExitUsage;
  else if (status == kExitOk && result.damaged)
    status = kExitData;
  mpi.broadcast(status);
  return status;
}

// Merges every `interval` seconds. SIGINT / SIGTERM / SIGHUP end the wait early and one last merge runs,
// so the output holds everything flushed before the stop.
int follow(const Options& o, const Mpi& mpi) {
  // One-shot handlers: the first signal asks for the last merge, a second one (the merge itself
  // is taking too long) ends the process the usual way.
  struct sigaction sa {};
  sa.sa_handler = on_signal;
  sa.sa_flags = SA_RESETHAND;
  sigemptyset(&sa.sa_mask);
  for (int sig : {SIGINT, SIGTERM, SIGHUP}) sigaction(sig, &sa, nullptr);
  int status = kExitOk;
  for (long round = 1;; ++round) {
    int stopping = g_stop;
    mpi.broadcast(stopping);
    bool last = stopping || (o.rounds && round >= o.rounds);
    status = merge_once(o, mpi, !last);
    if (status == kExitUsage || last) break;
    auto until = std::chrono::steady_clock::now() + std::chrono::duration<double>(o.interval);
    while (!g_stop && std::chrono::steady_clock::now() < until) {
      std::this_thread::sleep_for(std::chrono::milliseconds(20));
    }
  }
  return status;
}

}  // namespace

int main(int argc, char** argv) {
  Options o;
  int rc = parse_args(argc, argv, o);
  if (rc >= 0) return rc;
  if (o.follow && o.output == "-") return misuse("--follow needs -o FILE");
  if (o.into.active()) return provio::into::run(o.inputs, o.jobs, o.quiet, o.into);
  Mpi mpi;
  mpi.init(&argc, &argv);
  int status = o.follow ? follow(o, mpi) : merge_once(o, mpi);
  if (mpi.rank == 0 && std::fclose(stdout) != 0 && status != kExitUsage) {
    std::fprintf(stderr, "%s: standard output: %s\n", kTool, std::strerror(errno));
    status = kExitUsage;
  }
  return status;
}
