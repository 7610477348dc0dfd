// prov-merge --into (see into.h).
#include "into.h"

#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <map>
#include <set>

#include "cli/terminal.h"
#include "graph/fold.h"
#include "graph/graph.h"
#include "graph/reader.h"
#include "graph/terms.h"
#include "graph/writer.h"
#include "sparql/long_iri.h"
#include "staging.h"

namespace provio::into {
namespace {

namespace fs = std::filesystem;
constexpr const char* kTool = "prov-merge";
constexpr int kExitOk = 0, kExitFailed = 1, kExitDamaged = 2;

// Test hook (docs/shared-store.md, "Interrupted loads"): once this many chunks of a staging graph
// are on the server, prov-merge stops itself (SIGSTOP), so a test signals it exactly mid-load.
std::size_t pause_after_chunks() {
  const char* v = std::getenv("PROVIO_TEST_INTO_PAUSE_AFTER");
  return v ? rdf::parse_u64(v).value_or(0) : 0;
}

void pause_for_test(const std::string& job, std::size_t chunks) {
  std::fprintf(stderr, "%s: %s: paused after %zu chunks (PROVIO_TEST_INTO_PAUSE_AFTER)\n", kTool, job.c_str(),
               chunks);
  std::raise(SIGSTOP);
}

std::string signal_name(int sig) {
  return sig == SIGTERM ? "SIGTERM" : sig == SIGINT ? "SIGINT" : "signal " + std::to_string(sig);
}

// The triples a graph holds, counted by the server.
bool count_triples(sparql::Server& server, const std::string& graph, std::size_t& n, std::string& error) {
  sparql::Results r;
  if (!server.select("SELECT (COUNT(*) AS ?n) WHERE { GRAPH " + sparql::iri_ref(graph) + " { ?s ?p ?o } }", r,
                     error))
    return false;
  n = !r.rows.empty() && r.rows[0].size() == 1 && r.rows[0][0]
          ? static_cast<std::size_t>(rdf::parse_u64(r.rows[0][0]->value).value_or(0))
          : 0;
  return true;
}

bool provenance_file(const fs::path& p) {
  fs::path content = p.extension() == ".zst" ? p.stem() : p;  // a compressed raw file
  return content.extension() == ".ttl" || content.extension() == ".nt";
}

// The canonical N-Triples spelling of a term the server sent (graph.h).
std::string canonical(const sparql::Term& t) {
  std::string out;
  switch (t.kind) {
    case sparql::Term::Kind::kIri: rdf::append_iri(out, t.value); break;
    case sparql::Term::Kind::kBlank:
      // Servers label blank nodes in their own syntax ("nodeID://b10000"): keep a valid label.
      out = "_:s";
      for (char c : t.value) out += std::isalnum(static_cast<unsigned char>(c)) ? c : 'x';
      break;
    case sparql::Term::Kind::kLiteral: rdf::append_literal(out, t.value, t.datatype, t.lang); break;
  }
  return out;
}

// A term as a value: a server may keep xsd:double as a machine double and give it back in
// another lexical form ("3e-06" for "0.000003000"), and keep every integer type as xsd:integer
// (Oxigraph: "8"^^xsd:unsignedLong comes back as "8"^^xsd:integer); both are one value. A raw
// file's elapsed time is a bare xsd:decimal until folding makes it the xsd:double the server
// holds: compared as a double, or a job loaded again would hold each such measure twice.
std::string value_of(std::string_view term) {
  auto lit = rdf::parse_literal(term);
  if (!lit || lit->datatype.rfind(rdf::kXsd, 0) != 0) return std::string(term);
  std::string_view type = std::string_view(lit->datatype).substr(std::string_view(rdf::kXsd).size());
  if (type == "double" || type == "decimal") {
    char buf[40];
    std::snprintf(buf, sizeof buf, "%.17g", std::strtod(lit->lexical.c_str(), nullptr));
    return std::string("double:") + buf;
  }
  if (type == "integer" || type == "long" || type == "unsignedLong" || type == "int" ||
      type == "nonNegativeInteger") {
    std::string_view digits = lit->lexical;
    bool negative = !digits.empty() && digits[0] == '-';
    if (!digits.empty() && (digits[0] == '-' || digits[0] == '+')) digits.remove_prefix(1);
    while (digits.size() > 1 && digits[0] == '0') digits.remove_prefix(1);
    return std::string(negative && digits != "0" ? "integer:-" : "integer:") + std::string(digits);
  }
  return std::string(term);
}

bool is_respellable(const std::string& value) {
  return value.rfind("double:", 0) == 0 || value.rfind("integer:", 0) == 0;
}

// The graph's triples as values, to tell whether a load would change anything.
std::set<std::string> value_set(const rdf::Graph& g) {
  std::set<std::string> out;
  for (const rdf::Triple& t : g.triples())
    out.insert(value_of(g.terms[t.s]) + ' ' + value_of(g.terms[t.p]) + ' ' + value_of(g.terms[t.o]));
  return out;
}

bool in_graph(const rdf::Graph& from, const rdf::Triple& t, const rdf::Graph& g) {
  rdf::TermId s = g.terms.find(from.terms[t.s]), p = g.terms.find(from.terms[t.p]),
              o = g.terms.find(from.terms[t.o]);
  return s != rdf::kNoTerm && p != rdf::kNoTerm && o != rdf::kNoTerm && g.contains({s, p, o});
}

// The server gives numbers back in its own form ("0.0001001" for the files' "0.000100100",
// xsd:integer for xsd:unsignedLong). Where the files state the same value, the server's spelling
// is dropped, so folding sees one value, not two.
void drop_respelled_values(rdf::Graph& graph, const rdf::Graph& server) {
  std::map<std::string, std::set<rdf::TermId>> spellings;  // "s p value" → objects
  auto key = [&](const rdf::Triple& t) {
    return std::to_string(t.s) + ' ' + std::to_string(t.p) + ' ' + value_of(graph.terms[t.o]);
  };
  for (const rdf::Triple& t : graph.triples())
    if (is_respellable(value_of(graph.terms[t.o]))) spellings[key(t)].insert(t.o);
  graph.filter([&](const rdf::Triple& t) {
    auto it = spellings.find(key(t));
    return it == spellings.end() || it->second.size() < 2 || !in_graph(graph, t, server);
  });
}

bool has_blank_nodes(const rdf::Graph& g) {
  for (std::size_t i = 0; i < g.terms.size(); ++i)
    if (g.terms[static_cast<rdf::TermId>(i)].substr(0, 2) == "_:") return true;
  return false;
}

// The graph as N-Triples lines, in the writer's deterministic order.
bool ntriples_lines(const rdf::Graph& g, std::vector<std::string>& lines, std::string& error) {
  char* buf = nullptr;
  std::size_t len = 0;
  std::FILE* f = open_memstream(&buf, &len);
  if (!f) {
    error = std::string("cannot allocate: ") + std::strerror(errno);
    return false;
  }
  rdf::Status written = rdf::write_graph(g, "ntriples", f);
  bool ok = written.ok;
  if (!ok) error = written.message;
  std::fclose(f);
  std::string_view text(buf, len);
  for (std::size_t b = 0; ok && b < text.size();) {
    std::size_t e = text.find('\n', b);
    if (e == std::string_view::npos) e = text.size();
    if (e > b) lines.emplace_back(text.substr(b, e + 1 - b));
    b = e + 1;
  }
  std::free(buf);
  return ok;
}

struct Progress {
  bool tty = isatty(STDERR_FILENO) != 0;
  void show(const std::string& job, std::size_t sent, std::size_t total) const {
    if (tty) std::fprintf(stderr, "\r%s: %s: %zu/%zu triples sent", kTool, job.c_str(), sent, total);
  }
  void done() const {
    if (tty) std::fprintf(stderr, "\r\033[K");
  }
};

// N-Triples lines [b, e) as one Turtle body: consecutive triples of one subject share it (";"),
// 43% fewer bytes; Virtuoso 7.2 loaded 935 k triples sent so in a median 8.1 CPU s against 11.1
// for N-Triples (6 runs each, bench/store/load_ways; the ranges overlap on the shared test VM).
// N-Triples terms are Turtle terms, so nothing else changes. A line not of the form
// "S P O .\n" (none from raptor's writer) is copied as it is, a statement of its own.
std::string turtle_body(const std::vector<std::string>& lines, std::size_t b, std::size_t e) {
  std::string body;
  std::string_view subject;
  for (std::size_t i = b; i < e; ++i) {
    std::string_view line = lines[i];
    std::size_t space = line.find(' ');
    bool plain = space != std::string_view::npos && line.size() > space + 4 &&
                 line.compare(line.size() - 3, 3, " .\n") == 0;
    if (!plain || line.substr(0, space) != subject) {
      if (!subject.empty()) body += " .\n";
      subject = {};
      if (!plain) {
        body += line;
        continue;
      }
      subject = line.substr(0, space);
      body += subject;
      body += ' ';
    } else {
      body += " ;\n  ";
    }
    body += line.substr(space + 1, line.size() - space - 4);
  }
  if (!subject.empty()) body += " .\n";
  return body;
}

// Replaces graph `iri` with `lines`: one PUT when they fit one chunk, else a staging graph filled
// chunk by chunk and moved into place, so the job's graph is never seen half-written. `distinct`:
// the triples sent, told apart by value (a store may hold "0.5" and "0.50" as one double, but
// never fewer). Stopped by a signal, the staging graph is removed.
bool upload(sparql::Server& server, const std::string& job, const std::string& iri,
            const std::vector<std::string>& lines, std::size_t distinct, std::size_t chunk,
            std::string& error) {
  Progress progress;
  // The staging graph is outside kGraphPrefix, so questions asked meanwhile never see it.
  std::string target = lines.size() <= chunk ? iri : staging_iri(job);
  std::size_t pause = target == iri ? 0 : pause_after_chunks();
  bool ok = true;
  std::size_t chunks = 0, sent = 0;
  for (std::size_t b = 0; ok && !stop_signal() && (b < lines.size() || b == 0); b += chunk) {
    std::size_t e = std::min(lines.size(), b + chunk);
    std::string body = turtle_body(lines, b, e);
    ok = b == 0 ? server.put_graph(target, body, error) : server.post_graph(target, body, error);
    sent = e;
    progress.show(job, e, lines.size());
    if (++chunks == pause) pause_for_test(job, chunks);
    if (lines.empty()) break;
  }
  progress.done();
  // A job's graph sent whole in one PUT is loaded, signal or not; a staging graph is not yet.
  bool loaded = target == iri && chunks > 0 && sent == lines.size();
  if (ok && !loaded && stop_signal()) {
    error = "interrupted by " + signal_name(stop_signal());
    ok = false;
  }
  // Another load of this job, started meanwhile, removes this one's staging graph as stale (the
  // last load to start wins): moving what is left would replace the job with part of it.
  std::size_t held = 0;
  if (ok && target != iri && count_triples(server, target, held, error) && held < distinct)
    error = "its staging graph " + sparql::iri_ref(target) + " holds " + std::to_string(held) +
            " triples, not " + std::to_string(distinct) + " (removed by another load of the job?)";
  if (ok && target != iri) ok = error.empty();
  if (ok && target != iri)
    ok = server.update("MOVE SILENT " + sparql::iri_ref(target) + " TO " + sparql::iri_ref(iri), error);
  if (!ok && target != iri) {
    std::string ignored;
    (void)server.update("CLEAR SILENT GRAPH " + sparql::iri_ref(target), ignored);
  }
  return ok;
}

// Removes what interrupted loads of `job` left on the server (staging.h).
void remove_stale_staging(sparql::Server& server, const std::string& job,
                          const std::vector<ServerGraph>& graphs, bool quiet) {
  std::string prefix = staging_prefix(job), error;
  for (const ServerGraph& g : graphs) {
    if (g.iri.rfind(prefix, 0) != 0) continue;
    if (server.update("CLEAR SILENT GRAPH " + sparql::iri_ref(g.iri), error)) {
      if (!quiet)
        std::fprintf(stderr, "%s: %s: removed %s (%zu triples), left by an interrupted load\n", kTool,
                     job.c_str(), sparql::iri_ref(g.iri).c_str(), g.triples);
    } else {
      std::fprintf(stderr, "%s: %s: cannot remove the stale %s: %s\n", kTool, job.c_str(),
                   sparql::iri_ref(g.iri).c_str(), error.c_str());
    }
  }
}

// One job: its graph on the server + its files → merged, folded → back, if anything changed.
int load_job(sparql::Server& server, const std::string& job, const std::vector<std::string>& inputs,
             const std::vector<ServerGraph>& graphs, unsigned jobs, std::size_t chunk, bool quiet) {
  auto t0 = std::chrono::steady_clock::now();
  std::string iri = graph_iri(job), error;
  remove_stale_staging(server, job, graphs, quiet);
  std::vector<sparql::Triple> current;
  if (!server.triples("GRAPH " + sparql::iri_ref(iri) + " { ?s ?p ?o }", current, error)) {
    std::fprintf(stderr, "%s: %s: cannot read its graph from the server: %s\n", kTool, job.c_str(),
                 error.c_str());
    return kExitFailed;
  }
  rdf::Graph before, graph;
  for (const auto& t : current) before.add(canonical(t[0]), canonical(t[1]), canonical(t[2]));
  graph.merge(before);
  rdf::ReadResult read;
  rdf::read_files(rdf::list_inputs(inputs, read), jobs, graph, read);
  drop_respelled_values(graph, before);
  for (const std::string& m : read.messages) cli::print_message(kTool, m);
  rdf::FoldResult folded = rdf::fold(graph);
  for (const std::string& m : folded.messages) cli::print_message(kTool, m);

  bool same = graph.size() == before.size() && value_set(graph) == value_set(before);
  std::size_t chunks = 0, triples = graph.size();
  if (!same) {
    std::vector<std::string> lines;
    rdf::Graph held = sparql::server_form(std::move(graph));
    // A blank node is local to one request: a graph holding any goes in one request.
    std::size_t limit = has_blank_nodes(held) ? std::max<std::size_t>(held.size(), 1) : chunk;
    if (stop_signal()) error = "interrupted by " + signal_name(stop_signal());
    if (!error.empty() || !ntriples_lines(held, lines, error) ||
        !upload(server, job, iri, lines, value_set(held).size(), limit, error)) {
      std::fprintf(stderr, "%s: %s: not loaded (the server keeps its previous graph): %s\n", kTool,
                   job.c_str(), error.c_str());
      return kExitFailed;
    }
    chunks = (lines.size() + limit - 1) / limit;
  }
  double secs = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  if (!quiet) {
    if (same)
      std::fprintf(stderr, "%s: %s: %s unchanged (%zu triples), %.3f s\n", kTool, job.c_str(),
                   sparql::iri_ref(iri).c_str(), triples, secs);
    else
      std::fprintf(stderr,
                   "%s: %s: %s %zu triples (was %zu), %zu files, %zu activities folded, %zu requests, %.3f "
                   "s, %.0f triples/s\n",
                   kTool, job.c_str(), sparql::iri_ref(iri).c_str(), triples, before.size(), read.files,
                   folded.activities, chunks, secs, secs > 0 ? static_cast<double>(triples) / secs : 0.0);
  }
  return read.damaged ? kExitDamaged : kExitOk;
}

// `job`: a job name, or the IRI of one of provio's graphs as --list shows it (a staging graph).
int remove_job(sparql::Server& server, const std::string& job, bool quiet) {
  bool named = job.rfind(sparql::kGraphPrefix, 0) == 0 || job.rfind(kStagingPrefix, 0) == 0;
  std::string iri = sparql::iri_ref(named ? job : graph_iri(job)), error;
  sparql::Results r;
  if (!server.select("ASK { GRAPH " + iri + " { ?s ?p ?o } }", r, error)) {
    std::fprintf(stderr, "%s: %s: %s\n", kTool, job.c_str(), error.c_str());
    return kExitFailed;
  }
  if (!r.boolean) {
    std::fprintf(stderr, "%s: %s: no such job on the server (%s)\n", kTool, job.c_str(), iri.c_str());
    return kExitDamaged;
  }
  // CLEAR rather than DROP: Virtuoso refuses to DROP a graph it did not see created by CREATE.
  if (!server.update("CLEAR GRAPH " + iri, error)) {
    std::fprintf(stderr, "%s: %s: not removed: %s\n", kTool, job.c_str(), error.c_str());
    return kExitFailed;
  }
  if (!quiet && named) std::fprintf(stderr, "%s: %s removed\n", kTool, iri.c_str());
  if (!quiet && !named) std::fprintf(stderr, "%s: %s: %s removed\n", kTool, job.c_str(), iri.c_str());
  return kExitOk;
}

}  // namespace

const char* const kUsage =
    "      --into URL       load each job as a named graph into a SPARQL 1.1 server through the\n"
    "                       Graph Store Protocol (URL: its Graph Store endpoint)\n"
    "      --graph NAME     the job's name on the server (one job; default: its directory)\n"
    "      --remove NAME    remove job NAME (or a graph IRI --list shows) from the server\n"
    "                       (repeatable; no INPUT needed)\n"
    "      --list           list provio's graphs on the server: jobs and staging graphs left\n"
    "                       by interrupted loads, with their triples\n"
    "      --remove-stale   remove every staging graph (run it when no load is running)\n"
    "      --query URL, --update URL   the server's SPARQL query / update URLs when they cannot\n"
    "                       be derived from --into\n"
    "      --credentials FILE  netrc-format credentials (default $PROVIO_CREDENTIALS, ~/.netrc)\n"
    "      --ca-file FILE   PEM certificates to trust for HTTPS (default: the system's)\n"
    "      --chunk N        triples per request (default 200000; with --load-with update 2000)\n"
    "      --load-with WAY  graph-store (default) or update: SPARQL 1.1 Update INSERT DATA through\n"
    "                       the update URL, for servers whose Graph Store does not answer\n"
    "                       authenticated writes (Virtuoso 7.2 over HTTPS)\n";

bool set_option(const std::string& arg, const std::string& value, Options& o, std::string& error) {
  std::string name = arg.substr(0, arg.find('='));
  if (name == "--list" || name == "--remove-stale") {
    (name == "--list" ? o.list : o.remove_stale) = true;
    return true;
  }
  if (value.empty()) {
    error = "option " + name + " needs a value";
    return false;
  }
  if (name == "--into") {
    o.endpoints.store = value;
  } else if (name == "--graph") {
    o.graph = value;
  } else if (name == "--remove") {
    o.remove.push_back(value);
  } else if (name == "--query") {
    o.endpoints.query = value;
  } else if (name == "--update") {
    o.endpoints.update = value;
  } else if (name == "--credentials") {
    o.credentials = value;
  } else if (name == "--ca-file") {
    o.ca_file = value;
  } else if (name == "--load-with") {
    if (value != "graph-store" && value != "update") {
      error = "--load-with takes graph-store or update, not '" + value + "'";
      return false;
    }
    o.by_update = value == "update";
  } else {
    char* end = nullptr;
    long n = std::strtol(value.c_str(), &end, 10);
    if (*end || n < 1) {
      error = "bad chunk size '" + value + "'";
      return false;
    }
    o.chunk = static_cast<std::size_t>(n);
  }
  return true;
}

std::string graph_iri(const std::string& job) {
  return sparql::kGraphPrefix + net::percent_encode(job);
}

std::vector<std::pair<std::string, std::vector<std::string>>> jobs_of(
    const std::vector<std::string>& inputs) {
  std::vector<std::pair<std::string, std::vector<std::string>>> out;
  for (const std::string& in : inputs) {
    std::error_code ec;
    fs::path p = fs::path(in).lexically_normal();
    if (p.filename().empty()) p = p.parent_path();
    if (!fs::is_directory(p, ec)) {
      out.push_back({p.stem().string(), {in}});
      continue;
    }
    bool direct = false;
    std::vector<std::string> subdirs;
    for (const auto& e : fs::directory_iterator(p, ec)) {
      if (e.is_regular_file(ec) && provenance_file(e.path())) direct = true;
      if (e.is_directory(ec)) subdirs.push_back(e.path().string());
    }
    std::sort(subdirs.begin(), subdirs.end());
    if (direct || subdirs.empty()) {
      out.push_back({fs::absolute(p, ec).filename().string(), {in}});
      continue;
    }
    for (const auto& d : subdirs) out.push_back({fs::path(d).filename().string(), {d}});
  }
  return out;
}

int run(const std::vector<std::string>& inputs, unsigned jobs, bool quiet, const Options& o) {
  sparql::Endpoints e = o.endpoints;
  std::string error;
  if (e.store.empty() && e.query.empty() && e.update.empty())
    error = "--remove, --remove-stale and --list need the server: give --into URL";
  if (!error.empty() || !complete_endpoints(e, error)) {
    std::fprintf(stderr, "%s: %s\n", kTool, error.c_str());
    return kExitFailed;
  }
  net::Client http(net::Auth{o.credentials, o.ca_file});
  if (!http.ready(error)) {
    std::fprintf(stderr, "%s: %s\n", kTool, error.c_str());
    return kExitFailed;
  }
  http.on_retry = [](const std::string& m) { std::fprintf(stderr, "%s: %s\n", kTool, m.c_str()); };
  sparql::Server server(e, http);
  server.load_with_update(o.by_update);
  // Virtuoso 7.2's SPARQL compiler runs out of memory on an INSERT DATA of ~5000 triples.
  std::size_t chunk = o.chunk ? o.chunk : o.by_update ? 2000 : 200000;
  auto work = jobs_of(inputs);
  if (!o.graph.empty()) {
    if (work.size() != 1) {
      std::fprintf(stderr, "%s: --graph names one job, but the inputs hold %zu\n", kTool, work.size());
      return kExitFailed;
    }
    work[0].first = o.graph;
  }
  // A failure outranks damaged input, which outranks success.
  auto worse = [](int a, int b) {
    return a == kExitFailed || b == kExitFailed ? kExitFailed : std::max(a, b);
  };
  int status = kExitOk;
  if (o.list) return list_graphs(server);
  catch_stop_signals();
  for (const std::string& job : o.remove) status = worse(status, remove_job(server, job, quiet));
  std::vector<ServerGraph> graphs;
  if ((o.remove_stale || !work.empty()) && !provio_graphs(server, graphs, error)) {
    std::fprintf(stderr, "%s: cannot list the server's graphs: %s\n", kTool, error.c_str());
    return kExitFailed;
  }
  for (const ServerGraph& g : graphs)
    if (o.remove_stale && g.staging()) status = worse(status, remove_job(server, g.iri, quiet));
  for (const auto& [job, files] : work) {
    if (stop_signal()) break;
    status = worse(status, load_job(server, job, files, graphs, jobs, chunk, quiet));
  }
  return stop_signal() ? 128 + stop_signal() : status;
}

}  // namespace provio::into
