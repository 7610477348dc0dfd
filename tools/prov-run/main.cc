// prov-run: one line in a batch script. Sets up the job's environment (connector, preload
// library, output directory, workflow names), forwards it the way the launcher needs, runs the
// job, then merges its provenance into ./provio.db, where prov-query and prov-viz look first
// (docs/prov-run.md).
//   prov-run [options] [--] COMMAND [ARG...]
// Hard rule: the job's exit status is prov-run's (128+N after signal N), like env(1) and
// timeout(1); prov-run's own failures are 125, a command that cannot run 126, one not found 127.
#include <fcntl.h>
#include <signal.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <ctime>
#include <filesystem>
#include <string>
#include <vector>

#include "cli/cli.h"
#include "cli/options.h"
#include "job_env.h"
#include "launcher.h"
#include "layout.h"
#include "model/identity.h"
#include "model/output_dir_name.h"

extern char** environ;

namespace {

namespace fs = std::filesystem;
using provio::run::EnvVar;

constexpr const char* kTool = "prov-run";
constexpr int kExitFailed = 125, kExitCannotRun = 126, kExitNotFound = 127;

constexpr const char* kUsage =
    "usage: prov-run [options] [--] COMMAND [ARG...]\n"
    "Runs COMMAND (mpirun/mpiexec, srun, flux run, or any program) with provenance recording for\n"
    "every rank, then merges the job's provenance into ./provio.db, where prov-query and prov-viz\n"
    "look when given no input.\n"
    "\n"
    "  -d, --dir DIR         the job's provenance directory (default $PROVIO_DIR, else\n"
    "                        ./provio/<job>: the batch job id, or run-<time>-<pid>)\n"
    "  -s, --store DIR       the store to merge into (default ./provio.db)\n"
    "  -o, --output FILE     also write the merged graph to FILE (format from the extension)\n"
    "  -w, --workflow NAME   PROVIO_WORKFLOW: the workflow this job belongs to\n"
    "  -c, --campaign NAME   PROVIO_CAMPAIGN: the campaign this job belongs to\n"
    "  -l, --level LEVEL     PROVIO_LEVEL: summary (default), trace or off\n"
    "      --no-vol          do not load the HDF5 VOL connector\n"
    "      --no-posix        do not preload the POSIX library\n"
    "      --no-merge        leave the raw files in DIR, merge nothing\n"
    "      --query 'ARGS'    after the merge, run prov-query ARGS on the store (repeatable;\n"
    "                        words split at spaces), e.g. --query 'stats --by rank'\n"
    "      --report FILE     after the merge, write prov-viz's HTML report to FILE\n"
    "      --launcher NAME   openmpi, hydra, srun, flux or plain (default: from COMMAND)\n"
    "      --print-env[=sh|csh]  print the variables to set for a shell, and exit\n"
    "  -n, --dry-run         print the environment and the command line, run nothing\n"
    "  -q, --quiet           no summary lines\n"
    "  -V, --version         the provio version\n"
    "  -h, --help            this help\n"
    "\n"
    "Exit status: COMMAND's (128+N when signal N ended it); 125 prov-run failed (misuse, or\n"
    "COMMAND succeeded but the merge, a query or the report failed); 126 COMMAND cannot be run;\n"
    "127 COMMAND not found.\n";

struct Options {
  provio::run::JobSettings job;
  std::string store = provio::cli::kRunStore;
  std::string output;
  std::vector<std::string> queries;
  std::string report;
  std::string launcher;
  std::string print_env;  // "", "sh" or "csh"
  bool merge = true, dry_run = false, quiet = false;
  std::vector<std::string> command;
};

int misuse(const std::string& message) {
  std::fprintf(stderr, "%s: %s\n%s", kTool, message.c_str(), kUsage);
  return kExitFailed;
}

// prov-run's options (cli/options.h); the first other word is the command.
const std::vector<provio::cli::OptionSpec> kOptions = {
    {"--help", "-h", false},
    {"--version", "-V", false},
    {"--print-env", nullptr, false, nullptr, true},
    {"--dir", "-d", true},
    {"--store", "-s", true},
    {"--output", "-o", true},
    {"--workflow", "-w", true},
    {"--campaign", "-c", true},
    {"--level", "-l", true},
    {"--query", nullptr, true},
    {"--report", nullptr, true},
    {"--launcher", nullptr, true},
    {"--no-vol", nullptr, false},
    {"--no-posix", nullptr, false},
    {"--no-merge", nullptr, false},
    {"--dry-run", "-n", false},
    {"--quiet", "-q", false},
};

// Parses argv up to the command; returns -1 to go on, else an exit code.
int parse_args(int argc, char** argv, Options& o) {
  provio::cli::ParsedArgs p;
  provio::rdf::Status s = provio::cli::parse_options(argc, argv, 1, kOptions, "", p, true);
  if (!s.ok) return misuse(s.message);
  if (p.has("--help")) {
    std::fputs(kUsage, stdout);
    return std::fflush(stdout) == 0 ? 0 : kExitFailed;
  }
  if (p.has("--version")) return provio::cli::print_version(kTool) == 0 ? 0 : kExitFailed;
  for (const provio::cli::ParsedOption& opt : p.options) {
    const std::string_view name = opt.spec->name;
    const std::string& v = opt.value;
    if (opt.spec->takes_value && v.empty()) return misuse("option " + std::string(name) + " needs a value");
    if (name == "--print-env") {
      o.print_env = v;
      if (o.print_env.empty()) {
        const char* shell = std::getenv("SHELL");
        std::string sh = shell ? shell : "";
        o.print_env = sh.size() >= 3 && sh.compare(sh.size() - 3, 3, "csh") == 0 ? "csh" : "sh";
      }
      if (o.print_env != "sh" && o.print_env != "csh") return misuse("--print-env takes sh or csh");
    } else if (name == "--dir") {
      o.job.dir = v;
    } else if (name == "--store") {
      o.store = v;
    } else if (name == "--output") {
      o.output = v;
    } else if (name == "--workflow") {
      o.job.workflow = v;
    } else if (name == "--campaign") {
      o.job.campaign = v;
    } else if (name == "--level") {
      o.job.level = v;
      if (v != "summary" && v != "trace" && v != "off") return misuse("--level takes summary, trace or off");
    } else if (name == "--query") {
      o.queries.push_back(v);
    } else if (name == "--report") {
      o.report = v;
    } else if (name == "--launcher") {
      o.launcher = v;
      provio::run::Launcher l;
      if (!provio::run::parse_launcher(o.launcher, l))
        return misuse("unknown launcher '" + o.launcher + "' (openmpi, hydra, srun, flux, plain)");
    } else if (name == "--no-vol") {
      o.job.vol = false;
    } else if (name == "--no-posix") {
      o.job.posix = false;
    } else if (name == "--no-merge") {
      o.merge = false;
    } else if (name == "--dry-run") {
      o.dry_run = true;
    } else if (name == "--quiet") {
      o.quiet = true;
    }
  }
  o.command = std::move(p.positional);
  if (o.print_env.empty() && o.command.empty()) return misuse("no command");
  if (!o.merge && (!o.queries.empty() || !o.report.empty() || !o.output.empty()))
    return misuse("--no-merge excludes --query, --report and --output");
  return -1;
}

// The job's directory when neither --dir nor PROVIO_DIR names one: ./provio/<batch job id>, as
// the core would choose, or ./provio/run-<UTC time>-<pid> outside a batch job.
std::string default_job_dir() {
  std::string job = provio::model::job_id_from_env();
  if (job.empty()) {
    char stamp[32];
    std::time_t now = std::time(nullptr);
    std::tm tm{};
    std::strftime(stamp, sizeof stamp, "%Y%m%dT%H%M%SZ", gmtime_r(&now, &tm));
    job = std::string("run-") + stamp + "-" + std::to_string(getpid());
  }
  return std::string(provio::model::kOutputDirName) + "/" + provio::model::job_dir_name(job);
}

std::string absolute(const std::string& path) {
  std::error_code ec;
  fs::path p = fs::absolute(path, ec);
  return ec ? path : p.lexically_normal().string();
}

// Starts argv with `env` (NAME=value strings, or the current environment when empty). Returns the
// pid; on a failed exec, -1 with `exec_errno` set (reported through a close-on-exec pipe).
pid_t spawn(const std::vector<std::string>& argv, const std::vector<std::string>& env, int& exec_errno) {
  std::vector<char*> args, envp;
  for (const auto& a : argv) args.push_back(const_cast<char*>(a.c_str()));
  args.push_back(nullptr);
  for (const auto& e : env) envp.push_back(const_cast<char*>(e.c_str()));
  envp.push_back(nullptr);
  int fds[2];
  if (::pipe2(fds, O_CLOEXEC) != 0) {
    exec_errno = errno;
    return -1;
  }
  pid_t pid = ::fork();
  if (pid == 0) {
    ::close(fds[0]);
    ::execvpe(args[0], args.data(), env.empty() ? environ : envp.data());
    int e = errno;
    (void)!::write(fds[1], &e, sizeof e);
    ::_exit(kExitCannotRun);
  }
  ::close(fds[1]);
  exec_errno = pid < 0 ? errno : 0;
  if (pid > 0 && ::read(fds[0], &exec_errno, sizeof exec_errno) == sizeof exec_errno) {
    ::waitpid(pid, nullptr, 0);
    pid = -1;
  }
  ::close(fds[0]);
  return pid;
}

// The exit status of pid as a shell reports it (128+N for signal N).
int wait_status(pid_t pid) {
  int status = 0;
  while (::waitpid(pid, &status, 0) < 0) {
    if (errno != EINTR) return kExitFailed;
  }
  return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}

// Runs a provio tool to the end in prov-run's own environment; returns its exit status.
int run_tool(const std::vector<std::string>& argv) {
  int err = 0;
  pid_t pid = spawn(argv, {}, err);
  if (pid < 0) {
    std::fprintf(stderr, "%s: %s: %s\n", kTool, argv[0].c_str(), std::strerror(err));
    return kExitFailed;
  }
  return wait_status(pid);
}

volatile sig_atomic_t g_child = 0;

// A signal sent to prov-run (scancel, kill, timeout) reaches the job and prov-run stays to merge
// what was flushed. Signals from the terminal (si_code SI_KERNEL) already reach the whole
// foreground process group: passing them on would deliver them twice (mpirun aborts on a second
// SIGINT).
void pass_on(int sig, siginfo_t* info, void*) {
  if (g_child > 0 && info->si_code != SI_KERNEL) ::kill(static_cast<pid_t>(g_child), sig);
}

// Runs the job; `started` is false when it could not even be started (nothing to merge).
int run_job(const provio::run::Launch& launch, bool& started) {
  std::vector<std::string> env;
  for (char** e = environ; *e; ++e) {
    std::string s = *e;
    bool replaced = false;
    for (const EnvVar& v : launch.env) replaced = replaced || s.rfind(v.name + "=", 0) == 0;
    if (!replaced) env.push_back(s);
  }
  for (const EnvVar& v : launch.env) env.push_back(v.name + "=" + v.value);
  struct sigaction sa {};
  sa.sa_sigaction = pass_on;
  sa.sa_flags = SA_SIGINFO | SA_RESTART;
  sigemptyset(&sa.sa_mask);
  for (int sig : {SIGINT, SIGTERM, SIGHUP, SIGQUIT, SIGUSR1, SIGUSR2}) ::sigaction(sig, &sa, nullptr);
  int err = 0;
  pid_t pid = spawn(launch.argv, env, err);
  started = pid > 0;
  if (!started) {
    std::fprintf(stderr, "%s: %s: %s\n", kTool, launch.argv[0].c_str(), std::strerror(err));
    return err == ENOENT ? kExitNotFound : kExitCannotRun;
  }
  g_child = pid;
  int status = wait_status(pid);
  g_child = 0;
  // From here on a signal ends prov-run as it would any tool (a merge already started finishes:
  // prov-merge replaces its output by renaming).
  for (int sig : {SIGINT, SIGTERM, SIGHUP, SIGQUIT, SIGUSR1, SIGUSR2}) ::signal(sig, SIG_DFL);
  return status;
}

// Merges the job directory into the store (and --output); then the queries and the report.
// Returns 0, or kExitFailed when a step failed.
int merge_and_answer(const Options& o, const provio::run::Layout& layout, const std::string& dir) {
  std::error_code ec;
  if (fs::is_empty(dir, ec) || ec) {
    std::fprintf(stderr, "%s: no provenance was recorded in %s\n", kTool, dir.c_str());
    return 0;
  }
  // Two prov-run lines of one batch script may end together: prov-merge --store takes the store's
  // lock (graph/store_lock.h), so both jobs are kept. Without --output the graph only goes to the store;
  // N-Triples to /dev/null is prov-merge's cheapest way to write nothing else.
  std::vector<std::string> merge = {layout.prov_merge, dir, "--store", o.store};
  if (o.output.empty())
    merge.insert(merge.end(), {"-f", "ntriples", "-o", "/dev/null"});
  else
    merge.insert(merge.end(), {"-o", o.output});
  if (o.quiet) merge.push_back("-q");
  int rc = run_tool(merge);
  if (rc != 0) {
    std::fprintf(stderr, "%s: merging %s into %s failed (prov-merge exit %d)\n", kTool, dir.c_str(),
                 o.store.c_str(), rc);
    return kExitFailed;
  }
  int status = 0;
  for (const std::string& q : o.queries) {
    std::vector<std::string> argv = {layout.prov_query};
    for (std::size_t pos = 0; pos < q.size();) {
      std::size_t end = q.find(' ', pos);
      if (end == std::string::npos) end = q.size();
      if (end > pos) argv.push_back(q.substr(pos, end - pos));
      pos = end + 1;
    }
    argv.insert(argv.end(), {"-i", o.store});
    if (run_tool(argv) != 0) status = kExitFailed;
  }
  if (!o.report.empty() && run_tool({layout.prov_viz, "report", "-o", o.report, "-i", o.store}) != 0)
    status = kExitFailed;
  if (!o.quiet)
    std::fprintf(stderr, "%s: provenance in %s, merged into %s: prov-query and prov-viz read it from here\n",
                 kTool, dir.c_str(), o.store.c_str());
  return status;
}

// The command line as sh reads it: words quoted only when they need it.
void print_command(const std::vector<std::string>& argv) {
  for (std::size_t i = 0; i < argv.size(); ++i) {
    const std::string& w = argv[i];
    bool plain = !w.empty() && w.find_first_not_of(
                                   "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
                                   "0123456789_./=:,+-@%") == std::string::npos;
    std::printf("%s%s", i ? " " : "", plain ? w.c_str() : provio::run::shell_quote(w).c_str());
  }
  std::printf("\n");
}

}  // namespace

