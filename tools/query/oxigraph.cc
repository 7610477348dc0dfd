// prov-query's SPARQL engine for local graphs (see oxigraph.h): node running the embedded driver
// (oxigraph_query.js), fed through a pipe while its answer is read, so neither side waits on a
// full pipe whatever the sizes.
#include "query/oxigraph.h"

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <spawn.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <regex>
#include <vector>

#include "graph/terms.h"

extern char** environ;

namespace provio::query {

extern const char kOxigraphNode[];
extern const char kOxigraphDir[];
extern const char kOxigraphScript[];

namespace {

using rdf::Status;

// The driver's exit status for a query the engine refuses (oxigraph_query.js).
constexpr int kRefused = 3;
// Bytes of N-Triples formatted per write round.
constexpr std::size_t kFeedBytes = 1 << 20;

std::string setting(const char* env, const char* built_in) {
  const char* v = std::getenv(env);
  return v && *v ? v : built_in;
}

bool exists(const std::string& path) {
  struct stat st;
  return ::stat(path.c_str(), &st) == 0;
}

// The engine's "error at LINE:COLUMN: what" with LINE counted in the caller's own text.
std::string in_user_lines(const std::string& message, int prefix_lines) {
  static const std::regex at("^error at ([0-9]+):([0-9]+): ");
  std::smatch m;
  if (!std::regex_search(message, m, at)) return message;
  int line = std::atoi(m[1].str().c_str()) - prefix_lines;
  return std::to_string(line > 0 ? line : 1) + ":" + m[2].str() + ": " + m.suffix().str();
}

// What is written to the driver: the header and query; then, once the driver has said which
// predicates the query can match and the graph is read (start()), the graph's triples with those
// predicates (all of them if it said "all") as N-Triples, a round at a time.
class Feed {
 public:
  explicit Feed(std::string_view query) {
    buf_ = std::to_string(query.size()) + "\n";
    buf_.append(query);
  }
  // Nothing to write until start() is called?
  bool waiting() const { return !g_ && off_ == buf_.size(); }
  // The bytes still to write; refilled when drained. Empty at the end (or while waiting()).
  std::string_view pending() {
    if (off_ == buf_.size() && g_) fill();
    return std::string_view(buf_).substr(off_);
  }
  void wrote(std::size_t n) { off_ += n; }
  // `keep[p]`: the triples of `g` with predicate p are sent; an empty `keep` sends every triple.
  void start(const rdf::Graph& g, std::vector<bool> keep) {
    g_ = &g;
    keep_ = std::move(keep);
  }

 private:
  void fill() {
    buf_.clear();
    off_ = 0;
    const auto& ts = g_->triples();
    for (; next_ < ts.size() && buf_.size() < kFeedBytes; ++next_) {
      const rdf::Triple& t = ts[next_];
      if (!keep_.empty() && !keep_[t.p]) continue;
      buf_.append(g_->terms[t.s]).append(" ").append(g_->terms[t.p]).append(" ");
      buf_.append(g_->terms[t.o]).append(" .\n");
    }
  }
  const rdf::Graph* g_ = nullptr;
  std::string buf_;
  std::size_t off_ = 0;
  std::size_t next_ = 0;
  std::vector<bool> keep_;
};

// The driver's first lines (oxigraph_query.js): "all", or "only N" and N predicate IRIs. Takes
// them off the front of `out` once complete (`complete` true) and sets `predicates` (nullopt for
// every triple) as terms.
Status take_selection(std::string& out, bool& complete, std::optional<std::vector<std::string>>& predicates) {
  complete = false;
  std::size_t eol = out.find('\n');
  if (eol == std::string::npos) return Status::success();
  std::string_view first(out.data(), eol);
  std::size_t pos = eol + 1;
  std::optional<std::vector<std::string>> found;
  if (first != "all") {
    if (first.substr(0, 5) != "only " || first.size() == 5)
      return Status::error("SPARQL engine: unexpected answer '" + std::string(first.substr(0, 80)) + "'");
    unsigned long n = std::strtoul(std::string(first.substr(5)).c_str(), nullptr, 10);
    found.emplace();
    for (unsigned long i = 0; i < n; ++i, pos = eol + 1) {
      eol = out.find('\n', pos);
      if (eol == std::string::npos) return Status::success();
      rdf::append_iri(found->emplace_back(), std::string_view(out).substr(pos, eol - pos));
    }
  }
  out.erase(0, pos);
  predicates = std::move(found);
  complete = true;
  return Status::success();
}

struct Pipe {
  int fd[2] = {-1, -1};
  ~Pipe() {
    for (int f : fd)
      if (f >= 0) ::close(f);
  }
  void close_end(int i) {
    if (fd[i] >= 0) ::close(fd[i]);
    fd[i] = -1;
  }
};

// SIGPIPE ignored while the driver is fed: a driver that stops early (a refused query) makes the
// next write fail with EPIPE instead of killing prov-query.
class NoSigpipe {
 public:
  NoSigpipe() {
    struct sigaction ign {};
    ign.sa_handler = SIG_IGN;
    ::sigaction(SIGPIPE, &ign, &old_);
  }
  ~NoSigpipe() { ::sigaction(SIGPIPE, &old_, nullptr); }
  NoSigpipe(const NoSigpipe&) = delete;
  NoSigpipe& operator=(const NoSigpipe&) = delete;

