// Built-in questions (see questions.h).
#include "query/questions.h"

#include <unistd.h>

#include <algorithm>
#include <cstdlib>
#include <limits>
#include <map>
#include <regex>
#include <set>
#include <sstream>

#include "graph/terms.h"

namespace provio::query {
namespace {

constexpr const char* kTextFields[] = {"activity", "op",      "api",  "entity", "file", "object",
                                       "thread",   "program", "rank", "start",  "end"};
constexpr const char* kNumericFields[] = {"count", "bytes", "elapsed"};

std::vector<std::string> split(const std::string& s, char sep) {
  std::vector<std::string> out;
  std::string cur;
  std::istringstream in(s);
  while (std::getline(in, cur, sep)) {
    if (!cur.empty()) out.push_back(cur);
  }
  return out;
}

double as_number(const Cell& c) {
  return c.bound() ? std::strtod(c.value.c_str(), nullptr) : 0;
}

bool numeric_cell(const Cell& c) {
  return c.kind == Cell::Kind::kLiteral && !c.datatype.empty() &&
         (c.datatype.find("integer") != std::string::npos || c.datatype.find("double") != std::string::npos ||
          c.datatype.find("Long") != std::string::npos || c.datatype.find("long") != std::string::npos);
}

}  // namespace

int compare_cells(const Cell& a, const Cell& b) {
  if (numeric_cell(a) && numeric_cell(b)) {
    double x = as_number(a), y = as_number(b);
    return x < y ? -1 : x > y ? 1 : 0;
  }
  return a.value.compare(b.value) < 0 ? -1 : a.value == b.value ? 0 : 1;
}

bool is_field(const std::string& name) {
  for (const char* f : kTextFields)
    if (name == f) return true;
  return is_numeric_field(name);
}

bool is_numeric_field(const std::string& name) {
  for (const char* f : kNumericFields)
    if (name == f) return true;
  return false;
}

Cell field(View& /*labels are resolved in the record*/, const ActivityRecord& r, const std::string& name) {
  if (name == "activity") return Cell::iri(r.iri);
  if (name == "op") return Cell::text(r.op);
  if (name == "api") return Cell::text(r.api);
  if (name == "entity") return r.entity.empty() ? Cell::unbound() : Cell::text(r.entity_label);
  if (name == "file") return r.file.empty() ? Cell::unbound() : Cell::text(r.file_label);
  if (name == "object")
    return r.entity.empty() || r.entity == r.file ? Cell::unbound() : Cell::text(r.entity_label);
  if (name == "thread") return Cell::text(r.thread_label);
  if (name == "program") return r.program.empty() ? Cell::unbound() : Cell::text(r.program_label);
  if (name == "rank") return r.rank.empty() ? Cell::unbound() : Cell::text(r.rank);
  if (name == "start") return Cell::text(r.start);
  if (name == "end") return Cell::text(r.end);
  if (name == "count") return Cell::integer(r.count);
  if (name == "bytes") return Cell::integer(r.bytes);
  if (name == "elapsed") return Cell::seconds(r.elapsed_ns);
  return Cell::unbound();
}

bool parse_count(std::string_view text, long& out) {
  if (text == "all") {
    out = -1;
    return true;
  }
  auto n = rdf::parse_u64(text);
  if (!n || *n > static_cast<std::uint64_t>(std::numeric_limits<long>::max())) return false;
  out = static_cast<long>(*n);
  return true;
}

Status parse_fields(const std::string& text, std::vector<std::string>& out) {
  for (const auto& f : split(text, ',')) {
    if (!is_field(f)) return Status::error("unknown field '" + f + "'");
    out.push_back(f);
  }
  return Status::success();
}

Status parse_sort(const std::string& text, SelectSpec& spec) {
  for (auto f : split(text, ',')) {
    bool desc = f[0] == '-';
    if (desc || f[0] == '+') f = f.substr(1);
    spec.sort.emplace_back(f, desc);
  }
  return Status::success();
}

Status parse_aggs(const std::string& text, SelectSpec& spec) {
  for (const auto& a : split(text, ',')) {
    auto colon = a.find(':');
    std::string fn = a.substr(0, colon), f = colon == std::string::npos ? "*" : a.substr(colon + 1);
    if (fn != "sum" && fn != "count" && fn != "mean" && fn != "min" && fn != "max")
      return Status::error("unknown aggregate '" + fn + "' (sum, count, mean, min, max)");
    if (fn == "count" ? (f != "*" && !is_field(f)) : !is_numeric_field(f))
      return Status::error("cannot aggregate " + fn + " over '" + f +
                           "' (numeric fields: count, bytes, elapsed)");
    spec.aggs.push_back({fn, f});
  }
  return Status::success();
}

Status parse_filter(const std::string& text, SelectSpec& spec) {
  static const char* ops[] = {"=~", "!~", "!=", "<=", ">=", "=", "<", ">"};
  std::size_t best = std::string::npos;
  std::string op;
  for (const char* o : ops) {
    auto at = text.find(o);
    if (at != std::string::npos && (at < best || (at == best && std::string(o).size() > op.size()))) {
      best = at;
      op = o;
    }
  }
  if (best == std::string::npos || best == 0)
    return Status::error("malformed filter '" + text + "' (FIELD OP VALUE, OP one of = != =~ !~ < <= > >=)");
  std::string f = text.substr(0, best);
  if (!is_field(f)) return Status::error("unknown field '" + f + "' in filter '" + text + "'");
  std::string value = text.substr(best + op.size());
  if (op == "=~" || op == "!~") {
    try {
      std::regex re(value);
    } catch (const std::regex_error& e) {
      return Status::error("bad regular expression '" + value + "' in filter: " + e.what());
    }
  }
  spec.filters.push_back({f, op, value});
  return Status::success();
}

Status select(View& v, const std::vector<ActivityRecord>& records, const SelectSpec& spec, Table& out) {
  out = Table{};
  std::vector<std::regex> regexes;
  for (const auto& f : spec.filters) regexes.emplace_back(f.op.find('~') != std::string::npos ? f.value : "");
  auto keep = [&](const ActivityRecord& r) {
    for (std::size_t i = 0; i < spec.filters.size(); ++i) {
      const auto& f = spec.filters[i];
      Cell c = field(v, r, f.field);
      bool ok;
      if (f.op == "=~")
        ok = std::regex_search(c.value, regexes[i]);
      else if (f.op == "!~")
        ok = !std::regex_search(c.value, regexes[i]);
      else {
        Cell want = is_numeric_field(f.field) ? Cell::number(std::strtod(f.value.c_str(), nullptr))
                                              : Cell::text(f.value);
        int cmp = compare_cells(c, want);
        ok = f.op == "="    ? cmp == 0
             : f.op == "!=" ? cmp != 0
             : f.op == "<"  ? cmp < 0
             : f.op == "<=" ? cmp <= 0
             : f.op == ">"  ? cmp > 0
                            : cmp >= 0;
      }
      if (!ok) return false;
    }
    return true;
  };
  for (const auto& g : spec.group_by)
    if (!is_field(g)) return Status::error("unknown field '" + g + "' in --group-by");
  if (spec.aggs.empty() && spec.group_by.empty()) {
    out.columns = spec.project.empty() ? std::vector<std::string>{"program", "thread", "op",    "api",
                                                                  "entity",  "count",  "bytes", "elapsed"}
                                       : spec.project;
    for (const auto& r : records) {
      if (!keep(r)) continue;
      auto& row = out.rows.emplace_back();
      for (const auto& c : out.columns) row.push_back(field(v, r, c));
    }
  } else {
    out.columns = spec.group_by;
    for (const auto& a : spec.aggs) out.columns.push_back(a.fn + "_" + (a.field == "*" ? "all" : a.field));
    if (spec.aggs.empty()) out.columns.push_back("count_all");
    struct Acc {
      std::vector<Cell> key;
      std::vector<std::uint64_t> isum, min, max;
      std::uint64_t n = 0;
    };
    std::map<std::string, Acc> groups;  // ordered by key text for stable output
    std::size_t na = spec.aggs.size();
    for (const auto& r : records) {
      if (!keep(r)) continue;
      std::vector<Cell> key;
      std::string k;
      for (const auto& g : spec.group_by) {
        key.push_back(field(v, r, g));
        k += key.back().value;
        k += '\x1f';
      }
      Acc& acc = groups[k];
      if (acc.n == 0) {
        acc.key = std::move(key);
        acc.isum.assign(na, 0);
        acc.min.assign(na, 0);
        acc.max.assign(na, 0);
      }
      // Integers (ns for elapsed) throughout, so a record summing a group of activities (from a
      // server) adds up exactly as its activities one by one.
      for (std::size_t i = 0; i < na; ++i) {
        const auto& a = spec.aggs[i];
        if (a.fn == "count") continue;
        int m = a.field == "count" ? 0 : a.field == "bytes" ? 1 : 2;
        std::uint64_t ix = m == 2 ? r.elapsed_ns : m == 1 ? r.bytes : r.count;
        std::uint64_t lo = r.group ? r.least[m] : ix, hi = r.group ? r.most[m] : ix;
        acc.isum[i] += ix;
        if (acc.n == 0 || lo < acc.min[i]) acc.min[i] = lo;
        if (acc.n == 0 || hi > acc.max[i]) acc.max[i] = hi;
      }
      acc.n += r.group ? r.activities : 1;
    }
    for (auto& [k, acc] : groups) {
      auto row = acc.key;
      for (std::size_t i = 0; i < na; ++i) {
        const auto& a = spec.aggs[i];
        bool integral = a.field == "bytes" || a.field == "count";
        double unit = integral ? 1 : 1e9;
        if (a.fn == "count")
          row.push_back(Cell::integer(acc.n));
        else if (a.fn == "sum")
          row.push_back(integral ? Cell::integer(acc.isum[i]) : Cell::seconds(acc.isum[i]));
        else if (a.fn == "mean")
          row.push_back(Cell::number(static_cast<double>(acc.isum[i]) / unit / static_cast<double>(acc.n)));
        else if (a.fn == "min")
          row.push_back(integral ? Cell::integer(acc.min[i])
                                 : Cell::number(static_cast<double>(acc.min[i]) / unit));
        else
          row.push_back(integral ? Cell::integer(acc.max[i])
                                 : Cell::number(static_cast<double>(acc.max[i]) / unit));
      }
      if (na == 0) row.push_back(Cell::integer(acc.n));
      out.rows.push_back(std::move(row));
    }
  }
  std::vector<std::pair<std::size_t, bool>> keys;
  for (const auto& [col, desc] : spec.sort) {
    auto it = std::find(out.columns.begin(), out.columns.end(), col);
    if (it == out.columns.end()) return Status::error("cannot sort by '" + col + "': not an output column");
    keys.emplace_back(static_cast<std::size_t>(it - out.columns.begin()), desc);
  }
  std::stable_sort(out.rows.begin(), out.rows.end(),
                   [&](const std::vector<Cell>& a, const std::vector<Cell>& b) {
                     for (auto [i, desc] : keys) {
                       int c = compare_cells(a[i], b[i]);
                       if (c != 0) return desc ? c > 0 : c < 0;
                     }
                     return false;
                   });
  if (spec.limit >= 0 && out.rows.size() > static_cast<std::size_t>(spec.limit)) out.rows.resize(spec.limit);
  return Status::success();
}

bool select_grouping(const SelectSpec& spec, std::vector<std::string>& keys) {
  if (spec.aggs.empty() && spec.group_by.empty()) return false;
  std::set<std::string> k;
  std::vector<std::string> fields = spec.group_by;
  for (const auto& f : spec.filters) {
    if (is_numeric_field(f.field)) return false;
    fields.push_back(f.field);
  }
  for (const auto& f : fields) {
    if (f == "op" || f == "api" || f == "entity" || f == "file")
      k.insert(f);
    else if (f == "object")
      k.insert({"entity", "file"});
    else if (f == "thread" || f == "program" || f == "rank")
      k.insert("thread");
    else
      return false;  // activity, start, end: one activity's
  }
  keys.assign(k.begin(), k.end());
  return true;
}

Status stats(View& v, const std::vector<ActivityRecord>& records, const std::string& by, long top,
             Table& out) {
  if (by != "api" && by != "file" && by != "object" && by != "rank" && by != "thread" && by != "program")
    return Status::error("unknown --by '" + by + "' (api, file, object, rank, thread, program)");
  SelectSpec spec;
  spec.group_by = {by == "object" ? "entity" : by};
  Status s = parse_aggs("sum:count,sum:bytes,sum:elapsed", spec);
  if (s.ok) s = select(v, records, spec, out);
  if (!s.ok) return s;
  out.columns = {by, "calls", "bytes", "elapsed", "mean_elapsed"};
  for (auto& row : out.rows) {
    double calls = as_number(row[1]);
    std::uint64_t ns = rdf::parse_seconds_ns(row[3].value).value_or(0);
    row.push_back(
        Cell::seconds(calls > 0 ? static_cast<std::uint64_t>(static_cast<double>(ns) / calls + 0.5) : 0));
  }
  std::stable_sort(out.rows.begin(), out.rows.end(),
                   [](const auto& a, const auto& b) { return compare_cells(a[3], b[3]) > 0; });
  if (top >= 0 && out.rows.size() > static_cast<std::size_t>(top)) out.rows.resize(top);
  return Status::success();
}

namespace {

// For a person at a terminal: paths under the working directory relative to it, a command with
// its program's base name.
std::string relative_to(const std::string& cwd, const std::string& label) {
  if (!cwd.empty() && label.size() > cwd.size() + 1 && label.compare(0, cwd.size(), cwd) == 0 &&
      label[cwd.size()] == '/')
    return label.substr(cwd.size() + 1);
  return label;
}

std::string short_command(const std::string& command) {
  std::string::size_type space = command.find(' ');
  std::string program = command.substr(0, space);
  return basename_of(program) + (space == std::string::npos ? "" : command.substr(space));
}

}  // namespace

Table lineage_table(View& v, const Runs* runs, const std::vector<LineageStep>& steps, bool iris) {
  Table t;
  t.columns = {"level", "kind", "name", "ranks", "job", "relation", "via_name", "command"};
  if (iris) t.columns.insert(t.columns.end(), {"iri", "via"});
  std::string cwd;
  if (!iris) {
    char buf[4096];
    if (getcwd(buf, sizeof buf)) cwd = buf;
  }
  auto label = [&](const std::string& iri, bool program) {
    if (!program) return relative_to(cwd, v.entity_label(iri, true));
    return runs ? runs->label(iri) : v.program_label(iri);
  };
  for (const auto& s : steps) {
    // The via node is an entity when the step is a program, and vice versa (derivations link
    // entities to entities).
    bool via_program = !s.program && (s.relation == "used by" || s.relation == "generated by");
    Cell ranks = Cell::unbound(), job = Cell::unbound(), command = Cell::unbound();
    if (s.program) {
      const ProgramInfo& p = v.program(s.iri);
      ranks = Cell::integer(runs ? runs->ranks(s.iri).size() : 1);
      if (!p.job.empty()) job = Cell::text(p.job);
      command = Cell::text(iris ? p.command_line : short_command(p.command_line));
    }
    t.rows.push_back({Cell::integer(static_cast<std::uint64_t>(s.level)),
                      Cell::text(s.program ? "program" : "entity"), Cell::text(label(s.iri, s.program)),
                      ranks, job, Cell::text(s.relation), Cell::text(label(s.via, via_program)), command});
    if (iris) t.rows.back().insert(t.rows.back().end(), {Cell::iri(s.iri), Cell::iri(s.via)});
  }
  return t;
}

Table programs_table(View& v) {
  Table t;
  t.columns = {"program", "executable", "host", "pid",        "rank",    "job",
               "user",    "start",      "end",  "incomplete", "threads", "iri"};
  for (const auto& p : v.programs()) {
    const ProgramInfo& info = v.program(p);
    std::size_t threads = v.graph().subjects(prov("actedOnBehalfOf"), p).size();
    t.rows.push_back({Cell::text(info.name), Cell::text(info.executable), Cell::text(info.host),
                      Cell::text(info.pid), info.rank.empty() ? Cell::unbound() : Cell::text(info.rank),
                      Cell::text(info.job), Cell::text(info.user), Cell::text(info.start),
                      Cell::text(info.end), Cell::text(info.incomplete), Cell::integer(threads),
                      Cell::iri(p)});
  }
  return t;
}

Table files_table(View& v, const std::vector<ActivityRecord>& records) {
  struct Sum {
    std::uint64_t read = 0, written = 0, calls = 0;
    std::uint64_t elapsed = 0;
    std::set<std::string> programs;
  };
  std::map<std::string, Sum> files;
  for (const char* cls : {"File", "Directory"})
    for (const auto& f : v.graph().subjects(rdf_type(), provio(cls))) files[f];
  for (const auto& r : records) {
    if (r.file.empty()) continue;
    Sum& s = files[r.file];
    if (r.op == "Read") s.read += r.bytes;
    if (r.op == "Write") s.written += r.bytes;
    s.calls += r.count;
    s.elapsed += r.elapsed_ns;
    if (!r.program.empty()) s.programs.insert(r.program);
  }
  Table t;
  t.columns = {"file", "bytes_read", "bytes_written", "calls", "elapsed", "programs", "iri"};
  for (const auto& [f, s] : files) {
    t.rows.push_back({Cell::text(v.entity_label(f, true)), Cell::integer(s.read), Cell::integer(s.written),
                      Cell::integer(s.calls), Cell::seconds(s.elapsed), Cell::integer(s.programs.size()),
                      Cell::iri(f)});
  }
  return t;
}

Table objects_table(View& v, const std::vector<ActivityRecord>& records, const std::string& file) {
  struct Sum {
    std::uint64_t read = 0, written = 0, calls = 0, elapsed = 0;
  };
  std::map<std::string, Sum> objects;
  for (const auto& o : v.graph().subjects(provio("inFile"), file)) objects[o];
  for (const auto& a : v.graph().subjects(provio("attributeOf"), file)) objects[a];
  for (const auto& r : records) {
    if (r.file != file || r.entity == file) continue;
    Sum& s = objects[r.entity];
    if (r.op == "Read") s.read += r.bytes;
    if (r.op == "Write") s.written += r.bytes;
    s.calls += r.count;
    s.elapsed += r.elapsed_ns;
  }
  Table t;
  t.columns = {"object", "class", "bytes_read", "bytes_written", "calls", "elapsed", "iri"};
  for (const auto& [o, s] : objects) {
    std::string cls;
    for (const auto& c : v.graph().objects(o, rdf_type()))
      if (c.value.rfind(std::string(rdf::kProvio), 0) == 0) cls = c.value.substr(rdf::kProvio.size());
    std::string path = v.graph().value(o, provio("objectPath"));
    if (path.empty()) path = v.entity_label(o, false);
    t.rows.push_back({Cell::text(path), Cell::text(cls), Cell::integer(s.read), Cell::integer(s.written),
                      Cell::integer(s.calls), Cell::seconds(s.elapsed), Cell::iri(o)});
  }
  return t;
}

}  // namespace provio::query
