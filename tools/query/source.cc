// What every back end shares (see source.h).
#include "query/source.h"

#include <iterator>
#include <utility>

#include "graph/vocabulary.h"

namespace provio::query {
namespace {

std::string sparql_prefixes() {
  std::string text;
  for (const rdf::Prefix& p : rdf::kPrefixes)
    text.append("PREFIX ").append(p.name).append(": <").append(p.ns).append(">\n");
  return text;
}

}  // namespace

const std::string kSparqlPrefixes = sparql_prefixes();
const int kSparqlPrefixLines = static_cast<int>(std::size(rdf::kPrefixes));

std::string Source::value(std::string_view s, std::string_view p) const {
  auto v = objects(s, p);
  return v.empty() ? std::string() : std::move(v.front().value);
}

}  // namespace provio::query
