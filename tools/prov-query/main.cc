// prov-query: answers provenance questions about provio graphs in one command.
//   prov-query COMMAND [options] [ARG] [INPUT...]
// main parses the common options and dispatches to one function per subcommand, each returning
// the exit code. Hard rule: every failure prints one line "prov-query: what: where" to stderr
// and exits non-zero; --help goes to stdout with exit 0; misuse prints usage to stderr, exit 1.
#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <iostream>
#include <map>
#include <sstream>
#include <string>
#include <vector>

#include "common/output.h"
#include "graph.h"
#include "lineage.h"
#include "questions.h"
#include "view.h"

namespace pq = provio::query;

namespace {

constexpr const char* kTool = "prov-query";

constexpr const char* kUsage =
    "usage: prov-query COMMAND [options] [ARG] [INPUT...]\n"
    "\n"
    "INPUT: merged Turtle/N-Triples files, a raw provenance directory (merged on the fly) or a\n"
    "prov-merge store directory; also -i INPUT. Default: $PROVIO_DIR, else ./provio.\n"
    "\n"
    "commands:\n"
    "  sparql FILE.rq | -e QUERY     run SPARQL (prov: provio: xsd: rdf: rdfs: predeclared)\n"
    "  lineage ENTITY [--up|--down] [--depth N|all]\n"
    "                                what ENTITY came from (--up, default) or what came from it\n"
    "  stats [--by api|file|object|rank|thread|program] [--top K] [--nested]\n"
    "                                calls, bytes, total and mean elapsed per key\n"
    "  select [--project F,..] [--filter F OP V]... [--agg FN:F,..] [--group-by F,..]\n"
    "         [--sort [-]COL,..] [--limit N]   query the I/O activities\n"
    "  programs | files | objects FILE   what ran, what was touched\n"
    "  configs | metrics                 workflow configurations and metrics\n"
    "  best --metric NAME [--max|--min] [-k K]   runs ranked by a metric\n"
    "  checkpoints                       checkpoints loaded under a different configuration\n"
    "\n"
    "common options:\n"
    "  -f, --format table|csv|tsv|json   output format (default table; json = SPARQL results)\n"
    "  -o, --output FILE                 write to FILE instead of stdout\n"
    "  -i, --input INPUT                 an input (repeatable); --store DIR is the same\n"
    "  -h, --help                        this help (or COMMAND --help)\n"
    "\n"
    "ENTITY: a path (file.h5), an HDF5 object (file.h5:/group/dataset) or an IRI.\n"
    "select fields: activity op api entity file object thread program rank start end\n"
    "               count bytes elapsed;  OP: = != =~ (regex) !~ < <= > >=\n"
    "See docs/prov-query.md.\n";

struct Help {
  const char* name;
  const char* text;
};
constexpr Help kHelp[] = {
    {"sparql",
     "usage: prov-query sparql FILE.rq|-e QUERY [-f FORMAT] [INPUT...]\n"
     "Runs a SPARQL query through Redland/Rasqal. The prefixes prov:, provio:, xsd:, rdf: and rdfs:\n"
     "are predeclared. SELECT prints bindings, ASK one boolean, CONSTRUCT subject/predicate/object.\n"
     "Rasqal has no SPARQL 1.1 property paths: use `lineage` for transitive questions.\n"},
    {"lineage",
     "usage: prov-query lineage ENTITY [--up|--down] [--depth N|all] [-f FORMAT] [INPUT...]\n"
     "Backward (--up, default): the programs that generated ENTITY, what they read, and so on.\n"
     "Forward (--down): the programs that read ENTITY, what they wrote, and so on. Across jobs;\n"
     "cycle-safe. --depth counts program steps (default all). Columns: level kind name relation\n"
     "via_name iri via.\n"},
    {"stats",
     "usage: prov-query stats [--by api|file|object|rank|thread|program] [--top K] [--nested] [INPUT...]\n"
     "I/O totals per key (default api): calls, bytes, elapsed seconds, mean seconds per call;\n"
     "largest elapsed first. POSIX calls HDF5 made inside HDF5 calls (provio:nested) are left\n"
     "out, as the HDF5 call already counts them; --nested includes them (stats, select, files,\n"
     "objects).\n"},
    {"select",
     "usage: prov-query select [--project F,..] [--filter 'F OP V']... [--agg FN:F,..]\n"
     "                         [--group-by F,..] [--sort [-]COL,..] [--limit N] [INPUT...]\n"
     "One row per I/O activity (summary or trace), or per group with --agg/--group-by.\n"
     "Fields: activity op api entity file object thread program rank start end count bytes\n"
     "elapsed. OP: = != =~ !~ (regex search) < <= > >=. FN: sum count mean min max; aggregate\n"
     "columns are named FN_FIELD (count:* → count_all). -COL sorts descending.\n"
     "Example: select --project api,bytes --filter 'file=~out.h5' --agg sum:bytes --group-by rank\n"
     "         --sort -sum_bytes --limit 10\n"},
    {"programs", "usage: prov-query programs [INPUT...]\nThe program executions, oldest first.\n"},
    {"files", "usage: prov-query files [INPUT...]\nFiles and directories with bytes read and written.\n"},
    {"objects", "usage: prov-query objects FILE [INPUT...]\nThe HDF5 objects of FILE with bytes moved.\n"},
    {"configs",
     "usage: prov-query configs [INPUT...]\nConfigurations (provio:Configuration) and their keys.\n"},
    {"metrics", "usage: prov-query metrics [INPUT...]\nMetrics (provio:Metric) with step, stage, task.\n"},
    {"best",
     "usage: prov-query best --metric NAME [--max|--min] [-k K] [INPUT...]\n"
     "Tasks ranked by a metric (default --max, k 10) with hyperparameters and checkpoint files.\n"},
    {"checkpoints",
     "usage: prov-query checkpoints [INPUT...]\n"
     "Checkpoints (provio:ModelReference) loaded under a configuration that differs from the one\n"
     "they were written with (provio:trainedWith), and the differing keys.\n"},
};

struct Args {
  std::string command;
  std::vector<std::string> positional;
  std::vector<std::string> inputs;
  std::map<std::string, std::vector<std::string>> opts;  // option → values ("" for flags)
  pq::Format format = pq::Format::kTable;
  std::string output;

