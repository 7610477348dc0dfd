// The SPARQL client's pure parts: XML results, N-Triples answers, query forms, URL derivation.
#include <gtest/gtest.h>

#include "net/http.h"
#include "sparql/long_iri.h"
#include "sparql/sparql_results.h"
#include "sparql/sparql_server.h"

namespace ps = provio::sparql;

TEST(SparqlResults, ReadsEveryKindOfTerm) {
  const char* xml = R"(<?xml version="1.0"?>
<sparql xmlns="http://www.w3.org/2005/sparql-results#">
 <head><variable name="s"/><variable name="o"/><variable name="x"/></head>
 <results>
  <result><binding name="s"><uri>file:///a%20b.h5#/g</uri></binding>
          <binding name="o"><literal datatype="http://www.w3.org/2001/XMLSchema#double">0.5</literal></binding></result>
  <result><binding name="s"><bnode>b0</bnode></binding>
          <binding name="o"><literal xml:lang="en">a &lt;b&gt; &amp; &quot;c&quot; &#233;&#x1F600;</literal></binding>
          <binding name="x"><literal></literal></binding></result>
  <!-- a comment -->
 </results>
</sparql>)";
  ps::Results r;
  std::string error;
  ASSERT_TRUE(ps::parse_xml_results(xml, r, error)) << error;
  ASSERT_EQ(r.vars, (std::vector<std::string>{"s", "o", "x"}));
  ASSERT_EQ(r.rows.size(), 2u);
  EXPECT_EQ(r.rows[0][0]->kind, ps::Term::Kind::kIri);
  EXPECT_EQ(r.rows[0][0]->value, "file:///a%20b.h5#/g");
  EXPECT_EQ(r.rows[0][1]->datatype, "http://www.w3.org/2001/XMLSchema#double");
  EXPECT_FALSE(r.rows[0][2].has_value());
  EXPECT_EQ(r.rows[1][0]->kind, ps::Term::Kind::kBlank);
  EXPECT_EQ(r.rows[1][1]->value, "a <b> & \"c\" \xC3\xA9\xF0\x9F\x98\x80");
  EXPECT_EQ(r.rows[1][1]->lang, "en");
  EXPECT_EQ(r.rows[1][2]->value, "");
}

TEST(SparqlResults, ReadsBooleans) {
  ps::Results r;
  std::string error;
  ASSERT_TRUE(ps::parse_xml_results("<sparql><head/><boolean>true</boolean></sparql>", r, error));
  EXPECT_TRUE(r.is_boolean && r.boolean);
}

TEST(SparqlResults, VirtuosoAskTableIsABoolean) {
  ps::Results r;
  std::string error;
  ASSERT_TRUE(ps::parse_xml_results(
      "<sparql><head><variable name='__ASK_RETVAL'/></head><results></results></sparql>", r, error));
  ps::Server::read_ask("PREFIX p: <urn:x> ASK { ?s ?p ?o }", r);
  EXPECT_TRUE(r.is_boolean);
  EXPECT_FALSE(r.boolean);
}

TEST(SparqlResults, RefusesMalformedAnswers) {
  ps::Results r;
  std::string error;
  EXPECT_FALSE(ps::parse_xml_results("<html><body>Error</body></html>", r, error));
  EXPECT_NE(error.find("not a SPARQL XML results document"), std::string::npos) << error;
  EXPECT_FALSE(ps::parse_xml_results(
      "<sparql><head><variable name='s'/></head><results><result><binding name='s'><uri>x", r, error));
  EXPECT_FALSE(ps::parse_xml_results(
      "<sparql><head/><results><result><binding name='y'><uri>x</uri></binding></result></results></sparql>",
      r, error));
  EXPECT_NE(error.find("undeclared variable 'y'"), std::string::npos) << error;
  EXPECT_FALSE(ps::parse_xml_results("<sparql><results><result><binding name='s'><literal>&bogus;</literal>",
                                     r, error));
}

TEST(SparqlResults, ReadsNTriplesAnswers) {
  std::vector<ps::Triple> ts;
  std::string error;
  ASSERT_TRUE(
      ps::parse_ntriples("<urn:a>\t<urn:p>\t\"x\\ty\"^^<urn:dt> .\n_:b1 <urn:p> \"z\"@fr .\n", ts, error))
      << error;
  ASSERT_EQ(ts.size(), 2u);
  EXPECT_EQ(ts[0][2].value, "x\ty");
  EXPECT_EQ(ts[0][2].datatype, "urn:dt");
  EXPECT_EQ(ts[1][0].kind, ps::Term::Kind::kBlank);
  EXPECT_EQ(ts[1][2].lang, "fr");
  EXPECT_FALSE(ps::parse_ntriples("<urn:a> <urn:p> .\n", ts, error));
  EXPECT_NE(error.find("line 1"), std::string::npos) << error;
}

