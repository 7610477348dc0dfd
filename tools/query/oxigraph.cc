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
// Below this many triples node runs the engine's WebAssembly in V8's baseline compiler only
// (--liftoff-only): the optimising tier compiles the whole module in the background, ~0.33 CPU s
// whatever the graph, which at 2 k triples is two thirds of the query (0.50 -> 0.17 CPU s); from
// ~75 k triples on, the optimised code wins it back (100 k triples: 0.68 s optimised, 0.78 s
// baseline). Measured on bench/query/gen.py's graphs, node 20.
constexpr std::size_t kBaselineOnlyBelow = 50'000;

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
// predicates the query can match (start()), the graph's triples with those predicates (all of
// them if it said "all") as N-Triples, a round at a time.
class Feed {
 public:
  Feed(const rdf::Graph& g, std::string_view query) : g_(g) {
    buf_ = std::to_string(query.size()) + "\n";
    buf_.append(query);
  }
  // Nothing to write until start() is called?
  bool waiting() const { return !started_ && off_ == buf_.size(); }
  // The bytes still to write; refilled when drained. Empty at the end (or while waiting()).
  std::string_view pending() {
    if (off_ == buf_.size() && started_) fill();
    return std::string_view(buf_).substr(off_);
  }
  void wrote(std::size_t n) { off_ += n; }
  // `keep[p]`: the triples with predicate p are sent; an empty `keep` sends every triple.
  void start(std::vector<bool> keep) {
    keep_ = std::move(keep);
    started_ = true;
  }

 private:
  void fill() {
    buf_.clear();
    off_ = 0;
    const auto& ts = g_.triples();
    for (; next_ < ts.size() && buf_.size() < kFeedBytes; ++next_) {
      const rdf::Triple& t = ts[next_];
      if (!keep_.empty() && !keep_[t.p]) continue;
      buf_.append(g_.terms[t.s]).append(" ").append(g_.terms[t.p]).append(" ");
      buf_.append(g_.terms[t.o]).append(" .\n");
    }
  }
  const rdf::Graph& g_;
  std::string buf_;
  std::size_t off_ = 0;
  std::size_t next_ = 0;
  bool started_ = false;
  std::vector<bool> keep_;
};

// The driver's first lines (oxigraph_query.js): "all", or "only N" and N predicate IRIs. Takes
// them off the front of `out` once complete (true) and sets `keep` (empty for all triples) by
// the graph's term ids; false while incomplete.
Status take_selection(const rdf::Graph& g, std::string& out, bool& complete, std::vector<bool>& keep) {
  complete = false;
  std::size_t eol = out.find('\n');
  if (eol == std::string::npos) return Status::success();
  std::string_view first(out.data(), eol);
  std::size_t pos = eol + 1;
  keep.clear();
  if (first != "all") {
    if (first.substr(0, 5) != "only " || first.size() == 5)
      return Status::error("SPARQL engine: unexpected answer '" + std::string(first.substr(0, 80)) + "'");
    unsigned long n = std::strtoul(std::string(first.substr(5)).c_str(), nullptr, 10);
    keep.assign(g.terms.size(), false);
    std::string term;
    for (unsigned long i = 0; i < n; ++i, pos = eol + 1) {
      eol = out.find('\n', pos);
      if (eol == std::string::npos) return Status::success();
      term.clear();
      rdf::append_iri(term, std::string_view(out).substr(pos, eol - pos));
      rdf::TermId id = g.terms.find(term);
      if (id != rdf::kNoTerm) keep[id] = true;
    }
  }
  out.erase(0, pos);
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

// Feeds the driver's stdin (in.fd[1]) and drains its stdout and stderr (out.fd[0], err.fd[0])
// until both close; closes each end when done with it. The graph goes out once the driver's
// stdout said which of it to send.
Status exchange(const rdf::Graph& g, Feed& feed, Pipe& in, Pipe& out, Pipe& err, std::string& body,
                std::string& errors) {
  ::fcntl(in.fd[1], F_SETFL, ::fcntl(in.fd[1], F_GETFL) | O_NONBLOCK);
  char buf[1 << 16];
  std::string selection;
  bool selected = false;
  while (out.fd[0] >= 0 || err.fd[0] >= 0) {
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
        std::vector<bool> keep;
        if (Status s = take_selection(g, selection, selected, keep); !s.ok) return s;
        if (selected) {
          feed.start(std::move(keep));
          body.append(selection);
        }
      } else if (n > 0) {
        (i == 1 ? body : errors).append(buf, static_cast<std::size_t>(n));
      } else if (n == 0 || errno != EINTR) {
        (i == 1 ? out : err).close_end(0);
      }
    }
  }
  in.close_end(1);
  return Status::success();
}

}  // namespace

