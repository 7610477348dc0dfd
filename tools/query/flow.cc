// The workflow's data flow (see flow.h).
#include "query/flow.h"

#include <cstdint>
#include <map>
#include <set>
#include <string>
#include <utility>

#include "query/lineage.h"
#include "query/runs.h"

namespace provio::query {

namespace {

// "version", "file", "dataset", or "" for what is no product (groups, attributes, directories).
std::string product_kind(View& v, const std::string& entity) {
  if (v.is_version(entity)) return "version";
  if (v.graph().has(entity, rdf_type(), provio("Dataset"))) return "dataset";
  if (v.file_of(entity) == entity && v.graph().has(entity, rdf_type(), provio("File"))) return "file";
  return "";
}

}  // namespace

Table flow_table(View& v, const std::vector<ActivityRecord>& records) {
  Runs runs(v);
  Lineage lineage(v);
  std::map<std::string, std::set<std::string>> producers, consumers;  // product → runs
  std::map<std::string, std::string> kinds;
  for (const auto& p : v.programs()) {
    const std::string& run = runs.run_of(p);
    auto note = [&](const std::vector<std::string>& products,
                    std::map<std::string, std::set<std::string>>& into) {
      for (const auto& x : products) {
        std::string kind = product_kind(v, x);
        if (kind.empty()) continue;
        kinds[x] = kind;
        into[x].insert(run);
      }
    };
    note(lineage.outputs(p), producers);
    note(lineage.inputs(p), consumers);
  }
  // Bytes each run wrote and read, on each file and on each object: a version or file product
  // counts what went to its file, a dataset what went to the dataset.
  std::map<std::pair<std::string, std::string>, std::pair<std::uint64_t, std::uint64_t>>
      moved;  // written, read
  for (const auto& r : records) {
    if (r.program.empty() || (r.op != "Write" && r.op != "Read")) continue;
    const std::string& run = runs.run_of(r.program);
    for (const std::string* on : {&r.file, &r.entity}) {
      if (on == &r.entity && *on == r.file) continue;
      auto& m = moved[{run, *on}];
      (r.op == "Write" ? m.first : m.second) += r.bytes;
    }
  }
  auto bytes_on = [&](const std::string& run, const std::string& product, bool written) -> std::uint64_t {
    const std::string& on = kinds[product] == "dataset" ? product : v.file_of(product);
    auto it = moved.find({run, on});
    return it == moved.end() ? 0 : written ? it->second.first : it->second.second;
  };
  Table t;
  t.columns = {"product", "kind", "producer", "consumer", "bytes_produced", "bytes_consumed", "consumers"};
  for (const auto& [product, kind] : kinds) {
    std::set<std::string> made = producers[product], read;
    // A run reading back what it (another of its ranks) wrote is no flow between programs.
    for (const auto& c : consumers[product])
      if (!made.count(c)) read.insert(c);
    std::uint64_t n = read.size();
    if (made.empty()) made.insert("");
    if (read.empty()) read.insert("");
    for (const auto& producer : made) {
      for (const auto& consumer : read) {
        t.rows.push_back(
            {Cell::text(v.entity_label(product, true)), Cell::text(kind),
             Cell::text(producer.empty() ? "" : runs.label(producer)),
             Cell::text(consumer.empty() ? "" : runs.label(consumer)),
             producer.empty() ? Cell::unbound() : Cell::integer(bytes_on(producer, product, true)),
             consumer.empty() ? Cell::unbound() : Cell::integer(bytes_on(consumer, product, false)),
             Cell::integer(n)});
      }
    }
  }
  return t;
}

}  // namespace provio::query
