// The built-in questions of prov-query, each answering with a Table. Shared by prov-viz.
// Hard rule: every question is computed from the graph alone (no clock, no environment), so
// its answer can be checked against an independent SPARQL engine on the same graph.
#pragma once

#include <string>
#include <vector>

#include "query/lineage.h"
#include "query/runs.h"
#include "query/table.h"
#include "query/view.h"

namespace provio::query {

// Lineage rows: level, kind, name, ranks, job, relation, via_name, command, and with `iris` the
// iri and via columns. Program steps are runs (runs.h) unless `runs` is null (--by-rank).
// Without `iris` the table is for a terminal: paths under the working directory relative to it,
// commands with their program's base name.
Table lineage_table(View& v, const Runs* runs, const std::vector<LineageStep>& steps, bool iris);

// Orders two cells: numbers (integer, long, double literals) numerically, everything else as
// text. Negative, 0 or positive.
int compare_cells(const Cell& a, const Cell& b);

// A field of an activity record, as select/stats name it.
// Text: activity op api entity file object thread program rank start end.
// Numbers: count bytes elapsed.
bool is_field(const std::string& name);
bool is_numeric_field(const std::string& name);
Cell field(View& v, const ActivityRecord& r, const std::string& name);

struct SelectSpec {
  std::vector<std::string> project;  // fields (no aggregation) — default when empty
  struct Filter {
    std::string field, op, value;  // op: = != =~ !~ < <= > >=
  };
  std::vector<Filter> filters;  // all must hold
  struct Agg {
    std::string fn, field;  // fn: sum count mean min max; field "*" for count
  };
  std::vector<Agg> aggs;
  std::vector<std::string> group_by;
  std::vector<std::pair<std::string, bool>> sort;  // column, descending
  long limit = -1;
};

// Parses "-bytes,api" / "sum:bytes,count:*" / "file=~out.h5".
Status parse_sort(const std::string& text, SelectSpec& spec);
Status parse_aggs(const std::string& text, SelectSpec& spec);
Status parse_filter(const std::string& text, SelectSpec& spec);
Status parse_fields(const std::string& text, std::vector<std::string>& out);
// A count on the command line (--depth, --top, --limit, -k): a number >= 0, or "all" (-1).
bool parse_count(std::string_view text, long& out);

// The View::activity_totals keys (sorted) whose group records answer `spec` as its single
// activities would: the fields it groups and filters by. False when it reads single activities
// (no aggregation, a filter on a number, or a field of one activity: activity, start, end).
bool select_grouping(const SelectSpec& spec, std::vector<std::string>& keys);

// Runs a select over the I/O activity records (single activities, or groups of them).
Status select(View& v, const std::vector<ActivityRecord>& records, const SelectSpec& spec, Table& out);

// stats --by KEY: key, calls, bytes, elapsed, mean_elapsed (per call), sorted by elapsed desc.
Status stats(View& v, const std::vector<ActivityRecord>& records, const std::string& by, long top,
             Table& out);

Table programs_table(View& v);
Table files_table(View& v, const std::vector<ActivityRecord>& records);
// Objects of one file, with bytes moved; `file` is an IRI.
Table objects_table(View& v, const std::vector<ActivityRecord>& records, const std::string& file);

// Workflow records (configs, metrics, best, checkpoints): ml_questions.h.

}  // namespace provio::query