 private:
  struct sigaction old_ {};
};

}  // namespace

// The engine's process and the pipes to it (one query).
struct OxigraphQuery::Run {
  Run(std::string_view query, int lines) : feed(query), prefix_lines(lines) {}
  pid_t pid = -1;
  Pipe in, out, err;
  Feed feed;
  int prefix_lines;
  std::string selection, body, errors;
  bool selected = false;

  // Feeds the driver's stdin (in.fd[1]) and drains its stdout and stderr (out.fd[0], err.fd[0]),
  // closing each end when done with it, until both close; or, with `to_selection`, until the
  // driver has said which triples to send (`selected`: the graph goes out after feed.start()).
  Status exchange(bool to_selection, std::optional<std::vector<std::string>>& predicates) {
    char buf[1 << 16];
    while ((out.fd[0] >= 0 || err.fd[0] >= 0) && !(to_selection && selected)) {
      pollfd p[3] = {
          {feed.waiting() ? -1 : in.fd[1], POLLOUT, 0}, {out.fd[0], POLLIN, 0}, {err.fd[0], POLLIN, 0}};
      if (::poll(p, 3, -1) < 0) {
        if (errno == EINTR) continue;
        return Status::error(std::string("SPARQL engine: poll: ") + std::strerror(errno));
      }
      if (p[0].fd >= 0 && (p[0].revents & (POLLOUT | POLLERR | POLLHUP))) {
        std::string_view w = feed.pending();
        ssize_t n = w.empty() ? 0 : ::write(p[0].fd, w.data(), w.size());
        if (n > 0) feed.wrote(static_cast<std::size_t>(n));
        // Everything written, or the driver stopped reading (a refused query): its answer tells.
        if (w.empty() || (n < 0 && errno != EAGAIN && errno != EINTR)) in.close_end(1);
      }
      for (int i : {1, 2}) {
        if (p[i].fd < 0 || !(p[i].revents & (POLLIN | POLLERR | POLLHUP))) continue;
        ssize_t n = ::read(p[i].fd, buf, sizeof buf);
        if (n > 0 && i == 1 && !selected) {
          selection.append(buf, static_cast<std::size_t>(n));
          if (Status s = take_selection(selection, selected, predicates); !s.ok) return s;
          if (selected) body.append(selection);
        } else if (n > 0) {
          (i == 1 ? body : errors).append(buf, static_cast<std::size_t>(n));
        } else if (n == 0 || errno != EINTR) {
          (i == 1 ? out : err).close_end(0);
        }
      }
    }
    return Status::success();
  }

