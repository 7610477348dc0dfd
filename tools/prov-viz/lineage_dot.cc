// Lineage DOT (see lineage_dot.h).
#include "lineage_dot.h"

#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <map>
#include <set>
#include <sstream>

#include "graph/output.h"

extern char** environ;

namespace provio::viz {
namespace {

using query::ActivityRecord;

bool generating(const std::string& op) {
  return op == "Create" || op == "Write" || op == "Modify";
}

std::string esc(const std::string& s) {
  std::string out;
  for (char c : s) {
    if (c == '"' || c == '\\') out += '\\';
    if (c == '\n') {
      out += "\\n";
      continue;
    }
    out += c;
  }
  return out;
}

struct Edge {
  std::uint64_t count = 0, bytes = 0;
  std::set<std::string> apis;
};

}  // namespace

std::string human_bytes(std::uint64_t b) {
  static const char* units[] = {"B", "KiB", "MiB", "GiB", "TiB", "PiB"};
  double v = static_cast<double>(b);
  int u = 0;
  while (v >= 1024 && u < 5) v /= 1024, ++u;
  char buf[32];
  if (u == 0)
    std::snprintf(buf, sizeof buf, "%llu B", static_cast<unsigned long long>(b));
  else
    std::snprintf(buf, sizeof buf, "%.1f %s", v, units[u]);
  return buf;
}

std::string lineage_dot(query::View& v, const std::vector<ActivityRecord>& records,
                        const std::vector<std::string>& roots, const DotOptions& opt) {
  query::Lineage lin(v);
  // The ranks of an MPI job step are one node, a run (query/runs.h), unless by_rank.
  query::Runs runs(v);
  std::set<std::string> entities(roots.begin(), roots.end()), programs;
  // (program, entity) pairs: generated (entity ← program) and used (program ← entity).
  std::set<std::pair<std::string, std::string>> gen_edges, use_edges, derived;
  for (const auto& root : roots) {
    std::vector<query::LineageStep> steps;
    if (opt.up) steps = lin.up(root, opt.depth);
    if (opt.down) {
      auto d = lin.down(root, opt.depth);
      steps.insert(steps.end(), d.begin(), d.end());
    }
    for (const auto& s : steps)
      if (s.program) programs.insert(s.iri);
    // Entities as prov-query lineage lists them: by run unless by_rank (query/runs.h).
    for (const auto& s : opt.by_rank ? steps : query::steps_by_run(runs, lin, steps))
      if (!s.program) entities.insert(s.iri);
  }
  entities.insert(roots.begin(), roots.end());
  auto node_of = [&](const std::string& p) -> const std::string& { return opt.by_rank ? p : runs.run_of(p); };
  std::set<std::string> shown_programs;
  for (const auto& p : programs) shown_programs.insert(node_of(p));
  // All edges among the chosen nodes, not only the discovery tree.
  for (const auto& p : programs) {
    for (const auto& e : lin.generated(p))
      if (entities.count(e)) gen_edges.emplace(node_of(p), e);
    for (const auto& e : lin.inputs(p))
      if (entities.count(e)) use_edges.emplace(node_of(p), e);
  }
  for (const auto& e : entities)
    for (const auto& c : v.graph().objects(e, query::prov("wasDerivedFrom")))
      if (entities.count(c.value)) derived.emplace(e, c.value);
  // Measures per collapsed activity.
  std::map<std::pair<std::string, std::string>, Edge> gen_m, use_m;
  for (const auto& r : records) {
    if (r.program.empty() || !programs.count(r.program)) continue;
    auto& m = generating(r.op) ? gen_m : use_m;
    for (const std::string* e : {&r.entity, &r.file}) {
      if (e->empty() || !entities.count(*e)) continue;
      Edge& edge = m[{node_of(r.program), *e}];
      edge.count += r.count;
      edge.bytes += r.bytes;
      edge.apis.insert(r.api);
      if (r.entity == r.file) break;
    }
  }
  // Objects whose file is drawn too are folded into the file's node to keep the graph readable.
  auto shown = [&](const std::string& e) {
    const std::string& f = v.file_of(e);
    return f == e || !entities.count(f);
  };
  std::ostringstream out;
  out << "digraph lineage {\n"
         "  rankdir=BT;\n"
         "  node [fontname=\"Helvetica\", fontsize=11];\n"
         "  edge [fontname=\"Helvetica\", fontsize=9, color=\"#555555\"];\n";
  std::map<std::string, std::string> id;
  auto node_id = [&](const std::string& iri) {
    auto it = id.find(iri);
    if (it != id.end()) return it->second;
    std::string n = "n" + std::to_string(id.size());
    id[iri] = n;
    return n;
  };
  std::size_t nodes = 0;
  bool cut = false;
  std::set<std::string> root_set(roots.begin(), roots.end());
  for (const auto& e : entities) {
    if (!shown(e)) continue;
    if (++nodes > opt.max_nodes) {
      cut = true;
      break;
    }
    out << "  " << node_id(e)
        << " [shape=ellipse, style=filled, fillcolor=\"#FFFC87\", color=\"#808080\", label=\""
        << esc(v.entity_label(e, false)) << "\", tooltip=\"" << esc(v.entity_label(e, true)) << "\""
        << (root_set.count(e) ? ", penwidth=2.5" : "") << "];\n";
  }
  for (const auto& p : shown_programs) {
    if (++nodes > opt.max_nodes) {
      cut = true;
      break;
    }
    const auto& info = v.program(p);
    out << "  " << node_id(p)
        << " [shape=house, style=filled, fillcolor=\"#FED37F\", color=\"#808080\", label=\""
        << esc(opt.by_rank ? v.program_label(p) : runs.label(p))
        << (info.host.empty() ? "" : "\\n" + esc(info.host)) << "\", tooltip=\""
        << esc(info.command_line.empty() ? p : info.command_line) << "\"];\n";
  }
  // One activity box per (program, node shown, direction).
  auto activity = [&](const std::string& p, const std::string& e, bool gen, const Edge& m) {
    std::string target = shown(e) ? e : v.file_of(e);
    if (!id.count(p) || !id.count(target)) return;
    std::string a = "a" + std::to_string(id.size());
    id[a + "#"] = a;
    std::string apis;
    for (const auto& x : m.apis) apis += (apis.empty() ? "" : ", ") + x;
    if (apis.empty()) apis = gen ? "generate" : "use";
    out << "  " << a << " [shape=box, style=filled, fillcolor=\"#9FB1FC\", color=\"#808080\", label=\""
        << esc(apis) << "\"];\n";
    std::string measures = std::to_string(m.count) + "×, " + human_bytes(m.bytes);
    if (gen)
      out << "  " << id[target] << " -> " << a << " [label=\"wasGeneratedBy\\n" << measures << "\"];\n";
    else
      out << "  " << a << " -> " << id[target] << " [label=\"used\\n" << measures << "\"];\n";
    out << "  " << a << " -> " << id[p] << " [label=\"wasAssociatedWith\", style=dashed];\n";
  };
  std::set<std::pair<std::string, std::string>> done;
  for (const auto& [p, e] : gen_edges) {
    std::string target = shown(e) ? e : v.file_of(e);
    if (!done.insert({p + "\x1fG", target}).second) {
      continue;
    }
    // The measures of a file node include its objects'.
    activity(p, e, true, gen_m[{p, target}]);
  }
  for (const auto& [p, e] : use_edges) {
    std::string target = shown(e) ? e : v.file_of(e);
    if (!done.insert({p + "\x1fU", target}).second) continue;
    activity(p, e, false, use_m[{p, target}]);
  }
  for (const auto& [a, b] : derived) {
    if (id.count(a) && id.count(b))
      out << "  " << id[a] << " -> " << id[b] << " [label=\"wasDerivedFrom\", color=\"#B8860B\"];\n";
  }
  if (cut)
    out << "  cut [shape=note, label=\"graph cut at " << opt.max_nodes
        << " nodes; use --depth to narrow\"];\n";
  out << "}\n";
  return out.str();
}

rdf::Status render(const std::string& dot_text, const std::string& format, const std::string& out_path) {
  char tmpl[] = "/tmp/prov-viz-XXXXXX";
  int fd = mkstemp(tmpl);
  if (fd < 0)
    return rdf::Status::error(std::string("cannot create a temporary file: ") + std::strerror(errno));
  bool ok = ::write(fd, dot_text.data(), dot_text.size()) == static_cast<ssize_t>(dot_text.size());
  ok = (::close(fd) == 0) && ok;
  if (!ok) {
    ::unlink(tmpl);
    return rdf::Status::error(std::string("cannot write a temporary file: ") + std::strerror(errno));
  }
  // dot writes to its standard output, our output file (graph/output.h): given -o, it would
  // open the path itself and follow a symlink planted there.
  rdf::OutputFile out;
  if (rdf::Status s = out.open(out_path); !s.ok) {
    ::unlink(tmpl);
    return s;
  }
  std::string t = "-T" + format;
  char* argv[] = {const_cast<char*>("dot"), t.data(), tmpl, nullptr};
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_adddup2(&actions, ::fileno(out.stream()), STDOUT_FILENO);
  pid_t pid;
  int rc = posix_spawnp(&pid, "dot", &actions, nullptr, argv, environ);
  posix_spawn_file_actions_destroy(&actions);
  if (rc != 0) {
    ::unlink(tmpl);
    return rdf::Status::error(std::string("cannot run Graphviz 'dot': ") + std::strerror(rc));
  }
  int status = 0;
  while (waitpid(pid, &status, 0) < 0 && errno == EINTR) {
  }
  ::unlink(tmpl);
  if (!WIFEXITED(status) || WEXITSTATUS(status) != 0)
    return rdf::Status::error("Graphviz 'dot -" + t.substr(1) + "' failed writing " + out_path);
  rdf::Status s = out.commit();
  return s;
}

}  // namespace provio::viz