int main(int argc, char** argv) {
  Options o;
  if (int rc = parse_args(argc, argv, o); rc >= 0) return rc;
  provio::run::Layout layout = provio::run::find_layout();
  // --print-env serves batch scripts, which start their ranks with a launcher afterwards.
  o.job.plugin_dir = provio::run::plugin_path(layout, true);
  o.job.preload = layout.preload;
  o.job.hdf5_plugin_dir = PROVIO_HDF5_DEFAULT_PLUGINDIR;
  auto lookup = [](const char* name) { return static_cast<const char*>(std::getenv(name)); };

  if (!o.print_env.empty()) {
    if (!o.job.dir.empty()) o.job.dir = absolute(o.job.dir);
    provio::run::print_env(provio::run::job_environment(o.job, lookup),
                           o.print_env == "csh" ? provio::run::Shell::kCsh : provio::run::Shell::kSh, stdout);
    return std::fflush(stdout) == 0 ? 0 : kExitFailed;
  }

  if (o.job.dir.empty()) {
    const char* env_dir = std::getenv("PROVIO_DIR");
    o.job.dir = env_dir && *env_dir ? env_dir : default_job_dir();
  }
  o.job.dir = absolute(o.job.dir);
  provio::run::Launcher launcher;
  if (o.launcher.empty() || !provio::run::parse_launcher(o.launcher, launcher))
    launcher = provio::run::detect_launcher(o.command);
  o.job.plugin_dir = provio::run::plugin_path(layout, launcher != provio::run::Launcher::kPlain);
  provio::run::Launch launch =
      provio::run::forward(o.command, launcher, provio::run::job_environment(o.job, lookup));
  if (o.dry_run) {
    provio::run::print_env(launch.env, provio::run::Shell::kSh, stdout);
    print_command(launch.argv);
    return std::fflush(stdout) == 0 ? 0 : kExitFailed;
  }

  bool started = false;
  int status = run_job(launch, started);
  if (!o.merge || !started) return status;
  int merged = merge_and_answer(o, layout, o.job.dir);
  return status != 0 ? status : merged;
}
