// GraphIndex (tools/graph/graph_index.h): every pattern it answers, checked against a plain scan
// of the graph's triples, on a graph with repeated subjects, predicates and objects.
#include "graph/graph_index.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <string>
#include <vector>

namespace provio::rdf {
namespace {

std::vector<TermId> sorted_ids(GraphIndex::Arcs arcs) {
  std::vector<TermId> out;
  for (const auto& a : arcs) out.push_back(a.t);
  std::sort(out.begin(), out.end());
  return out;
}

TEST(GraphIndex, AnswersAsAScanDoes) {
  Graph g;
  for (int i = 0; i < 200; ++i) {
    std::string s = "<urn:s" + std::to_string(i % 17) + ">";
    std::string p = "<urn:p" + std::to_string(i % 3) + ">";
    std::string o = i % 5 ? "<urn:o" + std::to_string(i % 11) + ">" : "\"" + std::to_string(i) + "\"";
    g.add(s, p, o);
  }
  GraphIndex index(g);
  EXPECT_EQ(index.size(), g.size());
  for (TermId a = 0; a < g.terms.size(); ++a) {
    bool subject = false, object = false;
    for (const Triple& t : g.triples()) subject |= t.s == a, object |= t.o == a;
    EXPECT_EQ(index.is_subject(a), subject) << g.terms[a];
    EXPECT_EQ(index.is_object(a), object) << g.terms[a];
    for (TermId b = 0; b < g.terms.size(); ++b) {
      std::vector<TermId> objects, subjects;
      for (const Triple& t : g.triples()) {
        if (t.s == a && t.p == b) objects.push_back(t.o);
        if (t.p == a && t.o == b) subjects.push_back(t.s);
      }
      std::sort(objects.begin(), objects.end());
      std::sort(subjects.begin(), subjects.end());
      EXPECT_EQ(sorted_ids(index.objects(a, b)), objects);
      EXPECT_EQ(sorted_ids(index.subjects(a, b)), subjects);
    }
  }
}

TEST(GraphIndex, UnknownTermsFindNothing) {
  Graph g;
  g.add("<urn:s>", "<urn:p>", "<urn:o>");
  GraphIndex index(g);
  EXPECT_EQ(index.iri("urn:s"), g.terms.find("<urn:s>"));
  EXPECT_EQ(index.iri("urn:nosuch"), kNoTerm);
  EXPECT_TRUE(index.objects(kNoTerm, index.iri("urn:p")).empty());
  EXPECT_TRUE(index.objects(index.iri("urn:s"), kNoTerm).empty());
  EXPECT_TRUE(index.subjects(kNoTerm, index.iri("urn:o")).empty());
  EXPECT_FALSE(index.is_subject(kNoTerm));
  EXPECT_FALSE(index.is_object(kNoTerm));
}

}  // namespace
}  // namespace provio::rdf
