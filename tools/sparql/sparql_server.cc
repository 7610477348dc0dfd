// SPARQL 1.1 Protocol, Update and Graph Store Protocol requests (see sparql_server.h).
#include "sparql/sparql_server.h"

#include <algorithm>
#include <cctype>
#include <charconv>
#include <cmath>
#include <cstdlib>
#include <map>

#include "graph/vocabulary.h"
#include "sparql/long_iri.h"

namespace provio::sparql {
namespace {

bool ends_with(const std::string& s, const std::string& suffix) {
  return s.size() >= suffix.size() && s.compare(s.size() - suffix.size(), suffix.size(), suffix) == 0;
}

// "http://h:8890/sparql" → "/sparql"; the path of a URL without its query string.
std::string path_of(const std::string& url) {
  auto scheme = url.find("://");
  auto slash = url.find('/', scheme == std::string::npos ? 0 : scheme + 3);
  if (slash == std::string::npos) return "";
  return url.substr(slash, url.find('?', slash) - slash);
}

struct Convention {
  const char* store;   // suffix of the Graph Store Protocol URL
  const char* query;   // suffix of the query URL
  const char* update;  // suffix of the update URL
  bool root;           // Virtuoso: the suffix is the whole path
};
// Fuseki's query service is /DS/query or /DS/sparql; /DS/query is tried first as the derived one.
constexpr Convention kConventions[] = {
    {"/sparql-graph-crud-auth", "/sparql-auth", "/sparql-auth", true},
    {"/sparql-graph-crud", "/sparql", "/sparql", true},
    {"/rdf-graphs/service", "", "/statements", false},
    {"/data", "/query", "/update", false},
    {"/data", "/sparql", "/update", false},
};

const std::string kXsdDouble = rdf::xsd("double");

// Virtuoso's STR() of a double has 16 digits ("0.8100000000000001" for 0.81): the shortest form
// that reads back as the same double is the one a writer of that value would have chosen.
std::string shortest_double(const std::string& text) {
  char* end = nullptr;
  double v = std::strtod(text.c_str(), &end);
  if (text.empty() || *end) return text;
  char buf[64];
  auto r = std::to_chars(buf, buf + sizeof buf, v);
  return r.ec == std::errc() ? std::string(buf, r.ptr) : text;
}

const std::string kXsdDateTime = rdf::xsd("dateTime");

// Virtuoso keeps xsd:dateTime as a timestamp and drops trailing zeros of the fraction
// ("…:01Z" for "…:01.000000Z"). provio writes UTC with microseconds, six digits: a UTC time comes
// back in that form (the same instant either way).
std::string microsecond_datetime(const std::string& text) {
  // YYYY-MM-DDThh:mm:ss[.f]Z
  if (text.size() < 20 || text[10] != 'T' || text.back() != 'Z') return text;
  std::string frac;
  if (text.size() > 20) {
    if (text[19] != '.') return text;
    frac = text.substr(20, text.size() - 21);
  }
  if (frac.size() > 6 || frac.find_first_not_of("0123456789") != std::string::npos) return text;
  return text.substr(0, 19) + "." + frac + std::string(6 - frac.size(), '0') + "Z";
}

}  // namespace

bool complete_endpoints(Endpoints& e, std::string& error) {
  // "https://user:password@host/…" would put a password on the command line, in the shell's
  // history and in every message naming the URL: refused, without repeating it.
  for (const std::string* u : {&e.query, &e.update, &e.store}) {
    auto authority = u->find("://");
    auto end = u->find_first_of("/?#", authority == std::string::npos ? 0 : authority + 3);
    if (authority != std::string::npos &&
        u->substr(authority + 3, end - authority - 3).find('@') != std::string::npos) {
      error = "a URL carries credentials (user@host): give them in a credentials file (--credentials)";
      return false;
    }
  }
  for (const Convention& c : kConventions) {
    std::string base;
    auto match = [&](const std::string& url, const char* suffix) {
      if (url.empty() || !ends_with(url, suffix)) return false;
      if (c.root && path_of(url) != suffix) return false;
      base = url.substr(0, url.size() - std::string(suffix).size());
      return !(std::string(suffix).empty() && url.find("/repositories/") == std::string::npos);
    };
    if (match(e.store, c.store) || match(e.query, c.query) || match(e.update, c.update)) {
      if (e.store.empty()) e.store = base + c.store;
      if (e.query.empty()) e.query = base + c.query;
      if (e.update.empty()) e.update = base + c.update;
      break;
    }
  }
  // A single SPARQL URL that answers queries and updates alike (Virtuoso's /sparql-auth, RDF4J).
  if (e.query.empty()) e.query = e.update;
  if (e.update.empty()) e.update = e.query;
  if (e.query.empty()) {
    error = "cannot tell the server's SPARQL query URL from " + e.store + "; give --query URL";
    return false;
  }
  for (const std::string* u : {&e.query, &e.update, &e.store}) {
    if (!u->empty() && u->rfind("http://", 0) != 0 && u->rfind("https://", 0) != 0) {
      error = *u + ": not an http:// or https:// URL";
      return false;
    }
  }
  return true;
}

std::string iri_ref(const std::string& full) {
  static const char* hex = "0123456789ABCDEF";
  std::string out = "<";
  for (unsigned char c : server_iri(full)) {
    if (c <= 0x20 || std::string_view("<>\"{}|^`\\").find(static_cast<char>(c)) != std::string_view::npos) {
      out += '%';
      out += hex[c >> 4];
      out += hex[c & 15];
    } else {
      out += static_cast<char>(c);
    }
  }
  return out + ">";
}

std::string in_job_graphs(const std::string& pattern, const std::string& graph) {
  return "GRAPH " + graph + " { " + pattern + " } FILTER(STRSTARTS(STR(" + graph + "), \"" + kGraphPrefix +
         "\"))";
}

bool Server::query(const std::string& text, net::Response& out, std::string& error,
                   const std::vector<std::string>& default_graphs) {
  net::Request r;
  r.method = "POST";
  r.url = e_.query;
  r.content_type = "application/x-www-form-urlencoded";
  // Asked for by form: some servers (Virtuoso) answer CONSTRUCT with a results table if allowed.
  std::string f = form(text);
  r.accept = f == "CONSTRUCT" || f == "DESCRIBE" ? "application/n-triples, text/plain;q=0.5"
                                                 : "application/sparql-results+xml";
  r.body = "query=" + net::percent_encode(text);
  for (const auto& g : default_graphs) r.body += "&default-graph-uri=" + net::percent_encode(g);
  return http_.send(r, out, error);
}

std::string Server::form(const std::string& query) {
  std::size_t i = 0;
  auto word = [&] {
    while (i < query.size()) {
      if (std::isspace(static_cast<unsigned char>(query[i]))) {
        ++i;
      } else if (query[i] == '#') {
        i = query.find('\n', i);
        if (i == std::string::npos) i = query.size();
      } else {
        break;
      }
    }
    std::size_t b = i;
    while (i < query.size() && std::isalpha(static_cast<unsigned char>(query[i]))) ++i;
    std::string w = query.substr(b, i - b);
    for (char& c : w) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
    return w;
  };
  for (;;) {
    std::string w = word();
    if (w != "PREFIX" && w != "BASE") return w;
    std::size_t close = query.find('>', i);  // past "name: <iri>" or "<iri>"
    if (close == std::string::npos) return "";
    i = close + 1;
  }
}

void Server::read_ask(const std::string& query, Results& r) {
  if (r.is_boolean || r.vars.size() != 1 || r.rows.size() > 1 || form(query) != "ASK") return;
  r.is_boolean = true;
  r.boolean =
      !r.rows.empty() && r.rows[0][0] && (r.rows[0][0]->value == "1" || r.rows[0][0]->value == "true");
}

bool Server::select_as_held(const std::string& text, Results& out, std::string& error,
                            const std::vector<std::string>& default_graphs) {
  net::Response resp;
  if (!query(text, resp, error, default_graphs)) return false;
  if (!parse_xml_results(resp.body, out, error)) {
    error = e_.query + ": " + error;
    return false;
  }
  read_ask(text, out);
  return true;
}

bool Server::select(const std::string& text, Results& out, std::string& error,
                    const std::vector<std::string>& default_graphs) {
  if (!select_as_held(text, out, error, default_graphs)) return false;
  std::vector<Term*> terms;
  for (Row& row : out.rows)
    for (auto& t : row)
      if (t) terms.push_back(&*t);
  return restore_long_iris(terms, error);
}

void Server::learn_full_iri(const std::string& short_iri, const std::string& full) {
  // Anybody who may write a graph may write a fullIri triple: only the IRI whose digest the short
  // one is can be its full IRI.
  if (server_iri(full) == short_iri) full_iris_[short_iri] = full;
}

bool Server::restore_long_iris(const std::vector<Term*>& terms, std::string& error) {
  std::vector<std::string> unknown;
  for (const Term* t : terms)
    if (t->kind == Term::Kind::kIri && is_short_iri(t->value) && !full_iris_.count(t->value))
      unknown.push_back(t->value);
  std::sort(unknown.begin(), unknown.end());
  unknown.erase(std::unique(unknown.begin(), unknown.end()), unknown.end());
  constexpr std::size_t kBatch = 400;
  for (std::size_t b = 0; b < unknown.size(); b += kBatch) {
    std::string values;
    for (std::size_t i = b; i < std::min(unknown.size(), b + kBatch); ++i) values += "<" + unknown[i] + "> ";
    Results r;
    if (!select_as_held("SELECT ?s ?full WHERE { VALUES ?s { " + values + "} GRAPH ?g { ?s <" +
                            full_iri_predicate() + "> ?full } }",
                        r, error))
      return false;
    for (const Row& row : r.rows)
      if (row.size() == 2 && row[0] && row[1]) learn_full_iri(row[0]->value, row[1]->value);
  }
  for (Term* t : terms) {
    if (t->kind != Term::Kind::kIri || !is_short_iri(t->value)) continue;
    auto it = full_iris_.find(t->value);
    if (it != full_iris_.end()) t->value = it->second;
  }
  return true;
}

bool Server::update(const std::string& text, std::string& error) {
  net::Request r;
  r.method = "POST";
  r.url = e_.update;
  r.content_type = "application/x-www-form-urlencoded";
  r.body = "update=" + net::percent_encode(text);
  net::Response resp;
  return http_.send(r, resp, error);
}

bool Server::send_graph(const char* method, const std::string& graph, const std::string& body,
                        std::string& error) {
  if (e_.store.empty()) {
    error = "no Graph Store Protocol URL";
    return false;
  }
  net::Request r;
  r.method = method;
  std::string held = net::percent_encode(server_iri(graph));
  r.url = e_.store + (e_.store.find('?') == std::string::npos ? "?" : "&") + "graph=" + held;
  // Virtuoso names the parameter graph-uri (its pre-standard form); sending both is harmless.
  if (e_.store.find("/sparql-graph-crud") != std::string::npos) r.url += "&graph-uri=" + held;
  r.content_type = "text/turtle";
  r.body = body;
  net::Response resp;
  return http_.send(r, resp, error);
}

bool Server::put_graph(const std::string& graph, const std::string& turtle, std::string& error) {
  if (by_update_)
    return update("CLEAR SILENT GRAPH " + iri_ref(graph) + " ;\nINSERT DATA { GRAPH " + iri_ref(graph) +
                      " {\n" + turtle + "} }",
                  error);
  return send_graph("PUT", graph, turtle, error);
}

bool Server::post_graph(const std::string& graph, const std::string& turtle, std::string& error) {
  if (by_update_) return update("INSERT DATA { GRAPH " + iri_ref(graph) + " {\n" + turtle + "} }", error);
  return send_graph("POST", graph, turtle, error);
}

bool Server::triples(const std::string& where, std::vector<Triple>& out, std::string& error) {
  net::Response resp;
  std::vector<Triple> ts;
  if (!query("CONSTRUCT { ?s ?p ?o } WHERE { " + where + " }", resp, error) ||
      !parse_ntriples(resp.body, ts, error))
    return false;
  // The exact doubles, by (subject, predicate); a server's short form picks among them by value.
  std::map<std::pair<std::string, std::string>, std::vector<std::string>> exact;
  if (std::any_of(ts.begin(), ts.end(), [](const Triple& t) { return t[2].datatype == kXsdDouble; })) {
    Results r;
    if (!select_as_held("SELECT ?s ?p (STR(?o) AS ?lex) WHERE { " + where + " FILTER(DATATYPE(?o) = <" +
                            kXsdDouble + ">) }",
                        r, error))
      return false;
    for (const auto& row : r.rows)
      if (row.size() == 3 && row[0] && row[1] && row[2])
        exact[{row[0]->value, row[1]->value}].push_back(row[2]->value);
  }
  // The short IRIs' fullIri triples are the server's business (long_iri.h): read, then dropped.
  const std::string full_iri = full_iri_predicate();
  auto ties_short_iri = [&](const Triple& t) { return t[1].value == full_iri && is_short_iri(t[0].value); };
  for (const Triple& t : ts)
    if (ties_short_iri(t)) learn_full_iri(t[0].value, t[2].value);
  ts.erase(std::remove_if(ts.begin(), ts.end(), ties_short_iri), ts.end());
  std::size_t first = out.size();
  out.reserve(out.size() + ts.size());
  for (Triple& t : ts) {
    if (t[2].kind == Term::Kind::kLiteral && t[2].datatype == kXsdDouble) {
      auto it = exact.find({t[0].value, t[1].value});
      if (it != exact.end()) {
        double shown = std::strtod(t[2].value.c_str(), nullptr);
        const std::string* best = &it->second.front();
        for (const auto& lex : it->second)
          if (std::abs(std::strtod(lex.c_str(), nullptr) - shown) <
              std::abs(std::strtod(best->c_str(), nullptr) - shown))
            best = &lex;
        t[2].value = *best;
      }
      t[2].value = shortest_double(t[2].value);
    }
    if (t[2].kind == Term::Kind::kLiteral && t[2].datatype == kXsdDateTime)
      t[2].value = microsecond_datetime(t[2].value);
    out.push_back(std::move(t));
  }
  std::vector<Term*> terms;
  for (std::size_t i = first; i < out.size(); ++i)
    for (Term& t : out[i]) terms.push_back(&t);
  return restore_long_iris(terms, error);
}

bool Server::job_graphs(std::vector<std::string>& out, std::string& error) {
  Results r;
  std::string q =
      std::string("SELECT DISTINCT ?g WHERE { GRAPH ?g { ?s ?p ?o } FILTER(STRSTARTS(STR(?g), \"") +
      kGraphPrefix + "\")) }";
  if (!select(q, r, error)) return false;
  out.clear();
  for (auto& row : r.rows)
    if (!row.empty() && row[0]) out.push_back(row[0]->value);
  std::sort(out.begin(), out.end());
  return true;
}

}  // namespace provio::sparql
