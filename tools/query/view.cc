// The cached model view (see view.h).
#include "query/view.h"

#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <ctime>
#include <map>
#include <set>
#include <tuple>

#include "graph/terms.h"
#include "model/iri.h"
#include "model/version_key.h"
#include "model/vocabulary.h"
#include "query/activity_cache.h"

namespace provio::query {

std::string basename_of(const std::string& path) {
  auto slash = path.find_last_of('/');
  return slash == std::string::npos ? path : path.substr(slash + 1);
}

const std::string& View::program_of_thread(const std::string& thread) {
  auto it = program_of_thread_.find(thread);
  if (it != program_of_thread_.end()) return it->second;
  std::string found;
  if (g_.has(thread, rdf_type(), provio("Program"))) {
    found = thread;
  } else {
    for (const auto& c : g_.objects(thread, prov("actedOnBehalfOf"))) {
      if (c.kind == Cell::Kind::kIri && g_.has(c.value, rdf_type(), provio("Program"))) {
        found = c.value;
        break;
      }
    }
  }
  return program_of_thread_.emplace(thread, found).first->second;
}

const std::string& View::program_of_activity(const std::string& activity) {
  auto it = program_of_activity_.find(activity);
  if (it != program_of_activity_.end()) return it->second;
  std::string found;
  for (const auto& c : g_.objects(activity, prov("wasAssociatedWith"))) {
    if (c.kind != Cell::Kind::kIri) continue;
    found = program_of_thread(c.value);
    if (!found.empty()) break;
  }
  return program_of_activity_.emplace(activity, found).first->second;
}

const std::string& View::file_of(const std::string& entity) {
  auto it = file_of_.find(entity);
  if (it != file_of_.end()) return it->second;
  std::string f = g_.value(entity, provio("inFile"));
  if (f.empty()) f = g_.value(entity, prov("specializationOf"));
  if (f.empty()) {
    std::string owner = g_.value(entity, provio("attributeOf"));
    if (!owner.empty() && owner != entity) {
      f = g_.value(owner, provio("inFile"));
      if (f.empty()) f = owner;
    }
  }
  if (f.empty()) f = entity;
  return file_of_.emplace(entity, f).first->second;
}

std::string run_key(const ProgramInfo& p) {
  return p.job.empty() || p.rank.empty() ? std::string()
                                         : p.job + '\n' + p.executable + '\n' + p.command_line;
}

bool View::is_version(const std::string& entity) {
  return file_of(entity) != entity && entity.find(model::kVersionSeparator) != std::string::npos;
}

std::vector<std::string> View::activities_of(const std::string& program) {
  std::vector<std::string> out;
  for (const auto& t : g_.subjects(prov("actedOnBehalfOf"), program)) {
    if (program_of_thread(t) != program) continue;
    for (auto& a : g_.subjects(prov("wasAssociatedWith"), t)) out.push_back(std::move(a));
  }
  for (auto& a : g_.subjects(prov("wasAssociatedWith"), program)) out.push_back(std::move(a));
  return out;
}

const ProgramInfo& View::program(const std::string& iri) {
  auto it = programs_.find(iri);
  if (it != programs_.end()) return it->second;
  ProgramInfo p;
  p.iri = iri;
  p.executable = g_.value(iri, provio("executable"));
  p.command_line = g_.value(iri, provio("commandLine"));
  p.working_directory = g_.value(iri, provio("workingDirectory"));
  p.host = g_.value(iri, provio("host"));
  p.pid = g_.value(iri, provio("pid"));
  // provio:rank is the Rank agent (docs/format.md); older graphs may carry the number itself.
  for (const auto& r : g_.objects(iri, provio("rank"))) {
    p.rank = r.kind == Cell::Kind::kIri ? g_.value(r.value, provio("rankNumber")) : r.value;
    if (!p.rank.empty()) break;
  }
  p.job = g_.value(iri, provio("job"));
  p.workflow = g_.value(iri, provio("workflow"));
  p.start = g_.value(iri, provio("startTime"));
  p.end = g_.value(iri, provio("endTime"));
  std::string user = g_.value(iri, prov("actedOnBehalfOf"));
  p.user = user.empty() ? "" : g_.value(user, provio("userName"));
  if (p.job.rfind("urn:provio:job:", 0) == 0) p.job = p.job.substr(15);
  p.name = p.executable.empty() ? basename_of(iri) : basename_of(p.executable);
  std::map<std::string, std::uint64_t> lost;
  for (const auto& node : g_.objects(iri, provio("incomplete"))) {
    lost[g_.value(node.value, provio("reason"))] +=
        rdf::parse_u64(g_.value(node.value, provio("lost"))).value_or(0);
  }
  for (const auto& [reason, n] : lost) {
    p.incomplete += (p.incomplete.empty() ? "" : ", ") + reason + ": " + std::to_string(n);
  }
  return programs_.emplace(iri, std::move(p)).first->second;
}

std::string View::program_label(const std::string& iri) {
  const ProgramInfo& p = program(iri);
  std::string s = p.name;
  // The first argument tells runs of one executable apart ("python3 train.py", "h5_stage acquire").
  std::string::size_type a = p.command_line.find(' ');
  if (a != std::string::npos) {
    std::string arg = p.command_line.substr(a + 1, p.command_line.find(' ', a + 1) - a - 1);
    if (!arg.empty() && arg[0] != '-') {
      arg = basename_of(arg);
      s += " " + (arg.size() > 24 ? arg.substr(0, 23) + "…" : arg);
    }
  }
  if (!p.pid.empty()) s += " (pid " + p.pid + (p.rank.empty() ? "" : ", rank " + p.rank) + ")";
  return s;
}

std::string View::entity_label(const std::string& iri, bool full) {
  std::string path = g_.value(iri, provio("path"));
  if (!path.empty()) return full ? path : basename_of(path);
  if (is_version(iri)) return entity_label(file_of(iri), full) + " @" + version_time(iri);
  std::string obj = g_.value(iri, provio("objectPath"));
  std::string file = g_.value(iri, provio("inFile"));
  if (!obj.empty() && !file.empty()) return entity_label(file, full) + ":" + obj;
  std::string owner = g_.value(iri, provio("attributeOf"));
  std::string name = g_.value(iri, provio("name"));
  if (!owner.empty() && !name.empty() && owner != iri) return entity_label(owner, full) + "@" + name;
  std::string label = g_.value(iri, std::string(kRdfs) + "label");
  if (!label.empty()) return label;
  if (iri.rfind("file://", 0) == 0) {
    std::string p = model::percent_decode(iri.substr(7));
    return full ? p : basename_of(p);
  }
  return iri;
}

// "2026-11-22T16:30:01.123456789Z" from a version IRI's key (model/version_key.h): the
// modification time that names it.
std::string version_time(const std::string& version_iri) {
  std::size_t at = version_iri.rfind(model::kVersionSeparator);
  if (at == std::string::npos) return {};
  std::string key = version_iri.substr(at + model::kVersionSeparator.size());
  model::VersionStamp stamp;
  if (!model::parse_version_key(key, stamp)) return key;
  std::time_t sec = static_cast<std::time_t>(stamp.sec);
  std::tm tm{};
  char buf[40];
  if (!gmtime_r(&sec, &tm) || !std::strftime(buf, sizeof buf, "%Y-%m-%dT%H:%M:%S", &tm)) return key;
  char ns[16];
  std::snprintf(ns, sizeof ns, ".%09ld", stamp.nsec);
  return std::string(buf) + ns + "Z";
}

std::vector<std::string> View::programs() {
  auto v = g_.subjects(rdf_type(), provio("Program"));
  std::sort(v.begin(), v.end(), [&](const std::string& a, const std::string& b) {
    const auto &pa = program(a), &pb = program(b);
    return std::tie(pa.start, pa.iri) < std::tie(pb.start, pb.iri);
  });
  return v;
}

std::string View::thread_label(const std::string& thread) {
  if (thread.empty()) return "";
  std::string p = program_of_thread(thread);
  std::string idx = g_.value(thread, provio("threadIndex"));
  return (p.empty() ? thread : program_label(p)) + " thread " + (idx.empty() ? basename_of(thread) : idx);
}

std::vector<ActivityRecord> View::activities() {
  std::vector<ActivityRecord> out;
  each_activity([&](ActivityRecord&& r) { out.push_back(std::move(r)); }, [&] { out.clear(); });
  return out;
}

void View::each_activity(const std::function<void(ActivityRecord&&)>& each,
                         const std::function<void()>& restart) {
  const std::string& dir = g_.store_dir();
  std::string fingerprint = dir.empty() ? std::string() : store_fingerprint(dir);
  if (!dir.empty()) {
    ActivityCacheReader index;
    if (index.open(dir, fingerprint)) {
      bool any = false;
      for (ActivityRecord r; index.next(r); any = true) each(std::move(r));
      if (index.done()) return;
      if (any) restart();  // a damaged index: the store answers instead
    }
  }
  // The records, in IRI order, one at a time (and, for a store, into a new index beside it).
  ActivityCacheWriter index;
  bool indexing = !dir.empty() && index.open(dir, fingerprint);
  std::vector<std::string> iris = g_.subjects(rdf_type(), prov("Activity"));
  std::sort(iris.begin(), iris.end());
  std::unordered_map<std::string, std::string> labels;
  for (const auto& a : iris) {
    ActivityRecord r;
    if (!read_activity(a, r, true)) continue;
    complete(r, labels);
    if (indexing) index.add(r);
    each(std::move(r));
  }
  if (indexing) index.commit();
}

// provio: class → the entity → activity relation it is recorded with.
const std::vector<std::pair<std::string, std::string>>& View::relations() {
  if (relation_of_.empty()) {
    for (int i = 0; i < static_cast<int>(model::Op::kCount_); ++i) {
      auto t = model::terms(static_cast<model::Op>(i));
      relation_of_.emplace_back(provio(t.activity_class.substr(7)), provio(t.relation.substr(7)));
    }
  }
  return relation_of_;
}

bool View::read_activity(const std::string& a, ActivityRecord& r, bool times) {
  r.iri = a;
  r.api = g_.value(a, provio("api"));
  if (r.api.empty()) return false;  // workflow tasks and other non-I/O activities
  std::string relation;
  for (const auto& c : g_.objects(a, rdf_type())) {
    for (const auto& [cls, rel] : relations()) {
      if (c.value == cls) {
        r.op = cls.substr(rdf::kProvio.size());
        relation = rel;
      }
    }
  }
  if (!relation.empty()) {
    auto subj = g_.subjects(relation, a);
    if (!subj.empty()) r.entity = subj.front();
  }
  if (r.entity.empty()) {
    auto gen = g_.subjects(prov("wasGeneratedBy"), a);
    if (!gen.empty())
      r.entity = gen.front();
    else if (auto used = g_.objects(a, prov("used")); !used.empty())
      r.entity = used.front().value;
  }
  r.thread = g_.value(a, prov("wasAssociatedWith"));
  // Measures read as the fold reads them (graph/fold.cc refuses one that does not parse).
  r.count = rdf::parse_u64(g_.value(a, provio("count"))).value_or(0);
  r.bytes = rdf::parse_u64(g_.value(a, provio("bytes"))).value_or(0);
  r.elapsed_ns = rdf::parse_seconds_ns(g_.value(a, provio("elapsed"))).value_or(0);
  r.nested = g_.value(a, provio("nested")) == "true";
  if (times) {
    r.start = g_.value(a, prov("startedAtTime"));
    r.end = g_.value(a, prov("endedAtTime"));
  }
  return true;
}

namespace {

// Sums activity records into one record per group of `grouping` (as a server sums them,
// activity_groups.h): the fields not grouped by are left empty.
class Groups {
 public:
  explicit Groups(const ActivityGrouping& grouping) : grouping_(grouping) {
    auto has = [&](const char* k) {
      return std::find(grouping.keys.begin(), grouping.keys.end(), k) != grouping.keys.end();
    };
    op_ = has("op"), api_ = has("api"), entity_ = has("entity"), file_ = has("file"), thread_ = has("thread");
  }
  // Whether records need their entity's file (complete() gives it).
  bool needs_file() const { return file_ || !grouping_.in_file.empty(); }

