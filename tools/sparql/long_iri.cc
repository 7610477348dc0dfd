// Over-long IRIs on a SPARQL server (see long_iri.h).
#include "sparql/long_iri.h"

#include <nettle/sha2.h>

#include "graph/terms.h"
#include "graph/vocabulary.h"

namespace provio::sparql {
namespace {

// SHA-256, not a shorter hash: two paths sharing a short IRI would merge two files' provenance,
// and a user naming files could aim at a weak hash.
std::string sha256_hex(std::string_view text) {
  sha256_ctx ctx;
  sha256_init(&ctx);
  sha256_update(&ctx, text.size(), reinterpret_cast<const std::uint8_t*>(text.data()));
  std::uint8_t digest[SHA256_DIGEST_SIZE];
  sha256_digest(&ctx, sizeof digest, digest);
  static const char* hex = "0123456789abcdef";
  std::string out;
  for (std::uint8_t b : digest) {
    out += hex[b >> 4];
    out += hex[b & 15];
  }
  return out;
}

}  // namespace

std::string server_iri(const std::string& iri) {
  if (iri.size() <= kLongIriBytes) return iri;
  return std::string(kShortIriPrefix) + sha256_hex(iri);
}

bool is_short_iri(std::string_view iri) {
  return iri.substr(0, kShortIriPrefix.size()) == kShortIriPrefix;
}

std::string full_iri_predicate() {
  return rdf::provio("fullIri");
}

rdf::Graph server_form(rdf::Graph&& g) {
  bool any = false;
  for (std::size_t i = 0; i < g.terms.size() && !any; ++i)
    any = rdf::iri_body(g.terms[static_cast<rdf::TermId>(i)]).size() > kLongIriBytes;
  if (!any) return std::move(g);
  rdf::Graph out;
  std::string full_iri = "<" + full_iri_predicate() + ">";
  auto term = [&](rdf::TermId id) {
    std::string_view t = g.terms[id];
    std::string_view body = rdf::iri_body(t);
    if (body.size() <= kLongIriBytes) return std::string(t);
    std::string shortened = "<" + server_iri(std::string(body)) + ">", literal;
    rdf::append_literal(literal, body, "", "");
    out.add(shortened, full_iri, literal);
    return shortened;
  };
  for (const rdf::Triple& t : g.triples()) out.add(term(t.s), term(t.p), term(t.o));
  return out;
}

}  // namespace provio::sparql
