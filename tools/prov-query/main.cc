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
#include <functional>
#include <iostream>
#include <sstream>
#include <string>
#include <vector>

#include "cli/cli.h"
#include "cli/commands.h"
#include "cli/options.h"
#include "cli/progress.h"
#include "cli/terminal.h"
#include "graph/output.h"
#include "query/counting.h"
#include "query/flow.h"
#include "query/io_view.h"
#include "query/lineage.h"
#include "query/ml_questions.h"
#include "query/query_graph.h"
#include "query/questions.h"
#include "query/remake.h"
#include "query/version_choice.h"
#include "query/view.h"

namespace pq = provio::query;

namespace {

constexpr const char* kTool = "prov-query";

// The tool's --help around its list of commands (generated from kCommands).
constexpr const char* kUsageHead =
    "usage: prov-query COMMAND [options] [ARG] [INPUT...]\n"
    "\n"
    "INPUT: merged Turtle/N-Triples files, a raw provenance directory (merged on the fly) or a\n"
    "prov-merge store directory; also -i INPUT. Default: $PROVIO_DIR, else ./provio.db (the\n"
    "store prov-run keeps), else ./provio.\n"
    "\n"
    "commands:\n";
constexpr const char* kUsageTail =
    "\n"
    "common options:\n"
    "  -f, --format table|csv|tsv|json   output format (default table; json = SPARQL results)\n"
    "  -o, --output FILE                 write to FILE instead of stdout\n"
    "  -i, --input INPUT                 an input (repeatable); --store DIR is the same\n"
    "      --trust-inputs                read named inputs another user could have planted\n"
    "                                    (docs/security.md), with a warning\n"
    "  -q, --quiet                       no progress line on a terminal\n"
    "  -V, --version                     the provio version\n"
    "      --endpoint URL                the job graphs of a SPARQL 1.1 server instead of INPUT\n"
    "      --credentials FILE            netrc-format credentials for --endpoint\n"
    "      --ca-file FILE                PEM certificates to trust for HTTPS (default: the system's)\n"
    "  -h, --help                        this help (or COMMAND --help)\n"
    "\n"
    "ENTITY: a path (file.h5), an HDF5 object (file.h5:/group/dataset) or an IRI.\n"
    "RUNS: --used ENTITY (runs that read it), --selection KEY=VALUE,.. (runs that read data made\n"
    "      under a data selection with those values).\n"
    "select fields: activity op api entity file object thread program rank start end\n"
    "               count bytes elapsed;  OP: = != =~ (regex) !~ < <= > >=\n"
    "See docs/prov-query.md.\n";

// Every option once; an option some command lists in its row (kCommands) applies to the commands
// that list it, the others to all (cli/commands.h).
const std::vector<provio::cli::OptionSpec> kOptionList = {
    {"--format", "-f", true},
    {"--output", "-o", true},
    {"--input", "-i", true},
    {"--store", nullptr, true},
    {provio::cli::kTrustInputs, nullptr, false},
    {"--quiet", "-q", false},
    {"--help", "-h", false},
    {"--endpoint", nullptr, true},
    {"--credentials", nullptr, true},
    {"--ca-file", nullptr, true},
    {"-e", nullptr, true},
    {"--up", nullptr, false},
    {"--down", nullptr, false},
    {"--depth", nullptr, true},
    {"--by-rank", nullptr, false},
    {"--iris", nullptr, false},
    {"--all-versions", nullptr, false},
    {"--by", nullptr, true},
    {"--top", nullptr, true},
    {"--columns", nullptr, true},
    {"--nested", nullptr, false},
    {"--project", nullptr, true},
    {"--filter", nullptr, true},
    {"--agg", nullptr, true},
    {"--group-by", nullptr, true},
    {"--sort", nullptr, true},
    {"--limit", nullptr, true},
    {"--metric", nullptr, true},
    {"--stage", nullptr, true},
    {"--used", nullptr, true},
    {"--selection", nullptr, true},
    {"--per", nullptr, true},
    {"--task-time", nullptr, true},
    {"--max", nullptr, false},
    {"--min", nullptr, false},
    {"--final", nullptr, false},
    {"-k", nullptr, true},
};

struct Args : provio::cli::ParsedArgs {
  std::string command;
  std::vector<std::string> inputs;  // -i, --input, --store
  pq::Format format = pq::Format::kTable;
  std::string output;
  bool quiet = false;