TEST(SparqlServer, TellsTheQueryForm) {
  EXPECT_EQ(ps::Server::form("SELECT * {}"), "SELECT");
  EXPECT_EQ(ps::Server::form("# c\nPREFIX a: <urn:a#>\n BASE <urn:b> construct { } where {}"), "CONSTRUCT");
  EXPECT_EQ(ps::Server::form("prefix x: <http://x/>\nASK {}"), "ASK");
}

TEST(SparqlServer, DerivesTheOtherUrls) {
  auto derive = [](ps::Endpoints e) {
    std::string error;
    EXPECT_TRUE(ps::complete_endpoints(e, error)) << error;
    return e;
  };
  ps::Endpoints v = derive({"", "", "http://h:8890/sparql-graph-crud-auth"});
  EXPECT_EQ(v.query, "http://h:8890/sparql-auth");
  EXPECT_EQ(v.update, "http://h:8890/sparql-auth");
  v = derive({"http://h:8890/sparql", "", ""});
  EXPECT_EQ(v.store, "http://h:8890/sparql-graph-crud");
  ps::Endpoints f = derive({"", "", "https://h:3030/ds/data"});
  EXPECT_EQ(f.query, "https://h:3030/ds/query");
  EXPECT_EQ(f.update, "https://h:3030/ds/update");
  f = derive({"https://h:3030/ds/sparql", "", ""});
  EXPECT_EQ(f.store, "https://h:3030/ds/data");
  ps::Endpoints g = derive({"", "", "http://h:7200/repositories/R/rdf-graphs/service"});
  EXPECT_EQ(g.query, "http://h:7200/repositories/R");
  EXPECT_EQ(g.update, "http://h:7200/repositories/R/statements");
  ps::Endpoints bad{"", "", "ftp://h/data"};
  std::string error;
  EXPECT_FALSE(ps::complete_endpoints(bad, error));
  ps::Endpoints unknown{"", "", "http://h/somewhere"};
  EXPECT_FALSE(ps::complete_endpoints(unknown, error));
  EXPECT_NE(error.find("--query"), std::string::npos) << error;
}

TEST(SparqlServer, SpellsIrisAndNames) {
  EXPECT_EQ(ps::iri_ref("urn:a b<c>"), "<urn:a%20b%3Cc%3E>");
  EXPECT_EQ(provio::net::percent_encode("slurm-41/a b~_."), "slurm-41%2Fa%20b~_.");
}

// An IRI longer than kLongIriBytes goes to the server as urn:provio:long-iri:sha256:HEX (the
// digest checked against Python's hashlib), with its full IRI beside it; shorter ones as they are.
TEST(LongIri, ShortFormIsTheSha256OfTheFullIri) {
  std::string longest = "file:///" + std::string(1016, 'a'), over = longest + "a";
  ASSERT_EQ(longest.size(), ps::kLongIriBytes);
  EXPECT_EQ(ps::server_iri(longest), longest);
  EXPECT_EQ(ps::server_iri(over),
            "urn:provio:long-iri:sha256:052b83ce708ad9e474046da546482490a38d1ff63eb1e60af7ad9adfc4e3507c");
  EXPECT_EQ(ps::iri_ref(over), "<" + ps::server_iri(over) + ">");

  provio::rdf::Graph g;
  g.add("<" + over + ">", "<http://www.w3.org/ns/provio#path>", "\"p\"");
  g.add("<urn:x>", "<http://www.w3.org/ns/prov#used>", "<" + over + ">");
  provio::rdf::Graph held = ps::server_form(std::move(g));
  std::string s = "<" + ps::server_iri(over) + ">";
  EXPECT_EQ(held.size(), 3u);
  for (const auto& [a, b, c] : {std::array<std::string, 3>{s, "<http://www.w3.org/ns/provio#path>", "\"p\""},
                                {"<urn:x>", "<http://www.w3.org/ns/prov#used>", s},
                                {s, "<http://www.w3.org/ns/provio#fullIri>", "\"" + over + "\""}}) {
    auto id = [&](const std::string& t) { return held.terms.find(t); };
    EXPECT_TRUE(held.contains({id(a), id(b), id(c)})) << a << " " << b << " " << c;
  }
}
