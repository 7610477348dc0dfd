// SPARQL XML results reader (see sparql_results.h). The format is a fixed shape of a few
// elements, so a scanner over tags and character data does: no general XML parser, no DTDs, no
// namespaces beyond ignoring prefixes the format does not use.
#include "sparql/sparql_results.h"

#include <raptor2.h>

#include <cstdint>
#include <cstdlib>

#include "graph/terms.h"

namespace provio::sparql {
namespace {

struct Tag {
  std::string name;  // without '/', e.g. "binding"
  bool closing = false, empty = false;
  std::string_view attrs;
  std::string attr(std::string_view key) const;
};

// Decodes character data: the five named entities and numeric references.
bool unescape(std::string_view in, std::string& out) {
  out.clear();
  for (std::size_t i = 0; i < in.size(); ++i) {
    if (in[i] != '&') {
      out += in[i];
      continue;
    }
    std::size_t semi = in.find(';', i);
    if (semi == std::string_view::npos) return false;
    std::string_view e = in.substr(i + 1, semi - i - 1);
    if (e == "lt") {
      out += '<';
    } else if (e == "gt") {
      out += '>';
    } else if (e == "amp") {
      out += '&';
    } else if (e == "quot") {
      out += '"';
    } else if (e == "apos") {
      out += '\'';
    } else if (e.size() > 1 && e[0] == '#') {
      bool hex = e[1] == 'x' || e[1] == 'X';
      std::string digits(e.substr(hex ? 2 : 1));
      char* end = nullptr;
      unsigned long cp = std::strtoul(digits.c_str(), &end, hex ? 16 : 10);
      if (digits.empty() || *end || cp > 0x10FFFF) return false;
      rdf::append_utf8(out, static_cast<std::uint32_t>(cp));
    } else {
      return false;
    }
    i = semi;
  }
  return true;
}

std::string Tag::attr(std::string_view key) const {
  std::size_t i = 0;
  while ((i = attrs.find(key, i)) != std::string_view::npos) {
    bool starts = i == 0 || attrs[i - 1] == ' ' || attrs[i - 1] == '\t' || attrs[i - 1] == '\n';
    std::size_t j = i + key.size();
    while (j < attrs.size() && attrs[j] == ' ') ++j;
    if (starts && j < attrs.size() && attrs[j] == '=') {
      ++j;
      while (j < attrs.size() && attrs[j] == ' ') ++j;
      if (j < attrs.size() && (attrs[j] == '"' || attrs[j] == '\'')) {
        std::size_t close = attrs.find(attrs[j], j + 1);
        if (close == std::string_view::npos) return "";
        std::string v;
        return unescape(attrs.substr(j + 1, close - j - 1), v) ? v : "";
      }
    }
    i = j;
  }
  return "";
}

class Scanner {
 public:
  explicit Scanner(std::string_view s) : s_(s) {}

  bool fail(const std::string& what) {
    if (error_.empty()) error_ = "offset " + std::to_string(i_) + ": " + what;
    return false;
  }
  const std::string& error() const { return error_; }

  // The next tag, skipping character data, comments, the XML declaration and processing
  // instructions. False at the end of the input.
  bool next(Tag& t, std::string_view* text_before = nullptr) {
    for (;;) {
      std::size_t lt = s_.find('<', i_);
      if (text_before) *text_before = s_.substr(i_, lt == std::string_view::npos ? s_.size() - i_ : lt - i_);
      if (lt == std::string_view::npos) return false;
      if (s_.compare(lt, 4, "<!--") == 0) {
        std::size_t end = s_.find("-->", lt);
        if (end == std::string_view::npos) return fail("unterminated comment");
        i_ = end + 3;
        continue;
      }
      std::size_t gt = s_.find('>', lt);
      if (gt == std::string_view::npos) return fail("unterminated tag");
      i_ = gt + 1;
      if (s_[lt + 1] == '?' || s_[lt + 1] == '!') continue;
      std::string_view inner = s_.substr(lt + 1, gt - lt - 1);
      t = Tag{};
      if (!inner.empty() && inner[0] == '/') {
        t.closing = true;
        inner.remove_prefix(1);
      }
      if (!inner.empty() && inner.back() == '/') {
        t.empty = true;
        inner.remove_suffix(1);
      }
      std::size_t sp = inner.find_first_of(" \t\r\n");
      t.name = std::string(inner.substr(0, sp));
      if (auto colon = t.name.find(':'); colon != std::string::npos) t.name = t.name.substr(colon + 1);
      t.attrs = sp == std::string_view::npos ? std::string_view() : inner.substr(sp + 1);
      return true;
    }
  }

  // Character data up to the closing tag of `name`.
  bool text_until_close(const std::string& name, std::string& out) {
    Tag t;
    std::string_view raw;
    if (!next(t, &raw) || !t.closing || t.name != name) return fail("expected </" + name + ">");
    if (!unescape(raw, out)) return fail("bad character reference");
    return true;
  }