  bool flag(std::string_view o) const { return has(o); }
};

// The tool's command line, made from the command table below .
const provio::cli::CommandLine& command_line();

int usage_error(const std::string& message) {
  return provio::cli::usage_error(kTool, command_line().usage(), message);
}

int fail(const std::string& message) {
  return provio::cli::fail(kTool, message);
}

// The inputs: -i values and positionals after the command's own `nargs` arguments.
std::vector<std::string> inputs_of(const Args& a, std::size_t nargs) {
  std::vector<std::string> in = a.inputs;
  for (std::size_t i = nargs; i < a.positional.size(); ++i) in.push_back(a.positional[i]);
  return in;
}

int emit(const Args& a, const pq::Table& t) {
  if (a.output.empty()) {
    if (!pq::write_table(std::cout, t, a.format, provio::cli::is_terminal(stdout)))
      return fail("writing standard output failed");
    return 0;
  }
  // Through a temporary renamed into place: never through a symlink planted at the path.
  std::ostringstream text;
  if (!pq::write_table(text, t, a.format)) return fail(a.output + ": write failed");
  pq::Status s = provio::rdf::write_output_file(a.output, text.str());
  return s.ok ? 0 : fail(s.message);
}

int load(const Args& a, std::size_t nargs, pq::QueryGraph& g) {
  provio::cli::Progress progress(kTool, a.quiet);
  progress.step("loading");
  pq::Status s;
  if (a.flag("--endpoint")) {
    if (!a.inputs.empty() || a.positional.size() > nargs || a.flag(provio::cli::kTrustInputs))
      return usage_error("--endpoint excludes other inputs and --trust-inputs");
    s = g.open_endpoint(a.get("--endpoint"), {a.get("--credentials"), a.get("--ca-file")});
  } else {
    std::vector<std::string> in = inputs_of(a, nargs);
    provio::cli::OtherOwners other_owners = provio::cli::OtherOwners::kRefuse;
    if (!provio::cli::choose_inputs(in, a.flag(provio::cli::kTrustInputs), other_owners))
      return usage_error("--trust-inputs applies to inputs named on the command line");
    s = g.load(in, other_owners);
  }
  if (!s.ok) return fail(s.message);
  for (const auto& m : g.messages()) provio::cli::print_message(kTool, m);
  return 0;
}

// A question's answer: a table, or an exit status (1 misuse, 2 failure) and its message.
struct Answer {
  int code = 0;
  std::string message;
  pq::Table table;
};

// Asks `question` until the graph has every fact it looked at (a server's graph is fetched in
// rounds, remote_graph.h; a local graph answers in one), then prints the last round's answer.
int answer(const Args& a, pq::QueryGraph& g, const std::function<Answer(pq::View&)>& question) {
  Answer r;
  pq::Status s = g.in_rounds([&] {
    pq::View v(g);
    r = question(v);
  });
  if (!s.ok) return fail(s.message);
  if (r.code == 1) return usage_error(r.message);
  if (r.code != 0) return fail(r.message);
  return provio::cli::exit_code(emit(a, r.table), g.damaged());
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
  // A query that cannot be run (refused by the engine, no engine, refused by the server) is the
  // caller's to fix: exit 1, without the usage text.
  auto cannot_run = [&](const pq::Status& s) {
    fail((nargs ? a.positional[0] + ": " : std::string("-e: ")) + s.message);
    return provio::cli::kExitUsage;
  };
  pq::QueryGraph g;
  // The engine first: it says which triples the query can match before the graph is read.
  if (!a.flag("--endpoint"))
    if (pq::Status s = g.start_sparql(query, inputs_of(a, nargs)); !s.ok) return cannot_run(s);
  if (int rc = load(a, nargs, g)) return rc;
  pq::Table t;
  if (pq::Status s = g.sparql(query, t); !s.ok) return cannot_run(s);
  return provio::cli::exit_code(emit(a, t), g.damaged());
}

int cmd_lineage(const Args& a) {
  if (a.positional.empty()) return usage_error(a.command + ": missing ENTITY");
  if (a.flag("--up") && a.flag("--down"))
    return usage_error(a.command + ": --up and --down exclude each other");
  long depth = -1;
  if (a.flag("--depth") && !pq::parse_count(a.get("--depth"), depth))
    return usage_error(a.command + ": --depth takes a number >= 0 or 'all'");
  pq::QueryGraph g;
  if (int rc = load(a, 1, g)) return rc;
  std::string answered;  // which version the answer is for, told on stderr after it
  int rc = answer(a, g, [&](pq::View& v) -> Answer {
    std::string iri;
    pq::Status s = pq::lineage_root(
        v, {a.command, a.positional[0], a.flag("--all-versions"), a.flag("--down")}, iri, answered);
    if (!s.ok) return {2, s.message, {}};
    pq::Lineage l(v);
    auto steps = a.flag("--down") ? l.down(iri, static_cast<int>(depth)) : l.up(iri, static_cast<int>(depth));
    // IRIs: always in machine formats, on request (--iris) in the terminal table.
    bool iris = a.flag("--iris") || a.format != pq::Format::kTable;
    if (a.flag("--by-rank")) return {0, "", pq::lineage_table(v, nullptr, steps, iris)};
    pq::Runs runs(v);
    return {0, "", pq::lineage_table(v, &runs, pq::steps_by_run(runs, l, steps), iris)};
  });
  if (rc == 0 && !answered.empty() && !a.flag("--quiet"))
    std::cerr << kTool << ": " << a.command << " of " << answered << "\n";
  return rc;
}

int cmd_remake(const Args& a) {
  if (a.positional.empty()) return usage_error(a.command + ": missing FILE");
  pq::QueryGraph g;
  if (int rc = load(a, 1, g)) return rc;
  pq::View v(g);
  std::string iri, script;
  pq::Status s = v.resolve(a.positional[0], iri);
  if (s.ok) s = pq::remake_script(v, iri, a.positional[0], script);
  if (!s.ok) return fail(s.message);
  if (a.output.empty()) {
    std::cout << script;
    return std::cout.flush() ? 0 : fail("writing standard output failed");
  }
  // Through a temporary renamed into place, as every output (emit).
  s = provio::rdf::write_output_file(a.output, script);
  return s.ok ? 0 : fail(s.message);
}

// The I/O activities a question counts (query/counting.h): --nested adds the POSIX calls HDF5
// made inside HDF5 calls.
std::vector<pq::ActivityRecord> counted(const Args& a, std::vector<pq::ActivityRecord> all) {
  return pq::counted(std::move(all), a.flag("--nested"));
}

std::vector<pq::ActivityRecord> io_activities(const Args& a, pq::View& v) {
  return counted(a, v.activities());
}

// For questions that only sum: a server sums them as `grouping` says (View::activity_totals).
std::vector<pq::ActivityRecord> io_totals(const Args& a, pq::View& v, const pq::ActivityGrouping& grouping) {
  return counted(a, v.activity_totals(grouping));
}

// What stats --by KEY needs of each activity to find its key.
std::vector<std::string> stats_keys(const std::string& by) {
  pq::SelectSpec spec;
  spec.group_by = {by == "object" ? "entity" : by};
  std::vector<std::string> keys;
  return pq::select_grouping(spec, keys) ? keys : std::vector<std::string>{"api"};
}

int cmd_stats(const Args& a) {
  long top = -1;
  if (a.flag("--top") && !pq::parse_count(a.get("--top"), top))
    return usage_error(a.command + ": --top takes a number");
  pq::QueryGraph g;
  if (int rc = load(a, 0, g)) return rc;
  return answer(a, g, [&](pq::View& v) -> Answer {
    Answer r;
    std::string by = a.get("--by", "api");
    pq::Status s = pq::stats(v, io_totals(a, v, {stats_keys(by), ""}), by, top, r.table);
    if (!s.ok) return {1, a.command + ": " + s.message, {}};
    return r;
  });
}

int cmd_select(const Args& a) {
  pq::SelectSpec spec;
  pq::Status s;
  if (a.flag("--project")) s = pq::parse_fields(a.get("--project"), spec.project);
  if (s.ok && a.flag("--group-by")) s = pq::parse_fields(a.get("--group-by"), spec.group_by);
  if (s.ok && a.flag("--agg")) s = pq::parse_aggs(a.get("--agg"), spec);
  if (s.ok && a.flag("--sort")) s = pq::parse_sort(a.get("--sort"), spec);
  for (const auto& f : a.all("--filter"))
    if (s.ok) s = pq::parse_filter(f, spec);
  if (s.ok && a.flag("--limit") && !pq::parse_count(a.get("--limit"), spec.limit))
    s = pq::Status::error("--limit takes a number");
  if (!s.ok) return usage_error(a.command + ": " + s.message);
  // With aggregation, projected fields name the grouping when --group-by is absent.
  if (!spec.aggs.empty() && spec.group_by.empty()) spec.group_by = spec.project;
  pq::QueryGraph g;
  if (int rc = load(a, 0, g)) return rc;
  return answer(a, g, [&](pq::View& v) -> Answer {
    Answer r;
    // Aggregates over groupable fields: the server sums per group (View::activity_totals).
    std::vector<std::string> keys;
    bool grouped = pq::select_grouping(spec, keys);
    pq::Status e = pq::select(v, grouped ? io_totals(a, v, {keys, ""}) : io_activities(a, v), spec, r.table);
    if (!e.ok) return {1, a.command + ": " + e.message, {}};
    return r;
  });
}

// io and flow: their table, only the --columns asked for.
Answer with_columns(const Args& a, pq::Table t) {
  if (!a.flag("--columns")) return {0, "", std::move(t)};
  std::vector<std::string> names;
  std::string list = a.get("--columns"), unknown;
  for (std::string::size_type i = 0, j; i <= list.size(); i = j + 1) {
    j = std::min(list.find(',', i), list.size());
    if (j > i) names.push_back(list.substr(i, j - i));
  }
  if (!pq::keep_columns(t, names, unknown)) return {1, a.command + ": no column '" + unknown + "'", {}};
  return {0, "", std::move(t)};
}

int cmd_io(const Args& a) {
  pq::IoGrouping by = pq::IoGrouping::kJob;
  if (a.flag("--by") && !pq::parse_io_grouping(a.get("--by"), by))
    return usage_error(a.command + ": --by takes job, rank, file or dataset");
  pq::QueryGraph g;
  if (int rc = load(a, 0, g)) return rc;
  return answer(a, g, [&](pq::View& v) -> Answer {
    return with_columns(a, pq::io_table(v, pq::io_rows(v, io_activities(a, v), by), by));
  });
}

int cmd_flow(const Args& a) {
  pq::QueryGraph g;
  if (int rc = load(a, 0, g)) return rc;
  return answer(a, g, [&](pq::View& v) -> Answer {
    return with_columns(a, pq::flow_table(v, pq::counted(v.activities())));
  });
}

// best, metrics, checkpoints: the questions about runs (ml_questions.h), asked of the workflow
// view with the runs chosen by --used.
int answer_runs(
    const Args& a,
    const std::function<pq::Table(pq::WorkflowView&, pq::Checkpoints&, const std::string&)>& question) {
  pq::QueryGraph g;
  if (int rc = load(a, 0, g)) return rc;
  return answer(a, g, [&](pq::View& v) -> Answer {
    std::string used;
    if (a.flag("--used")) {
      pq::Status s = v.resolve(a.get("--used"), used);
      if (!s.ok) return {2, s.message, {}};
    }
    pq::WorkflowView w(v);
    pq::Checkpoints c(w);
    return {0, "", question(w, c, used)};
  });
}

// --stage and --selection, which best and metrics share.
pq::Status run_options(const Args& a, std::string& stage, pq::RunFilter& runs) {
  pq::Status s;
  if (a.flag("--stage")) s = pq::parse_stage(a.get("--stage"), stage);
  for (const auto& text : a.all("--selection"))
    if (s.ok) s = pq::parse_selection(text, runs);
  return s;
}

int cmd_best(const Args& a) {
  pq::BestSpec best;
  if (pq::Status s = run_options(a, best.stage, best.runs); !s.ok)
    return usage_error(a.command + ": " + s.message);
  if (!a.flag("--metric")) return usage_error(a.command + ": missing --metric NAME");
  if (a.flag("--max") && a.flag("--min"))
    return usage_error(a.command + ": --max and --min exclude each other");
  if (a.flag("-k") && !pq::parse_count(a.get("-k"), best.k))
    return usage_error(a.command + ": -k takes a number");
  best.metric = a.get("--metric");
  best.maximise = !a.flag("--min");
  best.final_value = a.flag("--final");
  return answer_runs(a, [&](pq::WorkflowView& w, pq::Checkpoints& c, const std::string& used) {
    best.runs.used = used;
    return pq::best_table(w, c, best);
  });
}

int cmd_metrics(const Args& a) {
  pq::MetricsSpec metrics;
  if (pq::Status s = run_options(a, metrics.stage, metrics.runs); !s.ok)
    return usage_error(a.command + ": " + s.message);
  metrics.per = a.get("--per");
  if (!metrics.per.empty() && metrics.per != "run" && metrics.per != "step")
    return usage_error(a.command + ": --per takes run or step");
  for (const auto& m : a.all("--metric"))
    for (std::string::size_type i = 0, j; i <= m.size(); i = j + 1) {
      j = std::min(m.find(',', i), m.size());
      if (j > i) metrics.names.push_back(m.substr(i, j - i));
    }
  metrics.task_time = a.get("--task-time");
  return answer_runs(a, [&](pq::WorkflowView& w, pq::Checkpoints&, const std::string& used) {
    metrics.runs.used = used;
    return pq::metrics_table(w, metrics);
  });
}

int cmd_checkpoints(const Args& a) {
  return answer_runs(a, [](pq::WorkflowView& w, pq::Checkpoints& c, const std::string&) {
    return pq::checkpoint_mismatch_table(w, c);
  });
}

// A question about the whole graph, without arguments of its own.
int answer_graph(const Args& a, const std::function<pq::Table(pq::View&)>& question) {
  pq::QueryGraph g;
  if (int rc = load(a, 0, g)) return rc;
  return answer(a, g, [&](pq::View& v) -> Answer { return {0, "", question(v)}; });
}

int cmd_programs(const Args& a) {
  return answer_graph(a, [](pq::View& v) { return pq::programs_table(v); });
}

int cmd_files(const Args& a) {
  return answer_graph(a, [&](pq::View& v) {
    return pq::files_table(v, io_totals(a, v, {{"file", "op", "thread"}, ""}));
  });
}

int cmd_configs(const Args& a) {
  return answer_graph(a, [](pq::View& v) { return pq::configs_table(v); });
}

int cmd_objects(const Args& a) {
  if (a.positional.empty()) return usage_error(a.command + ": missing FILE");
  pq::QueryGraph g;
  if (int rc = load(a, 1, g)) return rc;
  return answer(a, g, [&](pq::View& v) -> Answer {
    std::string iri;
    pq::Status s = v.resolve(a.positional[0], iri);
    if (!s.ok) return {2, s.message, {}};
    std::string file = v.file_of(iri);
    return {0, "", pq::objects_table(v, io_totals(a, v, {{"entity", "file", "op"}, file}), file)};
  });
}

// The commands: name, usage, summary in the tool's --help, own --help, the options it takes
// beside the common ones, function.
const provio::cli::Command<Args> kCommands[] = {
    {{"sparql", "FILE.rq|-e QUERY [-f FORMAT] [INPUT...]",
      "run SPARQL (prov: provio: xsd: rdf: rdfs: predeclared)",
      "Runs a SPARQL 1.1 query (Oxigraph; on --endpoint, the server) over the merged graph. The\n"
      "prefixes prov:, provio:, xsd:, rdf: and rdfs: are predeclared. SELECT prints bindings, ASK one\n"
      "boolean, CONSTRUCT/DESCRIBE subject/predicate/object. A query that cannot run: exit 1.\n"
      "The seeds' questions ship in share/provio/queries (docs/sparql.md).\n",
      "--format -e"},
     cmd_sparql},
    {{"lineage",
      "ENTITY [--up|--down] [--depth N|all] [--by-rank] [--iris] [--all-versions] [-f FORMAT] [INPUT...]",
      "what ENTITY came from (--up, default) or what came from it",
      "Backward (--up, default): the programs that generated ENTITY, what they read, and so on.\n"
      "Forward (--down): the programs that read ENTITY, what they wrote, and so on. Across jobs;\n"
      "cycle-safe; over file versions. --depth counts program steps (default all). The ranks of an\n"
      "MPI job step are one run (--by-rank: one row per rank). Columns: level kind name ranks job\n"
      "relation via_name command, and iri via (--iris; always in csv, tsv, json).\n"
      "A FILE is answered for its latest version upward, for all its versions downward (said on\n"
      "stderr); FILE@N for its N-th (1 = oldest), FILE@2026-11-28T10:00 for the version it held then\n"
      "(UTC), --all-versions for every version.\n",
      "--format --up --down --depth --by-rank --iris --all-versions"},
     cmd_lineage},
    {{"remake", "FILE [-o SCRIPT] [INPUT...]", "the commands that made FILE's current version, as a script",
      "A shell script of the commands that produced FILE's current version from its inputs, in\n"
      "dependency order: working directory, command line (MPI steps with their rank count), the\n"
      "workflow name, and the versions each step read with whether they are unchanged now. Set\n"
      "REMAKE_DIR to run it in another directory. Runs nothing itself.\n",
      ""},
     cmd_remake},
    {{"stats", "[--by api|file|object|rank|thread|program] [--top K] [--nested] [INPUT...]",
      "calls, bytes, total and mean elapsed per key",
      "I/O totals per key (default api): calls, bytes, elapsed seconds, mean seconds per call;\n"
      "largest elapsed first. POSIX calls HDF5 made inside HDF5 calls (provio:nested) are left\n"
      "out, as the HDF5 call already counts them; --nested includes them (stats, select, files,\n"
      "objects).\n",
      "--format --by --top --nested"},
     cmd_stats},
    {{"select",
      "[--project F,..] [--filter 'F OP V']... [--agg FN:F,..] [--group-by F,..] [--sort [-]COL,..] "
      "[--limit N] [INPUT...]",
      "query the I/O activities",
      "One row per I/O activity (summary or trace), or per group with --agg/--group-by.\n"
      "Fields: activity op api entity file object thread program rank start end count bytes\n"
      "elapsed. OP: = != =~ !~ (regex search) < <= > >=. FN: sum count mean min max; aggregate\n"
      "columns are named FN_FIELD (count:* → count_all). -COL sorts descending.\n"
      "Example: select --project api,bytes --filter 'file=~out.h5' --agg sum:bytes --group-by rank\n"
      "         --sort -sum_bytes --limit 10\n",
      "--format --nested --project --filter --agg --group-by --sort --limit"},
     cmd_select},
    {{"programs", "[INPUT...]", "what ran", "The program executions, oldest first.\n", "--format"},
     cmd_programs},
    {{"files", "[--nested] [INPUT...]", "what was touched",
      "Files and directories with bytes read and written.\n", "--format --nested"},
     cmd_files},
    {{"objects", "FILE [--nested] [INPUT...]", "the HDF5 objects of FILE",
      "The HDF5 objects of FILE with bytes moved.\n", "--format --nested"},
     cmd_objects},
    {{"configs", "[INPUT...]", "workflow configurations",
      "Configurations (provio:Configuration) and their keys.\n", "--format"},
     cmd_configs},
    {{"metrics",
      "[--metric NAME,..] [--stage S] [--per run|step] [--task-time NAME] [--used ENTITY] "
      "[--selection KEY=VALUE,..] [INPUT...]",
      "metric records, or n/min/avg/max per run or step",
      "Metric records (provio:Metric) with step, stage, task and run; --per run|step: n, min, avg\n"
      "and max per run (and step). --task-time NAME: the durations (seconds) of the tasks labelled\n"
      "NAME, their step being the task they are nested in (per-batch time per epoch); with --metric,\n"
      "next to those metrics.\n"
      "--stage training|validation|testing|any; --used: only runs that read ENTITY; --selection:\n"
      "only runs that read data generated under a data selection with every KEY=VALUE.\n",
      "--format --metric --stage --used --selection --per --task-time"},
     cmd_metrics},
    {{"best",
      "--metric NAME [--max|--min] [--final] [--stage S] [--used ENTITY] [--selection KEY=VALUE,..] "
      "[-k K] [INPUT...]",
      "one row per run, ranked by its best (or final) value",
      "One row per run (a task that used hyperparameters), ranked by its best value of NAME\n"
      "(--final: its value at its last step), in --stage (default validation when recorded, else\n"
      "any), with its hyperparameters, the other metrics of that step, and the checkpoint version\n"
      "holding that result. Default --max, k 10. --used, --selection: as for metrics.\n",
      "--format --metric --stage --used --selection --max --min --final -k"},
     cmd_best},
    {{"checkpoints", "[INPUT...]", "checkpoint versions loaded under another configuration",
      "Checkpoint versions (provio:ModelReference) read by a task or program other than their\n"
      "writer whose configuration differs from the one they were written with (provio:trainedWith):\n"
      "one row per (version, loading task), with the differing keys (lr:0.1->0.2).\n",
      "--format"},
     cmd_checkpoints},
    {{"io", "[--by job|rank|file|dataset] [--nested] [--columns C,..] [INPUT...]",
      "Darshan-style I/O characterisation per layer",
      "The I/O characterisation of each job (an MPI job step is one run), per layer (HDF5, MPI-IO,\n"
      "STDIO, POSIX; --nested adds the POSIX calls HDF5 made, as their own layer), per job (default),\n"
      "rank, file or HDF5 dataset: operations by kind, bytes, read / write / metadata seconds,\n"
      "bandwidth (MiB/s), collective and independent transfers, access-size histograms named after\n"
      "Darshan's counters (size_read_0_100 … size_write_1g_plus; empty when not recorded), and for\n"
      "files and datasets several ranks used the fastest and slowest rank and the variances.\n"
      "--columns: only those columns, in that order. See docs/io.md.\n",
      "--format --by --nested --columns"},
     cmd_io},
    {{"flow", "[--columns C,..] [INPUT...]", "data flow between runs: producer, consumer, bytes",
      "The data flow between runs: one row per product (file version, file, HDF5 dataset),\n"
      "producer run and consumer run, with the bytes the producer wrote and the consumer read and\n"
      "the number of runs that read it; an empty consumer: nobody read it; an empty producer: an\n"
      "input from outside the traced runs.\n",
      "--format --columns"},
     cmd_flow},
};

const provio::cli::CommandLine& command_line() {
  static const provio::cli::CommandLine line(provio::cli::command_texts(kCommands), kUsageHead, kUsageTail,
                                             kOptionList);
  return line;
}

// Parses argv; returns -1 to run `a.command`, else an exit code.
int parse(int argc, char** argv, Args& a) {
  int rc = command_line().parse(argc, argv, kTool, a.command, a);
  if (rc >= 0) return rc;
  if (a.has("--help")) {
    std::cout << provio::cli::command_help(kTool, *provio::cli::find_command(kCommands, a.command));
    return std::cout.flush() ? 0 : 2;
  }
  if (a.has("--format") && !pq::parse_format(a.get("--format"), a.format))
    return usage_error("unknown format '" + a.get("--format") + "' (table, csv, tsv, json)");
  a.output = a.get("--output");
  a.quiet = a.has("--quiet");
  for (const auto& o : a.options)
    if (o.spec->name == std::string_view("--input") || o.spec->name == std::string_view("--store"))
      a.inputs.push_back(o.value);
  return -1;
}

}  // namespace

int main(int argc, char** argv) {
  Args a;
  if (int rc = parse(argc, argv, a); rc >= 0) return rc;
  return provio::cli::find_command(kCommands, a.command)->run(a);
}