  void add(const ActivityRecord& r) {
    if (!grouping_.in_file.empty() && r.file != grouping_.in_file) return;
    std::string key;
    for (auto [keyed, field] : {std::pair{op_, &r.op},
                                {api_, &r.api},
                                {entity_, &r.entity},
                                {file_, &r.file},
                                {thread_, &r.thread}}) {
      if (keyed) key += *field;
      key += '\x1f';
    }
    key += r.nested ? '1' : '0';
    auto [it, fresh] = index_.try_emplace(std::move(key), groups_.size());
    if (fresh) {
      ActivityRecord& g = groups_.emplace_back();
      if (op_) g.op = r.op;
      if (api_) g.api = r.api;
      if (entity_) g.entity = r.entity;
      if (file_) g.file = r.file;
      if (thread_) g.thread = r.thread;
      g.nested = r.nested;
      g.group = true;
      g.activities = 0;
    }
    ActivityRecord& g = groups_[it->second];
    const std::uint64_t one[3] = {r.count, r.bytes, r.elapsed_ns};
    for (int m = 0; m < 3; ++m) {
      std::uint64_t lo = r.group ? r.least[m] : one[m], hi = r.group ? r.most[m] : one[m];
      if (g.activities == 0 || lo < g.least[m]) g.least[m] = lo;
      if (g.activities == 0 || hi > g.most[m]) g.most[m] = hi;
    }
    g.count += r.count;
    g.bytes += r.bytes;
    g.elapsed_ns += r.elapsed_ns;
    g.activities += r.group ? r.activities : 1;
  }

