// I/O activities summed by the server (see activity_groups.h).
#include "query/activity_groups.h"

#include <algorithm>
#include <cstdlib>

#include "graph/terms.h"
#include "graph/vocabulary.h"
#include "query/source.h"

namespace provio::query {
namespace {

bool has(const std::vector<std::string>& keys, const char* k) {
  return std::find(keys.begin(), keys.end(), k) != keys.end();
}

// An activity's op: its provio: I/O class.
std::string op_pattern() {
  std::string v;
  for (int i = 0; i < static_cast<int>(model::Op::kCount_); ++i)
    v += std::string(model::terms(static_cast<model::Op>(i)).activity_class) + " ";
  return "  OPTIONAL { ?a a ?cls . VALUES ?cls { " + v + "} }\n";
}

// An activity's entity, as View::compute_activities reads it: the subject of its class's
// relation. One branch per op with both terms fixed: Virtuoso 7.2 answers this in 3 CPU s at
// 1 M triples, against 5 for a VALUES table of (class relation) joined on a variable predicate.
std::string entity_pattern() {
  std::string v;
  for (int i = 0; i < static_cast<int>(model::Op::kCount_); ++i) {
    auto t = model::terms(static_cast<model::Op>(i));
    v += std::string(i ? " UNION " : "") + "{ ?a a " + std::string(t.activity_class) + " . ?er " +
         std::string(t.relation) + " ?a }";
  }
  return "  OPTIONAL { " + v + " }\n";
}

std::uint64_t number(const sparql::Row& row, int col) {
  return col >= 0 && row[col] ? rdf::parse_u64(row[col]->value).value_or(0) : 0;
}

std::string text(const sparql::Row& row, int col) {
  return col >= 0 && row[col] ? row[col]->value : std::string();
}

// The file of each entity (View::file_of): one row per entity, whichever job graphs hold its
// facts, so joining it never multiplies an activity.
std::string file_of_entity() {
  return " OPTIONAL { SELECT ?e (MIN(?in0) AS ?in) (MIN(?sp0) AS ?sp) (MIN(?ow0) AS ?ow) (MIN(?owin0) AS "
         "?owin)"
         " WHERE {\n  { " +
         sparql::in_job_graphs("?e provio:inFile ?in0") + " } UNION { " +
         sparql::in_job_graphs("?e prov:specializationOf ?sp0") + " } UNION\n  { " +
         sparql::in_job_graphs("?e provio:attributeOf ?ow0") + " FILTER(?ow0 != ?e) OPTIONAL { " +
         sparql::in_job_graphs("?ow0 provio:inFile ?owin0", "?g2") +
         " } }\n } GROUP BY ?e }\n"
         " BIND(COALESCE(?in, ?sp, ?owin, ?ow, ?e) AS ?f)\n";
}

// Per activity first (inner GROUP BY ?a: one value of each property, as the local graph's first
// value; the same triple in several job graphs counts once), then per group. Elapsed seconds are
// rounded to whole ns per activity before summing, as parse_seconds_ns reads them: exact for
// durations under 10^6 s (a double's error there is under 0.3 ns).
std::string activity_groups_query(const ActivityGrouping& grouping) {
  const std::vector<std::string>& keys = grouping.keys;
  bool op = has(keys, "op"), file = has(keys, "file") || !grouping.in_file.empty();
  bool entity = file || has(keys, "entity"), thread = has(keys, "thread");
  std::string outer_keys = (op ? "?op " : "") + std::string(has(keys, "api") ? "?api " : "") +
                           (has(keys, "entity") ? "?e " : "") + (has(keys, "file") ? "?f " : "") +
                           (thread ? "?t " : "") + "?nested";
  std::string q = kSparqlPrefixes;
  q += "SELECT " + outer_keys +
       " (SUM(?c) AS ?calls) (SUM(?b) AS ?bytes) (SUM(?ns) AS ?elapsed) (COUNT(?a) AS ?n)"
       " (MIN(?c) AS ?c_min) (MAX(?c) AS ?c_max) (MIN(?b) AS ?b_min) (MAX(?b) AS ?b_max)"
       " (MIN(?ns) AS ?ns_min) (MAX(?ns) AS ?ns_max) WHERE {\n"
       " { SELECT ?a (SAMPLE(?api0) AS ?api) (SAMPLE(?c0) AS ?c1) (SAMPLE(?b0) AS ?b1) (SAMPLE(?el0) AS ?el1)"
       " (SAMPLE(?n0) AS ?n1)";
  if (op) q += " (MIN(?cls) AS ?op)";
  if (entity) q += " (MIN(?er) AS ?e1) (MIN(?eg) AS ?e2) (MIN(?eu) AS ?e3)";
  if (thread) q += " (MIN(?t0) AS ?t)";
  q += " WHERE { GRAPH ?g {\n"
       "  ?a a prov:Activity ; provio:api ?api0 .\n"
       "  OPTIONAL { ?a provio:count ?c0 } OPTIONAL { ?a provio:bytes ?b0 }\n"
       "  OPTIONAL { ?a provio:elapsed ?el0 } OPTIONAL { ?a provio:nested ?n0 }\n";
  if (thread) q += "  OPTIONAL { ?a prov:wasAssociatedWith ?t0 }\n";
  if (op) q += op_pattern();
  if (entity) q += entity_pattern();
  if (entity) q += "  OPTIONAL { ?eg prov:wasGeneratedBy ?a } OPTIONAL { ?a prov:used ?eu }\n";
  q += " } FILTER(STRSTARTS(STR(?g), \"" + std::string(sparql::kGraphPrefix) + "\")) } GROUP BY ?a }\n";
  q += " BIND(COALESCE(xsd:integer(STR(?c1)), 0) AS ?c)\n"
       " BIND(COALESCE(xsd:integer(STR(?b1)), 0) AS ?b)\n"
       // Through xsd:decimal, exact: Oxigraph casts ROUND(4.254e-05 * 1e9) to 42539.
       " BIND(COALESCE(xsd:integer(ROUND(xsd:decimal(xsd:double(STR(?el1))) * 1000000000)), 0) AS ?ns)\n"
       // Virtuoso keeps xsd:boolean as a number: "true" may come back as 1.
       " BIND(IF(BOUND(?n1) && STR(?n1) IN (\"true\", \"1\"), 1, 0) AS ?nested)\n";
  if (entity) q += " BIND(COALESCE(?e1, ?e2, ?e3) AS ?e)\n";
  if (file) q += file_of_entity();
  if (!grouping.in_file.empty()) q += " FILTER(?f = " + sparql::iri_ref(grouping.in_file) + ")\n";
  q += "} GROUP BY " + outer_keys + "\n";
  return q;
}

}  // namespace

bool fetch_activity_groups(sparql::Server& server, const ActivityGrouping& grouping,
                           std::vector<ActivityGroup>& out, std::string& error) {
  sparql::Results r;
  if (!server.select(activity_groups_query(grouping), r, error)) return false;
  int op = r.column("op"), api = r.column("api"), e = r.column("e"), f = r.column("f"), t = r.column("t");
  int nested = r.column("nested"), calls = r.column("calls"), bytes = r.column("bytes");
  int elapsed = r.column("elapsed"), n = r.column("n");
  const int least[3] = {r.column("c_min"), r.column("b_min"), r.column("ns_min")};
  const int most[3] = {r.column("c_max"), r.column("b_max"), r.column("ns_max")};
  out.clear();
  for (const auto& row : r.rows) {
    ActivityGroup g;
    g.op = text(row, op);
    if (g.op.rfind(std::string(rdf::kProvio), 0) == 0) g.op.erase(0, rdf::kProvio.size());
    g.api = text(row, api);
    g.entity = text(row, e);
    g.file = text(row, f);
    g.thread = text(row, t);
    g.nested = number(row, nested) == 1;
    g.count = number(row, calls);
    g.bytes = number(row, bytes);
    g.elapsed_ns = number(row, elapsed);
    g.activities = number(row, n);
    for (int i = 0; i < 3; ++i) {
      g.least[i] = number(row, least[i]);
      g.most[i] = number(row, most[i]);
    }
    out.push_back(std::move(g));
  }
  return true;
}

}  // namespace provio::query
