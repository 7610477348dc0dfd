// Runs: an MPI job step read as one run of N ranks (docs/prov-query.md, "Jobs as runs"). The
// program executions of one job with the same executable and command line are the ranks of one
// run; a program without a rank is a run of its own. Lineage, the lineage graph and the report
// show runs by default (--by-rank shows every program execution); statistics keep ranks.
//
// Hard rule: grouping only reads the View; a run is named by its lowest-ranked program
// execution, so a run of one program is that program, unchanged.
#pragma once

#include <cstddef>
#include <string>
#include <unordered_map>
#include <vector>

#include "query/lineage.h"
#include "query/view.h"

namespace provio::query {

class Runs {
 public:
  explicit Runs(View& v);
  // The program execution that names `program`'s run (itself when it has no rank).
  const std::string& run_of(const std::string& program) const;
  // The program executions (ranks) of the run `run` names, lowest rank first.
  const std::vector<std::string>& ranks(const std::string& run) const;
  // "decimate WestSac.h5 ×2 ranks" for a run of several ranks; View::program_label otherwise.
  std::string label(const std::string& run) const;
  View& view() const;

 private:
  void group(const std::string& program) const;

  View& v_;
  mutable std::unordered_map<std::string, std::string> run_of_;
  mutable std::unordered_map<std::string, std::vector<std::string>> ranks_;
};

// Lineage steps with program executions replaced by their runs: a run appears once, at the
// level where its first rank did; entities reached through any of its ranks hang off the run.
// A version of a file the run left that only its own ranks (or no traced program) made is not
// shown as its input: it is the shared file as one rank found it while another wrote it
// (docs/format.md, "Versions", limits).
std::vector<LineageStep> steps_by_run(const Runs& runs, Lineage& lineage,
                                      const std::vector<LineageStep>& steps);

}  // namespace provio::query