  // Closes every pipe (the driver sees the end of its input) and waits for the driver; how it
  // ended, as a Status.
  Status finish() {
    in.close_end(1);
    out.close_end(0);
    err.close_end(0);
    int status = 0;
    while (::waitpid(pid, &status, 0) < 0 && errno == EINTR) {
    }
    while (!errors.empty() && (errors.back() == '\n' || errors.back() == '\r')) errors.pop_back();
    if (WIFEXITED(status) && WEXITSTATUS(status) == 0) return Status::success();
    if (WIFEXITED(status) && WEXITSTATUS(status) == kRefused)
      return Status::error("malformed SPARQL: " + in_user_lines(errors, prefix_lines));
    std::string why = WIFSIGNALED(status)
                          ? std::string("killed by signal ") + std::to_string(WTERMSIG(status))
                          : "exit status " + std::to_string(WEXITSTATUS(status));
    return Status::error("SPARQL query failed: " +
                         (errors.empty() ? "the engine (node) stopped: " + why : errors));
  }
};

OxigraphQuery::OxigraphQuery() = default;

OxigraphQuery::~OxigraphQuery() {
  if (run_) static_cast<void>(run_->finish());  // never answered: how the driver ended is moot
}

Status OxigraphQuery::start(std::string_view query, int prefix_lines, bool small_graph) {
  std::string node = setting("PROVIO_NODE", kOxigraphNode);
  std::string modules = setting("PROVIO_OXIGRAPH_DIR", kOxigraphDir) + "/node_modules";
  for (const auto& [package, what] : {std::pair{"oxigraph", "Oxigraph's JavaScript package (the engine)"},
                                      std::pair{"sparqljs", "the SPARQL parser sparqljs"}})
    if (!exists(modules + "/" + package + "/package.json"))
      return Status::error(std::string("SPARQL needs ") + what + ", not found in " + modules +
                           " (run scripts/setup.sh, or set PROVIO_OXIGRAPH_DIR to the directory holding "
                           "node_modules/oxigraph and node_modules/sparqljs)");
  auto run = std::make_unique<Run>(query, prefix_lines);
  Pipe &in = run->in, &out = run->out, &err = run->err;
  if (::pipe2(in.fd, O_CLOEXEC) != 0 || ::pipe2(out.fd, O_CLOEXEC) != 0 || ::pipe2(err.fd, O_CLOEXEC) != 0)
    return Status::error(std::string("SPARQL engine: pipe: ") + std::strerror(errno));
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_adddup2(&actions, in.fd[0], STDIN_FILENO);
  posix_spawn_file_actions_adddup2(&actions, out.fd[1], STDOUT_FILENO);
  posix_spawn_file_actions_adddup2(&actions, err.fd[1], STDERR_FILENO);
  std::vector<char*> argv = {node.data()};
  if (small_graph) argv.push_back(const_cast<char*>("--liftoff-only"));
  argv.insert(argv.end(),
              {const_cast<char*>("-e"), const_cast<char*>(kOxigraphScript), modules.data(), nullptr});
  int rc = posix_spawnp(&run->pid, node.c_str(), &actions, nullptr, argv.data(), environ);
  posix_spawn_file_actions_destroy(&actions);
  if (rc != 0)
    return Status::error("SPARQL needs node to run its engine (Oxigraph): cannot start '" + node +
                         "': " + std::strerror(rc) + " (install nodejs, or set PROVIO_NODE)");
  in.close_end(0);
  out.close_end(1);
  err.close_end(1);
  ::fcntl(in.fd[1], F_SETFL, ::fcntl(in.fd[1], F_GETFL) | O_NONBLOCK);
  Status s;
  {
    NoSigpipe guard;
    s = run->exchange(true, predicates_);
  }
  if (s.ok && run->selected) {
    run_ = std::move(run);
    return s;
  }
  Status ended = run->finish();  // a refused query, or a driver that died: it says why
  return s.ok ? ended : s;
}

Status OxigraphQuery::answer(const rdf::Graph& graph, std::string& body) {
  if (!run_) return Status::error("SPARQL engine: not started");
  std::vector<bool> keep;
  if (predicates_) {
    keep.assign(graph.terms.size(), false);
    for (const std::string& p : *predicates_)
      if (rdf::TermId id = graph.terms.find(p); id != rdf::kNoTerm) keep[id] = true;
  }
  std::unique_ptr<Run> run = std::move(run_);
  run->feed.start(graph, std::move(keep));
  Status s;
  {
    NoSigpipe guard;
    s = run->exchange(false, predicates_);
  }
  Status ended = run->finish();
  if (!s.ok) return s;
  if (!ended.ok) return ended;
  body = std::move(run->body);
  return Status::success();
}

}  // namespace provio::query
