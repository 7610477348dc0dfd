// prov-viz: draws provenance. `lineage` writes the lineage subgraph (DOT, SVG, PNG, PDF);
// `report` writes one self-contained HTML page about a job.
// main parses options and dispatches to one function per subcommand returning the exit code.
// Hard rule: messages start with "prov-viz:"; failures exit non-zero naming what and where.
#include <iostream>
#include <limits>
#include <string>
#include <vector>

#include "cli/cli.h"
#include "cli/commands.h"
#include "cli/options.h"
#include "cli/progress.h"
#include "cli/terminal.h"
#include "graph/output.h"
#include "lineage_dot.h"
#include "query/counting.h"
#include "query/query_graph.h"
#include "query/questions.h"
#include "query/version_choice.h"
#include "query/view.h"
#include "report.h"

namespace {

constexpr const char* kTool = "prov-viz";

// The tool's --help around its list of commands (generated from kCommands).
constexpr const char* kUsageHead =
    "usage: prov-viz COMMAND [options] [INPUT...]\n"
    "\n"
    "INPUT: merged Turtle/N-Triples files, a raw provenance directory or a prov-merge store\n"
    "directory (as for prov-query; also -i INPUT). Default: $PROVIO_DIR, else ./provio.db (the\n"
    "store prov-run keeps), else ./provio.\n"
    "ENTITY: a path (file.h5), an HDF5 object (file.h5:/group/dataset) or an IRI.\n"
    "\n"
    "commands:\n";
constexpr const char* kUsageTail =
    "\n"
    "  --by-rank       the ranks of an MPI job step one by one (default: one run of N ranks)\n"
    "  --expand        every file its own node (default: siblings such as in_1.dat ... in_50.dat\n"
    "                  in one directory, tied to the same programs, are one node 'in_*.dat x50'\n"
    "                  whose tooltip lists them)\n"
    "  --trust-inputs  read named inputs another user could have planted (docs/security.md),\n"
    "                  with a warning\n"
    "  --endpoint URL  the job graphs of a SPARQL 1.1 server instead of INPUT (docs/shared-store.md)\n"
    "  --credentials FILE  netrc-format credentials for --endpoint\n"
    "  --ca-file FILE  PEM certificates to trust for HTTPS (default: the system's)\n"
    "  -q, --quiet     no progress line on a terminal\n"
    "  -V, --version   the provio version\n"
    "  -h, --help      this help\n";

// The tool's command line, made from the command table below .
const provio::cli::CommandLine& command_line();

int usage_error(const std::string& m) {
  return provio::cli::usage_error(kTool, command_line().usage(), m);
}

int fail(const std::string& m) {
  return provio::cli::fail(kTool, m);
}

// Every option once; an option some command lists in its row (kCommands) applies to the commands
// that list it, the others to both (cli/commands.h).
const std::vector<provio::cli::OptionSpec> kOptionList = {
    {"--output", "-o", true},      {"--input", "-i", true},
    {"--store", nullptr, true},    {provio::cli::kTrustInputs, nullptr, false},
    {"--quiet", "-q", false},      {"--help", "-h", false},
    {"--by-rank", nullptr, false}, {"--depth", nullptr, true},
    {"--up", nullptr, false},      {"--down", nullptr, false},
    {"--both", nullptr, false},    {"--expand", nullptr, false},
    {"--endpoint", nullptr, true}, {"--credentials", nullptr, true},
    {"--ca-file", nullptr, true},  {"--all-versions", nullptr, false},
};

struct Args {
  std::string command, output, endpoint, credentials, ca_file;
  std::vector<std::string> positional, inputs;
  int depth = -1;
  bool up = false, down = false, quiet = false, by_rank = false, trust_inputs = false, expand = false,
       all_versions = false;
};

int load(const Args& a, std::size_t nargs, provio::query::QueryGraph& g) {
  std::vector<std::string> in = a.inputs;
  for (std::size_t i = nargs; i < a.positional.size(); ++i) in.push_back(a.positional[i]);
  if (!a.endpoint.empty() && (!in.empty() || a.trust_inputs))
    return usage_error("--endpoint excludes other inputs and --trust-inputs");
  provio::cli::OtherOwners other_owners = provio::cli::OtherOwners::kRefuse;
  if (a.endpoint.empty() && !provio::cli::choose_inputs(in, a.trust_inputs, other_owners))
    return usage_error("--trust-inputs applies to inputs named on the command line");
  provio::cli::Progress progress(kTool, a.quiet);
  progress.step("loading");
  auto s =
      a.endpoint.empty() ? g.load(in, other_owners) : g.open_endpoint(a.endpoint, {a.credentials, a.ca_file});
  if (s.ok)
    for (const auto& m : g.messages()) provio::cli::print_message(kTool, m);
  return s.ok ? 0 : fail(s.message);
}

// Through a temporary renamed into place: never through a symlink planted at the path.
int write_file(const std::string& path, const std::string& text) {
  provio::rdf::Status s = provio::rdf::write_output_file(path, text);
  return s.ok ? 0 : fail(s.message);
}

int cmd_lineage(const Args& a) {
  if (a.positional.empty()) return usage_error(a.command + ": missing ENTITY");
  if (a.output.empty()) return usage_error(a.command + ": missing -o OUT");
  std::string ext = a.output.substr(a.output.find_last_of('.') + 1);
  if (a.output.find('.') == std::string::npos ||
      (ext != "dot" && ext != "svg" && ext != "png" && ext != "pdf"))
    return usage_error(a.command + ": -o must end in .dot, .svg, .png or .pdf");
  provio::query::QueryGraph g;
  if (int rc = load(a, 1, g)) return rc;
  provio::viz::DotOptions opt;
  opt.depth = a.depth;
  opt.down = a.down;
  opt.up = a.up || !a.down;
  opt.by_rank = a.by_rank;
  opt.expand = a.expand;
  std::string dot;
  std::string answered;  // which version is drawn, told on stderr (as prov-query lineage does)
  provio::query::Status resolved;
  // A server's graph is read in rounds (query/remote_graph.h): the last round's drawing.
  auto fetched = g.in_rounds([&] {
    provio::query::View v(g);
    std::string iri;
    resolved = provio::query::lineage_root(v, {a.command, a.positional[0], a.all_versions, a.down && !a.up},
                                           iri, answered);
    if (resolved.ok) dot = provio::viz::lineage_dot(v, provio::query::counted(v.activities()), {iri}, opt);
  });
  if (!fetched.ok) return fail(fetched.message);
  if (!resolved.ok) return fail(resolved.message);
  int rc = 0;
  if (ext == "dot") {
    rc = write_file(a.output, dot);
  } else {
    provio::rdf::Status s = provio::viz::render(dot, ext, a.output);
    rc = s.ok ? 0 : fail(s.message);
  }
  if (rc == 0 && !answered.empty() && !a.quiet)
    std::cerr << kTool << ": " << a.command << " of " << answered << "\n";
  return provio::cli::exit_code(rc, g.damaged());
}

int cmd_report(const Args& a) {
  if (a.output.empty()) return usage_error(a.command + ": missing -o OUT.html");
  provio::query::QueryGraph g;
  if (int rc = load(a, 0, g)) return rc;
  std::string title = a.endpoint;
  for (const auto& i : a.inputs) title += (title.empty() ? "" : " ") + i;
  for (const auto& i : a.positional) title += (title.empty() ? "" : " ") + i;
  std::string html;
  provio::rdf::Status s;
  auto fetched = g.in_rounds([&] {
    provio::query::View v(g);
    html.clear();
    s = provio::viz::write_report(v, title.empty() ? "provio" : title, a.by_rank, html);
  });
  if (!fetched.ok) return fail(fetched.message);
  if (!s.ok) return fail(s.message);
  return provio::cli::exit_code(write_file(a.output, html), g.damaged());
}

// The commands: name, usage, summary in the tool's --help, own --help (the tool's), the options
// it takes beside the common ones, function.
const provio::cli::Command<Args> kCommands[] = {
    {{"lineage",
      "ENTITY[@N|@TIME] [--all-versions] [--up|--down|--both] [--depth N|all] [--by-rank] [--expand] "
      "-o OUT.svg|.dot|.png|.pdf [INPUT...]",
      "the lineage subgraph in Graphviz: entities yellow ellipses, activities blue boxes\n"
      "(repeated calls collapsed, counts and bytes on edges), programs orange houses.\n"
      "The format follows OUT's extension (.dot is written without Graphviz). A file stands for\n"
      "its latest version (FILE@N: its N-th, oldest first; FILE@2026-11-28T10:00: the one it held\n"
      "then, UTC), for all of them with --down or --all-versions, as in prov-query lineage.",
      "", "--depth --up --down --both --expand --all-versions"},
     cmd_lineage},
    {{"report", "[--by-rank] -o OUT.html [INPUT...]",
      "one self-contained HTML page: programs, ranks, threads, duration; files and objects\n"
      "with bytes; top I/O costs; a timeline per run; the lineage of the outputs.",
      "", ""},
     cmd_report},
};

const provio::cli::CommandLine& command_line() {
  static const provio::cli::CommandLine line(provio::cli::command_texts(kCommands), kUsageHead, kUsageTail,
                                             kOptionList);
  return line;
}

// Parses argv; returns -1 to go on, else an exit code.
int parse(int argc, char** argv, Args& a) {
  provio::cli::ParsedArgs p;
  int rc = command_line().parse(argc, argv, kTool, a.command, p);
  if (rc >= 0) return rc;
  if (p.has("--help")) {
    std::cout << command_line().usage();
    return std::cout.flush() ? 0 : 2;
  }
  for (const auto& o : p.options) {
    std::string_view name = o.spec->name;
    if (name == "--input" || name == "--store") a.inputs.push_back(o.value);
  }
  if (p.has("--depth")) {
    long n = -1;
    if (!provio::query::parse_count(p.get("--depth"), n) || n > std::numeric_limits<int>::max())
      return usage_error("--depth takes a number >= 0 or 'all'");
    a.depth = static_cast<int>(n);
  }
  a.output = p.get("--output");
  a.endpoint = p.get("--endpoint");
  a.credentials = p.get("--credentials");
  a.ca_file = p.get("--ca-file");
  a.quiet = p.has("--quiet");
  a.by_rank = p.has("--by-rank");
  a.trust_inputs = p.has(provio::cli::kTrustInputs);
  a.expand = p.has("--expand");
  a.all_versions = p.has("--all-versions");
  a.up = p.has("--up") || p.has("--both");
  a.down = p.has("--down") || p.has("--both");
  a.positional = std::move(p.positional);
  return -1;
}

}  // namespace

int main(int argc, char** argv) {
  Args a;
  if (int rc = parse(argc, argv, a); rc >= 0) return rc;
  return provio::cli::find_command(kCommands, a.command)->run(a);
}
