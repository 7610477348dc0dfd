// Remake scripts (see remake.h).
#include "query/remake.h"

#include <sys/stat.h>

#include <algorithm>
#include <map>
#include <set>
#include <sstream>

#include "model/version_key.h"
#include "query/lineage.h"
#include "query/runs.h"

namespace provio::query {
namespace {

std::string quoted(const std::string& s) {
  std::string out = "'";
  for (char c : s) out += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return out + "'";
}

std::string current_version(const std::string& file_iri, const std::string& path) {
  struct stat st;
  if (::stat(path.c_str(), &st) != 0 || !S_ISREG(st.st_mode)) return {};
  return file_iri + std::string(model::kVersionSeparator) + model::version_key(st);
}

// The key's modification time, for ordering versions of one file ("" sorts first).
std::string version_key_of(const std::string& version) {
  auto at = version.rfind(model::kVersionSeparator);
  return at == std::string::npos ? std::string() : version.substr(at + model::kVersionSeparator.size());
}

bool newer(const std::string& a, const std::string& b) {
  model::VersionStamp sa, sb;  // a key that does not read sorts first, as ""
  if (!model::parse_version_key(version_key_of(a), sa)) sa = {};
  if (!model::parse_version_key(version_key_of(b), sb)) sb = {};
  return !(sa <= sb);
}

// The directory all `dirs` are under (a whole path component), "/" at worst.
std::string common_directory(const std::vector<std::string>& dirs) {
  if (dirs.empty()) return {};
  std::string common = dirs.front();
  for (const auto& d : dirs) {
    std::size_t n = 0;
    while (n < common.size() && n < d.size() && common[n] == d[n]) ++n;
    if (!(n == common.size() && (n == d.size() || d[n] == '/'))) {
      std::size_t slash = common.rfind('/', n);
      n = slash == 0 || slash == std::string::npos ? 1 : slash;
    }
    common.resize(n);
  }
  return common.empty() ? "/" : common;
}

}  // namespace

Status remake_script(View& v, const std::string& entity, const std::string& path, std::string& script) {
  const QueryGraph& g = v.graph();
  const std::string file = v.file_of(entity);
  // FILE's current version; else its last recorded one (said in the script); else the path.
  std::string target = current_version(file, path), note;
  if (target.empty() || !(g.has_subject(target) || g.has_object(target))) {
    std::string latest;
    for (const auto& x : g.subjects(prov("specializationOf"), file))
      if (latest.empty() || newer(x, latest)) latest = x;
    note = latest.empty() ? "no version of it is recorded: its lineage is that of the path"
                          : "it changed since its last recorded version, which this remakes";
    target = latest.empty() ? entity : latest;
  }
  Lineage lineage(v);
  Runs runs(v);
  std::vector<LineageStep> steps = steps_by_run(runs, lineage, lineage.up(target, -1));
  std::vector<std::string> order;
  std::map<std::string, std::vector<std::string>> reads;  // run -> entities it read
  for (const auto& s : steps) {
    if (s.program)
      order.push_back(s.iri);
    else if (s.relation == "used by")
      reads[s.via].push_back(s.iri);
  }
  if (order.empty()) return Status::error("remake: no traced program generated " + path);
  // Dependency order: a program ran after the programs that made what it read.
  std::sort(order.begin(), order.end(), [&](const std::string& a, const std::string& b) {
    return std::tie(v.program(a).start, a) < std::tie(v.program(b).start, b);
  });
  std::vector<std::string> dirs;
  for (const auto& r : order)
    if (!v.program(r).working_directory.empty()) dirs.push_back(v.program(r).working_directory);
  std::string base = common_directory(dirs);
  std::map<std::string, std::size_t> made_by;  // version -> step
  std::ostringstream out;
  out << "#!/bin/sh\n# prov-query remake " << path << ": the commands that made "
      << v.entity_label(target, true) << "\n";
  if (!note.empty()) out << "# Note: " << note << ".\n";
  out << "# " << order.size() << " step(s) in dependency order. Run in another directory with\n"
      << "#   REMAKE_DIR=/fresh/dir sh this-script   (the inputs the steps read must be there);\n"
      << "# MPI steps run with $MPIEXEC (default mpiexec).\nset -e\n"
      << "REMAKE_DIR=${REMAKE_DIR:-" << quoted(base) << "}\n";
  for (std::size_t k = 0; k < order.size(); ++k) {
    const std::string& run = order[k];
    const ProgramInfo& p = v.program(run);
    std::size_t ranks = runs.ranks(run).size();
    out << "\n# step " << k + 1 << ": " << runs.label(run);
    if (!p.job.empty()) out << ", job " << p.job;
    out << ", started " << p.start << (p.host.empty() ? "" : " on " + p.host) << "\n";
    for (const auto& rank : runs.ranks(run))
      for (const auto& x : lineage.outputs(rank))
        if (v.is_version(x)) made_by.emplace(x, k + 1);
    std::set<std::string> shown;
    for (const auto& in : reads[run]) {
      if (!shown.insert(in).second) continue;
      std::string state;
      if (auto m = made_by.find(in); m != made_by.end() && m->second <= k) {
        state = "made by step " + std::to_string(m->second);
      } else if (v.is_version(in)) {
        std::string in_path = v.entity_label(v.file_of(in), true);
        std::string now = current_version(v.file_of(in), in_path);
        state = now.empty() ? "MISSING now"
                : now == in ? "unchanged now"
                            : "CHANGED since (now @" + version_time(now) + ")";
      } else {
        state = "no version recorded";
      }
      out << "#   reads " << v.entity_label(in, true) << ": " << state << "\n";
    }
    if (!p.workflow.empty()) out << "export PROVIO_WORKFLOW=" << quoted(p.workflow) << "\n";
    std::string dir = p.working_directory.empty() ? base : p.working_directory;
    std::string rel = dir.size() > base.size() ? dir.substr(base.size() + (base == "/" ? 0 : 1)) : "";
    out << "cd \"$REMAKE_DIR\"" << (rel.empty() ? "" : "/" + quoted(rel)) << "\n";
    if (ranks > 1) out << "${MPIEXEC:-mpiexec} -n " << ranks << " ";
    out << p.command_line << "\n";
  }
  script = out.str();
  return Status::success();
}

}  // namespace provio::query