  std::vector<ActivityRecord> take() { return std::move(groups_); }
  void clear() {
    index_.clear();
    groups_.clear();
  }

 private:
  const ActivityGrouping& grouping_;
  bool op_, api_, entity_, file_, thread_;
  std::unordered_map<std::string, std::size_t> index_;
  std::vector<ActivityRecord> groups_;
};

}  // namespace

std::vector<ActivityRecord> View::local_totals(const ActivityGrouping& grouping) {
  Groups groups(grouping);
  if (!g_.store_dir().empty()) {
    // A store's activities come from its activity index, summed as they are read.
    each_activity([&](ActivityRecord&& r) { groups.add(r); }, [&] { groups.clear(); });
  } else {
    // One activity at a time: a campaign's millions of activities are never held at once.
    for (const auto& a : g_.subjects(rdf_type(), prov("Activity"))) {
      ActivityRecord r;
      if (!read_activity(a, r, false)) continue;
      if (groups.needs_file() && !r.entity.empty()) r.file = file_of(r.entity);
      groups.add(r);
    }
  }
  std::vector<ActivityRecord> out = groups.take();
  std::unordered_map<std::string, std::string> labels;
  for (ActivityRecord& r : out) complete(r, labels);
  return out;
}

// What a record's entity and thread imply: its file (unless a server gave it), program, rank and
// readable names.
void View::complete(ActivityRecord& r, std::unordered_map<std::string, std::string>& labels) {
  if (r.file.empty() && !r.entity.empty()) r.file = file_of(r.entity);
  r.program = r.thread.empty() ? "" : program_of_thread(r.thread);
  if (!r.program.empty()) r.rank = program(r.program).rank;
  auto label = [&](const std::string& iri, bool thread) {
    auto [it, fresh] = labels.try_emplace(iri);
    if (fresh) it->second = thread ? thread_label(iri) : entity_label(iri, true);
    return it->second;
  };
  if (!r.entity.empty()) r.entity_label = label(r.entity, false);
  if (!r.file.empty()) r.file_label = label(r.file, false);
  if (!r.program.empty()) r.program_label = program_label(r.program);
  if (!r.thread.empty()) r.thread_label = label(r.thread, true);
}

std::vector<ActivityRecord> View::activity_totals(const ActivityGrouping& grouping) {
  const RemoteGraph* remote = g_.remote();
  if (!remote) return local_totals(grouping);
  std::vector<ActivityRecord> out;
  const std::vector<ActivityGroup>* groups = remote->activity_groups(grouping);
  if (!groups) return out;  // fetched after this round
  std::unordered_map<std::string, std::string> labels;
  for (const ActivityGroup& grp : *groups) {
    ActivityRecord& r = out.emplace_back();
    r.op = grp.op;
    r.api = grp.api;
    r.entity = grp.entity;
    r.file = grp.file;
    r.thread = grp.thread;
    r.nested = grp.nested;
    r.count = grp.count;
    r.bytes = grp.bytes;
    r.elapsed_ns = grp.elapsed_ns;
    r.activities = grp.activities;
    r.group = true;
    std::copy(std::begin(grp.least), std::end(grp.least), std::begin(r.least));
    std::copy(std::begin(grp.most), std::end(grp.most), std::begin(r.most));
    complete(r, labels);
  }
  return out;
}

Status View::resolve(const std::string& arg, std::string& iri) {
  auto present = [&](const std::string& i) { return g_.has_subject(i) || g_.has_object(i); };
  bool looks_iri = arg.find("://") != std::string::npos || arg.rfind("urn:", 0) == 0;
  if (looks_iri) {
    iri = arg;
    if (present(iri)) return Status::success();
    return Status::error("unknown entity: " + arg + " is not in the graph");
  }
  std::string path = arg, object;
  struct stat st;
  auto split = arg.find(":/");
  if (split != std::string::npos && ::stat(arg.c_str(), &st) != 0) {
    path = arg.substr(0, split);
    object = arg.substr(split + 1);
  }
  std::string file = model::file_iri(model::canonical_path(path));
  iri = object.empty() ? file : model::object_iri(file, object);
  if (present(iri)) return Status::success();
  // Not under this name here: match by path suffix ("decimate.h5" run from another directory).
  std::vector<std::string> matches;
  std::string suffix = "/" + path;
  for (const char* cls : {"File", "Directory"}) {
    for (const auto& f : g_.subjects(rdf_type(), provio(cls))) {
      std::string p = g_.value(f, provio("path"));
      if (p == path ||
          (p.size() > suffix.size() && p.compare(p.size() - suffix.size(), suffix.size(), suffix) == 0))
        matches.push_back(f);
    }
  }
  std::sort(matches.begin(), matches.end());
  matches.erase(std::unique(matches.begin(), matches.end()), matches.end());
  if (matches.size() > 1)
    return Status::error("ambiguous entity: " + arg + " matches " + std::to_string(matches.size()) +
                         " files (e.g. " + matches[0] + ", " + matches[1] +
                         "); give a longer path or an IRI");
  if (matches.size() == 1) {
    iri = object.empty() ? matches[0] : model::object_iri(matches[0], object);
    if (present(iri)) return Status::success();
  }
  return Status::error("unknown entity: " + arg + " (" + iri + ") is not in the graph");
}

}  // namespace provio::query