  bool flag(const std::string& o) const { return opts.count(o) != 0; }
  std::string get(const std::string& o, const std::string& def = "") const {
    auto it = opts.find(o);
    return it == opts.end() || it->second.empty() ? def : it->second.back();
  }
};

int usage_error(const std::string& message) {
  std::cerr << kTool << ": " << message << "\n" << kUsage;
  return 1;
}

int fail(const std::string& message) {
  std::cerr << kTool << ": " << message << "\n";
  return 2;
}

// Options that take a value, per command ("*" = every command).
bool takes_value(const std::string& o) {
  static const char* with_value[] = {"-f",      "--format",  "-o",       "--output", "-i",
                                     "--input", "--store",   "-e",       "--depth",  "--by",
                                     "--top",   "--project", "--filter", "--agg",    "--group-by",
                                     "--sort",  "--limit",   "--metric", "-k"};
  for (const char* w : with_value)
    if (o == w) return true;
  return false;
}

bool is_flag(const std::string& o) {
  static const char* flags[] = {"--up", "--down", "--max", "--min", "--nested", "-h", "--help"};
  for (const char* f : flags)
    if (o == f) return true;
  return false;
}

// Parses argv; returns -1 to continue, else an exit code.
int parse(int argc, char** argv, Args& a) {
  if (argc < 2) return usage_error("missing command");
  std::string first = argv[1];
  if (first == "-h" || first == "--help") {
    std::cout << kUsage;
    return std::cout.flush() ? 0 : 2;
  }
  a.command = first;
  bool known = false;
  for (const auto& h : kHelp) known = known || a.command == h.name;
  if (!known) return usage_error("unknown command '" + a.command + "'");
  bool only_positional = false;
  for (int i = 2; i < argc; ++i) {
    std::string s = argv[i];
    if (only_positional || s.empty() || s[0] != '-' || s == "-") {
      a.positional.push_back(s);
      continue;
    }
    if (s == "--") {
      only_positional = true;
      continue;
    }
    std::string value;
    auto eq = s.find('=');
    if (s.rfind("--", 0) == 0 && eq != std::string::npos) {
      value = s.substr(eq + 1);
      s = s.substr(0, eq);
      if (!takes_value(s)) return usage_error("option " + s + " takes no value");
    } else if (takes_value(s)) {
      if (i + 1 >= argc) return usage_error("option " + s + " needs a value");
      value = argv[++i];
    } else if (!is_flag(s)) {
      return usage_error("unknown option '" + s + "'");
    }
    if (s == "-h" || s == "--help") {
      for (const auto& h : kHelp)
        if (a.command == h.name) std::cout << h.text;
      return std::cout.flush() ? 0 : 2;
    }
    if (s == "-f" || s == "--format") {
      if (!pq::parse_format(value, a.format))
        return usage_error("unknown format '" + value + "' (table, csv, tsv, json)");
    } else if (s == "-o" || s == "--output") {
      a.output = value;
    } else if (s == "-i" || s == "--input" || s == "--store") {
      a.inputs.push_back(value);
    } else {
      a.opts[s].push_back(value);
    }
  }
  return -1;
}

bool parse_count(const std::string& text, long& out) {
  if (text == "all") {
    out = -1;
    return true;
  }
  char* end = nullptr;
  long v = std::strtol(text.c_str(), &end, 10);
  if (text.empty() || *end != '\0' || v < 0) return false;
  out = v;
  return true;
}

// The inputs: -i values and positionals after the command's own `nargs` arguments.
std::vector<std::string> inputs_of(const Args& a, std::size_t nargs) {
  std::vector<std::string> in = a.inputs;
  for (std::size_t i = nargs; i < a.positional.size(); ++i) in.push_back(a.positional[i]);
  if (in.empty()) {
    const char* dir = std::getenv("PROVIO_DIR");
    in.push_back(dir && *dir ? dir : "provio");
  }
  return in;
}

int emit(const Args& a, const pq::Table& t) {
  if (a.output.empty()) {
    if (!pq::write_table(std::cout, t, a.format)) return fail("writing standard output failed");
    return 0;
  }
  // Through a temporary renamed into place: never through a symlink planted at the path.
  std::ostringstream text;
  if (!pq::write_table(text, t, a.format)) return fail(a.output + ": write failed");
  std::string error;
  if (!provio::rdf::write_output_file(a.output, text.str(), error)) return fail(error);
  return 0;
}

int load(const Args& a, std::size_t nargs, pq::Graph& g) {
  pq::Status s = g.load(inputs_of(a, nargs));
  if (!s.ok) return fail(s.message);
  return 0;
}

int cmd_sparql(const Args& a) {
  std::string query;
  std::size_t nargs = 0;
  if (a.flag("-e")) {
    query = a.get("-e");
  } else {
    if (a.positional.empty()) return usage_error("sparql: give a query file or -e QUERY");
    std::ifstream in(a.positional[0]);
    if (!in) return fail(a.positional[0] + ": cannot read query file: " + std::strerror(errno));
    std::stringstream ss;
    ss << in.rdbuf();
    query = ss.str();
    nargs = 1;
  }
  pq::Graph g;
  if (int rc = load(a, nargs, g)) return rc;
  pq::Table t;
  pq::Status s = g.sparql(query, t);
  if (!s.ok) return fail((nargs ? a.positional[0] + ": " : std::string("-e: ")) + s.message);
  return emit(a, t);
}

int cmd_lineage(const Args& a) {
  if (a.positional.empty()) return usage_error("lineage: missing ENTITY");
  if (a.flag("--up") && a.flag("--down")) return usage_error("lineage: --up and --down exclude each other");
  long depth = -1;
  if (a.flag("--depth") && !parse_count(a.get("--depth"), depth))
    return usage_error("lineage: --depth takes a number >= 0 or 'all'");
  pq::Graph g;
  if (int rc = load(a, 1, g)) return rc;
  pq::View v(g);
  std::string iri;
  pq::Status s = v.resolve(a.positional[0], iri);
  if (!s.ok) return fail(s.message);
  pq::Lineage l(v);
  auto steps = a.flag("--down") ? l.down(iri, static_cast<int>(depth)) : l.up(iri, static_cast<int>(depth));
  return emit(a, pq::lineage_table(v, steps));
}

// The I/O activities a question counts: without --nested, POSIX calls made inside HDF5 calls are
// left out, since the HDF5 activity around them already counts their bytes and time.
std::vector<pq::ActivityRecord> io_activities(const Args& a, pq::View& v) {
  auto all = v.activities();
  if (a.flag("--nested")) return all;
  all.erase(std::remove_if(all.begin(), all.end(), [](const pq::ActivityRecord& r) { return r.nested; }),
            all.end());
  return all;
}

int cmd_stats(const Args& a) {
  long top = -1;
  if (a.flag("--top") && !parse_count(a.get("--top"), top)) return usage_error("stats: --top takes a number");
  pq::Graph g;
  if (int rc = load(a, 0, g)) return rc;
  pq::View v(g);
  pq::Table t;
  std::string err = pq::stats(v, io_activities(a, v), a.get("--by", "api"), top, t);
  if (!err.empty()) return usage_error("stats: " + err);
  return emit(a, t);
}

int cmd_select(const Args& a) {
  pq::SelectSpec spec;
  std::string err;
  if (a.flag("--project")) err = pq::parse_fields(a.get("--project"), spec.project);
  if (err.empty() && a.flag("--group-by")) err = pq::parse_fields(a.get("--group-by"), spec.group_by);
  if (err.empty() && a.flag("--agg")) err = pq::parse_aggs(a.get("--agg"), spec);
  if (err.empty() && a.flag("--sort")) err = pq::parse_sort(a.get("--sort"), spec);
  if (err.empty() && a.flag("--filter"))
    for (const auto& f : a.opts.at("--filter"))
      if (err.empty()) err = pq::parse_filter(f, spec);
  if (err.empty() && a.flag("--limit") && !parse_count(a.get("--limit"), spec.limit))
    err = "--limit takes a number";
  if (!err.empty()) return usage_error("select: " + err);
  // With aggregation, projected fields name the grouping when --group-by is absent.
  if (!spec.aggs.empty() && spec.group_by.empty()) spec.group_by = spec.project;
  pq::Graph g;
  if (int rc = load(a, 0, g)) return rc;
  pq::View v(g);
  pq::Table t;
  err = pq::select(v, io_activities(a, v), spec, t);
  if (!err.empty()) return usage_error("select: " + err);
  return emit(a, t);
}

int cmd_simple(const Args& a) {
  std::size_t nargs = a.command == "objects" ? 1 : 0;
  if (nargs && a.positional.empty()) return usage_error("objects: missing FILE");
  long k = 10;
  if (a.command == "best") {
    if (!a.flag("--metric")) return usage_error("best: missing --metric NAME");
    if (a.flag("--max") && a.flag("--min")) return usage_error("best: --max and --min exclude each other");
    if (a.flag("-k") && !parse_count(a.get("-k"), k)) return usage_error("best: -k takes a number");
  }
  pq::Graph g;
  if (int rc = load(a, nargs, g)) return rc;
  pq::View v(g);
  pq::Table t;
  if (a.command == "programs")
    t = pq::programs_table(v);
  else if (a.command == "files")
    t = pq::files_table(v, io_activities(a, v));
  else if (a.command == "configs")
    t = pq::configs_table(v);
  else if (a.command == "metrics")
    t = pq::metrics_table(v);
  else if (a.command == "checkpoints")
    t = pq::checkpoint_mismatch_table(v);
  else if (a.command == "best")
    t = pq::best_table(v, a.get("--metric"), !a.flag("--min"), k);
  else {
    std::string iri;
    pq::Status s = v.resolve(a.positional[0], iri);
    if (!s.ok) return fail(s.message);
    t = pq::objects_table(v, io_activities(a, v), v.file_of(iri));
  }
  return emit(a, t);
}

}  // namespace

int main(int argc, char** argv) {
  Args a;
  if (int rc = parse(argc, argv, a); rc >= 0) return rc;
  if (a.command == "sparql") return cmd_sparql(a);
  if (a.command == "lineage") return cmd_lineage(a);
  if (a.command == "stats") return cmd_stats(a);
  if (a.command == "select") return cmd_select(a);
  return cmd_simple(a);
}