 private:
  std::string_view s_;
  std::size_t i_ = 0;
  std::string error_;
};

bool parse(Scanner& sc, Results& out) {
  Tag t;
  Row* row = nullptr;
  int column = -1;
  bool seen_sparql = false;
  while (sc.next(t)) {
    if (t.closing) {
      if (t.name == "result") row = nullptr;
      if (t.name == "binding") column = -1;
      continue;
    }
    if (t.name == "sparql") {
      seen_sparql = true;
    } else if (t.name == "variable") {
      out.vars.push_back(t.attr("name"));
    } else if (t.name == "result") {
      row = &out.rows.emplace_back(out.vars.size());
    } else if (t.name == "binding") {
      if (!row) return sc.fail("<binding> outside <result>");
      column = out.column(t.attr("name"));
      if (column < 0) return sc.fail("binding of an undeclared variable '" + t.attr("name") + "'");
    } else if (t.name == "uri" || t.name == "bnode" || t.name == "literal") {
      if (!row || column < 0) return sc.fail("<" + t.name + "> outside <binding>");
      Term term;
      term.kind = t.name == "uri"     ? Term::Kind::kIri
                  : t.name == "bnode" ? Term::Kind::kBlank
                                      : Term::Kind::kLiteral;
      term.datatype = t.attr("datatype");
      term.lang = t.attr("xml:lang");
      if (!t.empty && !sc.text_until_close(t.name, term.value)) return false;
      (*row)[static_cast<std::size_t>(column)] = std::move(term);
    } else if (t.name == "boolean") {
      std::string v;
      if (!sc.text_until_close("boolean", v)) return false;
      out.is_boolean = true;
      out.boolean = v == "true" || v == "1";
    }
  }
  if (!sc.error().empty()) return false;
  return seen_sparql || sc.fail("not a SPARQL XML results document");
}

Term raptor_term_of(const raptor_term* t) {
  Term out;
  auto str = [](const unsigned char* s) { return std::string(reinterpret_cast<const char*>(s)); };
  if (t->type == RAPTOR_TERM_TYPE_URI) {
    out.value = str(raptor_uri_as_string(t->value.uri));
  } else if (t->type == RAPTOR_TERM_TYPE_BLANK) {
    out.kind = Term::Kind::kBlank;
    out.value = str(t->value.blank.string);
  } else {
    out.kind = Term::Kind::kLiteral;
    out.value.assign(reinterpret_cast<const char*>(t->value.literal.string), t->value.literal.string_len);
    if (t->value.literal.datatype) out.datatype = str(raptor_uri_as_string(t->value.literal.datatype));
    if (t->value.literal.language) out.lang = str(t->value.literal.language);
  }
  return out;
}

}  // namespace

bool parse_ntriples(std::string_view body, std::vector<Triple>& out, std::string& error) {
  struct Ctx {
    std::vector<Triple>* out;
    std::string error;
  } ctx{&out, {}};
  raptor_world* world = raptor_new_world();
  raptor_parser* parser = world ? raptor_new_parser(world, "ntriples") : nullptr;
  bool ok = parser != nullptr;
  if (ok) {
    raptor_parser_set_statement_handler(parser, &ctx, [](void* data, raptor_statement* s) {
      static_cast<Ctx*>(data)->out->push_back(
          {raptor_term_of(s->subject), raptor_term_of(s->predicate), raptor_term_of(s->object)});
    });
    raptor_world_set_log_handler(world, &ctx, [](void* data, raptor_log_message* m) {
      auto* c = static_cast<Ctx*>(data);
      if (m->level >= RAPTOR_LOG_LEVEL_ERROR && c->error.empty())
        c->error = "line " + std::to_string(m->locator ? m->locator->line : 0) + ": " +
                   (m->text ? m->text : "error");
    });
    raptor_uri* base = raptor_new_uri(world, reinterpret_cast<const unsigned char*>("urn:provio:answer"));
    ok = raptor_parser_parse_start(parser, base) == 0 &&
         raptor_parser_parse_chunk(parser, reinterpret_cast<const unsigned char*>(body.data()), body.size(),
                                   1) == 0 &&
         ctx.error.empty();
    raptor_free_uri(base);
    raptor_free_parser(parser);
  }
  if (world) raptor_free_world(world);
  if (!ok)
    error = "malformed N-Triples answer: " + (ctx.error.empty() ? std::string("cannot parse") : ctx.error);
  return ok;
}

int Results::column(std::string_view var) const {
  for (std::size_t i = 0; i < vars.size(); ++i)
    if (vars[i] == var) return static_cast<int>(i);
  return -1;
}

bool parse_xml_results(std::string_view body, Results& out, std::string& error) {
  out = Results{};
  Scanner sc(body);
  if (parse(sc, out)) return true;
  error = "malformed SPARQL XML results: " + sc.error();
  return false;
}

}  // namespace provio::sparql
