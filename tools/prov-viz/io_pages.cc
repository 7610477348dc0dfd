// The report's I/O pages (see io_pages.h).
#include "io_pages.h"

#include <algorithm>
#include <cstdint>
#include <cstdlib>
#include <map>
#include <set>
#include <string>

#include "graph/terms.h"
#include "html_parts.h"
#include "lineage_dot.h"
#include "query/flow.h"
#include "query/io_view.h"

namespace provio::viz {
namespace {

using query::Table;

// The columns of `t` that are not in `keep`: what table_html leaves out.
std::vector<std::string> all_but(const Table& t, const std::vector<std::string>& keep) {
  std::vector<std::string> skip;
  for (const auto& c : t.columns)
    if (std::find(keep.begin(), keep.end(), c) == keep.end()) skip.push_back(c);
  return skip;
}

std::size_t column(const Table& t, const std::string& name) {
  return static_cast<std::size_t>(std::find(t.columns.begin(), t.columns.end(), name) - t.columns.begin());
}

double number(const Table& t, const std::vector<query::Cell>& row, const std::string& name) {
  return std::strtod(row[column(t, name)].value.c_str(), nullptr);
}

// Per job and layer, the access sizes of reads and writes, when recorded (trace level).
void histograms(std::ostringstream& out, const Table& jobs) {
  bool any = false;
  for (const auto& row : jobs.rows) {
    for (const char* dir : {"read", "write"}) {
      std::vector<std::pair<std::string, double>> items;
      double total = 0;
      for (const char* b : query::kSizeBucketNames) {
        const auto& cell = row[column(jobs, std::string("size_") + dir + "_" + b)];
        if (!cell.bound()) break;
        items.emplace_back(b, std::strtod(cell.value.c_str(), nullptr));
        total += items.back().second;
      }
      if (items.size() != query::kSizeBucketNames.size() || total == 0) continue;
      any = true;
      std::string title =
          row[column(jobs, "run")].value + " — " + row[column(jobs, "layer")].value + " " + dir + "s";
      bars(
          out, title, items, [](double x) { return std::to_string(static_cast<unsigned long long>(x)); },
          dir[0] == 'r' ? "#4E79A7" : "#F28E2B");
    }
  }
  if (!any)
    out << "<p class=\"none\">no access sizes recorded: summary activities of several calls keep no "
           "histogram; record at trace level (PROVIO_LEVEL=trace) for them</p>\n";
}

// Per job of several ranks: the rank with the most I/O time against the mean, from the rank rows.
void slowest_ranks(std::ostringstream& out, const Table& ranks) {
  std::map<std::string, std::map<std::string, double>> time;  // run → rank → seconds
  std::map<std::string, std::string> job_of;
  for (const auto& row : ranks.rows) {
    const std::string& run = row[column(ranks, "run")].value;
    job_of[run] = row[column(ranks, "job")].value;
    time[run][row[column(ranks, "rank")].value] +=
        number(ranks, row, "read_time") + number(ranks, row, "write_time") + number(ranks, row, "meta_time");
  }
  Table t;
  t.columns = {"job", "run", "ranks", "slowest_rank", "slowest_rank_time", "mean_rank_time"};
  for (const auto& [run, per_rank] : time) {
    if (per_rank.size() < 2) continue;
    auto slow = std::max_element(per_rank.begin(), per_rank.end(),
                                 [](const auto& a, const auto& b) { return a.second < b.second; });
    double sum = 0;
    for (const auto& [r, s] : per_rank) sum += s;
    t.rows.push_back({query::Cell::text(job_of[run]), query::Cell::text(run),
                      query::Cell::integer(per_rank.size()), query::Cell::text(slow->first),
                      query::Cell::number(slow->second),
                      query::Cell::number(sum / static_cast<double>(per_rank.size()))});
  }
  if (t.rows.empty()) {
    out << "<p class=\"none\">no job of several ranks</p>\n";
    return;
  }
  table_html(out, t, {}, "io-slowest");
}

std::string dot_quoted(const std::string& s) {
  std::string out = "\"";
  for (char c : s) {
    if (c == '"' || c == '\\') out += '\\';
    out += c;
  }
  return out + "\"";
}

// The flow as a picture that stays readable for tens of runs and hundreds of files: the file
// products (versions and files; their datasets are inside them) that share a producer and a set
// of consumers are one node, its edges carrying their summed bytes. Data flows left to right.
rdf::Status flow_picture(std::ostringstream& out, const Table& flow) {
  struct Group {
    std::vector<std::string> products;
    std::uint64_t produced = 0;
    std::map<std::string, std::uint64_t> consumed;  // consumer run → bytes
  };
  std::map<std::string, std::set<std::string>> consumers_of;  // product → consumer runs
  std::map<std::string, std::string> producer_of;
  for (const auto& row : flow.rows) {
    const std::string& kind = row[column(flow, "kind")].value;
    if (kind == "dataset") continue;
    const std::string& product = row[column(flow, "product")].value;
    producer_of[product] = row[column(flow, "producer")].value;
    if (!row[column(flow, "consumer")].value.empty())
      consumers_of[product].insert(row[column(flow, "consumer")].value);
  }
  std::map<std::pair<std::string, std::set<std::string>>, Group> groups;
  for (const auto& row : flow.rows) {
    if (row[column(flow, "kind")].value == "dataset") continue;
    const std::string& product = row[column(flow, "product")].value;
    Group& g = groups[{producer_of[product], consumers_of[product]}];
    if (g.products.empty() || g.products.back() != product) {
      g.products.push_back(product);
      g.produced += rdf::parse_u64(row[column(flow, "bytes_produced")].value).value_or(0);
    }
    const std::string& consumer = row[column(flow, "consumer")].value;
    if (!consumer.empty())
      g.consumed[consumer] += rdf::parse_u64(row[column(flow, "bytes_consumed")].value).value_or(0);
  }
  std::ostringstream dot;
  dot << "digraph flow {\n  rankdir=LR; node [fontname=\"Helvetica\" fontsize=10]; edge "
         "[fontname=\"Helvetica\" "
         "fontsize=9];\n";
  std::map<std::string, std::string> run_node;
  auto run = [&](const std::string& label) {
    auto [it, fresh] = run_node.try_emplace(label, "r" + std::to_string(run_node.size()));
    if (fresh)
      dot << "  " << it->second << " [shape=house style=filled fillcolor=\"#F8C471\" label="
          << dot_quoted(label.empty() ? "(not traced)" : label) << "];\n";
    return it->second;
  };
  std::size_t n = 0;
  for (const auto& [key, g] : groups) {
    std::string id = "g" + std::to_string(n++);
    std::string label = g.products.size() == 1
                            ? g.products[0].substr(g.products[0].find_last_of('/') + 1)
                            : std::to_string(g.products.size()) +
                                  " files: " + g.products[0].substr(g.products[0].find_last_of('/') + 1) +
                                  ", …";
    if (key.second.empty()) label += "\nread by nobody";
    dot << "  " << id << " [shape=ellipse style=filled fillcolor=\"#FFF2A8\" label=" << dot_quoted(label)
        << "];\n";
    // Run nodes are declared (run()) before the edge that names them is written.
    const std::string producer = run(key.first);
    dot << "  " << producer << " -> " << id;
    if (!key.first.empty()) dot << " [label=" << dot_quoted(human_bytes(g.produced)) << "]";
    dot << ";\n";
    for (const auto& [consumer, bytes] : g.consumed) {
      const std::string node = run(consumer);
      dot << "  " << id << " -> " << node << " [label=" << dot_quoted(human_bytes(bytes)) << "];\n";
    }
  }
  dot << "}\n";
  return inline_svg(out, dot.str());
}

}  // namespace

rdf::Status io_pages(std::ostringstream& out, query::View& v,
                     const std::vector<query::ActivityRecord>& records) {
  using query::IoGrouping;
  Table ranks = query::io_table(v, query::io_rows(v, records, IoGrouping::kRank), IoGrouping::kRank);
  Table jobs = query::io_table(v, query::io_rows(v, records, IoGrouping::kJob), IoGrouping::kJob);
  Table files = query::io_table(v, query::io_rows(v, records, IoGrouping::kFile), IoGrouping::kFile);

  out << "<h2 id=\"io\">I/O cost per rank</h2>\n<p class=\"note\">As <code>prov-query io --by rank</code>: "
         "per layer, the POSIX calls HDF5 made left out (they are in its figures).</p>\n";
  std::vector<std::pair<std::string, double>> per_rank;
  for (const auto& row : ranks.rows) {
    std::string label = row[column(ranks, "program")].value + " " + row[column(ranks, "layer")].value;
    per_rank.emplace_back(label, number(ranks, row, "read_time") + number(ranks, row, "write_time") +
                                     number(ranks, row, "meta_time"));
  }
  std::stable_sort(per_rank.begin(), per_rank.end(),
                   [](const auto& a, const auto& b) { return a.second > b.second; });
  if (per_rank.size() > 16) per_rank.resize(16);
  bars(
      out, "I/O time per rank and layer (read + write + metadata)", per_rank,
      [](double x) { return seconds_text(x); }, "#E15759");
  folded(out, ranks,
         all_but(ranks, {"job", "rank", "program", "layer", "reads", "writes", "bytes_read", "bytes_written",
                         "read_time", "write_time", "meta_time", "read_bandwidth", "write_bandwidth"}),
         "io-ranks", "rank rows");
  out << "<h3>Slowest rank</h3>\n";
  slowest_ranks(out, ranks);

  out << "<h2 id=\"io-sizes\">Access sizes</h2>\n";
  histograms(out, jobs);
  out << "<details><summary>per job and layer (prov-query io)</summary>";
  table_html(out, jobs, {}, "io-jobs");
  out << "</details>\n";

  out << "<h2 id=\"io-files-title\">Files: time, fastest and slowest rank</h2>\n";
  folded(out, files,
         all_but(files, {"job", "file", "layer", "ranks", "reads", "writes", "bytes_read", "bytes_written",
                         "read_time", "write_time", "meta_time", "fastest_rank", "fastest_rank_time",
                         "slowest_rank", "slowest_rank_time", "variance_rank_time"}),
         "io-files", "file rows");

  out << "<h2 id=\"flow\">Data flow</h2>\n<p class=\"note\">As <code>prov-query flow</code>: who produced "
         "each file version or dataset, who read it; an empty consumer: nobody read it; an empty producer: "
         "an input from outside.</p>\n";
  Table flow = query::flow_table(v, records);
  if (flow.rows.empty()) {
    out << "<p class=\"none\">no data flow</p>\n";
    return rdf::Status::success();
  }
  rdf::Status drawn = flow_picture(out, flow);
  if (!drawn.ok) return drawn;
  folded(out, flow, {}, "io-flow", "products");
  return rdf::Status::success();
}

}  // namespace provio::viz
