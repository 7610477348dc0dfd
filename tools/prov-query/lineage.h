// Lineage: what an entity was derived from (up) or what was derived from it (down), through
// which program executions, at any depth, across jobs. Rasqal has no property paths, so the
// closure is a breadth-first search here; the visited set makes it cycle-safe.
//
// The step relation (docs/prov-query.md, "Lineage"), over entities E and program executions P:
//   G(P)      = entities P generated (prov:wasGeneratedBy an activity of P's threads), plus the
//               files of the HDF5 objects P generated (a file's lineage includes its datasets')
//   inputs(P) = entities P used (prov:used), plus the files of the objects it used,
//               minus G(P) and minus the objects inside files in G(P) (P's own outputs)
//   up(E)     = inputs(P) for each P with E in G(P), plus E prov:wasDerivedFrom X
//   down(E)   = G(P) for each P with E in inputs(P), plus X prov:wasDerivedFrom E
#pragma once

#include <string>
#include <unordered_map>
#include <unordered_set>
#include <vector>

#include "view.h"

namespace provio::query {

struct LineageStep {
  int level = 0;         // 1 = direct
  bool program = false;  // a program execution (else an entity)
  std::string iri;
  std::string relation;  // "generated", "used", "wasDerivedFrom", "derived"
  std::string via;       // the node it was reached from
};

class Lineage {
 public:
  explicit Lineage(View& v) : v_(v) {}
  // depth < 0 means unbounded.
  std::vector<LineageStep> up(const std::string& entity, int depth);
  std::vector<LineageStep> down(const std::string& entity, int depth);

  const std::vector<std::string>& generated(const std::string& program);  // G(P)
  const std::vector<std::string>& inputs(const std::string& program);     // inputs(P)
  std::vector<std::string> generators(const std::string& entity);         // {P : E in G(P)}
  std::vector<std::string> users(const std::string& entity);              // {P : E in inputs(P)}

 private:
  void compute(const std::string& program);
  std::vector<std::string> rolled_up(const std::string& entity);
  std::vector<LineageStep> walk(const std::string& entity, int depth, bool upward);

  View& v_;
  std::unordered_map<std::string, std::vector<std::string>> generated_, inputs_;
};

}  // namespace provio::query