Status oxigraph_query(const rdf::Graph& graph, std::string_view query, int prefix_lines, std::string& body) {
  std::string node = setting("PROVIO_NODE", kOxigraphNode);
  std::string modules = setting("PROVIO_OXIGRAPH_DIR", kOxigraphDir) + "/node_modules";
  for (const auto& [package, what] : {std::pair{"oxigraph", "Oxigraph's JavaScript package (the engine)"},
                                      std::pair{"sparqljs", "the SPARQL parser sparqljs"}})
    if (!exists(modules + "/" + package + "/package.json"))
      return Status::error(std::string("SPARQL needs ") + what + ", not found in " + modules +
                           " (run scripts/setup.sh, or set PROVIO_OXIGRAPH_DIR to the directory holding "
                           "node_modules/oxigraph and node_modules/sparqljs)");
  Pipe in, out, err;
  if (::pipe2(in.fd, O_CLOEXEC) != 0 || ::pipe2(out.fd, O_CLOEXEC) != 0 || ::pipe2(err.fd, O_CLOEXEC) != 0)
    return Status::error(std::string("SPARQL engine: pipe: ") + std::strerror(errno));
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_adddup2(&actions, in.fd[0], STDIN_FILENO);
  posix_spawn_file_actions_adddup2(&actions, out.fd[1], STDOUT_FILENO);
  posix_spawn_file_actions_adddup2(&actions, err.fd[1], STDERR_FILENO);
  std::vector<char*> argv = {node.data()};
  if (graph.size() < kBaselineOnlyBelow) argv.push_back(const_cast<char*>("--liftoff-only"));
  argv.insert(argv.end(),
              {const_cast<char*>("-e"), const_cast<char*>(kOxigraphScript), modules.data(), nullptr});
  pid_t pid = -1;
  int rc = posix_spawnp(&pid, node.c_str(), &actions, nullptr, argv.data(), environ);
  posix_spawn_file_actions_destroy(&actions);
  if (rc != 0)
    return Status::error("SPARQL needs node to run its engine (Oxigraph): cannot start '" + node +
                         "': " + std::strerror(rc) + " (install nodejs, or set PROVIO_NODE)");
  in.close_end(0);
  out.close_end(1);
  err.close_end(1);

  Feed feed(graph, query);
  std::string errors;
  Status s;
  {
    NoSigpipe guard;
    s = exchange(graph, feed, in, out, err, body, errors);
  }
  in.close_end(1);  // a failed exchange() may leave them open: the driver then sees EOF
  out.close_end(0);
  err.close_end(0);
  int status = 0;
  while (::waitpid(pid, &status, 0) < 0 && errno == EINTR) {
  }
  if (!s.ok) return s;
  while (!errors.empty() && (errors.back() == '\n' || errors.back() == '\r')) errors.pop_back();
  if (WIFEXITED(status) && WEXITSTATUS(status) == 0) return Status::success();
  if (WIFEXITED(status) && WEXITSTATUS(status) == kRefused)
    return Status::error("malformed SPARQL: " + in_user_lines(errors, prefix_lines));
  std::string why = WIFSIGNALED(status) ? std::string("killed by signal ") + std::to_string(WTERMSIG(status))
                                        : "exit status " + std::to_string(WEXITSTATUS(status));
  return Status::error("SPARQL query failed: " +
                       (errors.empty() ? "the engine (node) stopped: " + why : errors));
}

}  // namespace provio::query
