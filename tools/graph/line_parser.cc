// The fast line parser (see line_parser.h).
#include "graph/line_parser.h"

#include <algorithm>
#include <cctype>
#include <functional>
#include <utility>

#include "graph/reader.h"
#include "graph/terms.h"
#include "graph/vocabulary.h"

namespace provio::rdf {
namespace {

const std::string kXsdStringTerm = term(kXsd, "string");
const std::string kBooleanSuffix = "\"^^" + term(kXsd, "boolean");

void skip_space(const char*& p, const char* e) {
  while (p < e && (*p == ' ' || *p == '\t' || *p == '\r')) ++p;
}

// An absolute IRI starts with a scheme: a letter, then letters, digits, '+', '-' or '.', then ':'
// (RFC 3987). Anything else is relative, even with a ':' further on ("<;;file:///x>").
bool has_scheme(std::string_view iri) {
  std::size_t colon = iri.find(':');
  if (colon == 0 || colon == std::string_view::npos || !std::isalpha(static_cast<unsigned char>(iri[0])))
    return false;
  return std::all_of(iri.begin() + 1, iri.begin() + static_cast<long>(colon), [](char c) {
    return std::isalnum(static_cast<unsigned char>(c)) || c == '+' || c == '-' || c == '.';
  });
}

// The bytes an <iri> of the fast path may hold: not those N-Triples forbids there (nor '\\', whose
// escapes need unescaping), nor its closing '>'. A table: this loop runs over most of the input.
struct IriBytes {
  bool ok[256] = {};
  constexpr IriBytes() {
    for (int c = 0x21; c < 256; ++c) ok[c] = true;
    for (char c : {'<', '>', '"', '{', '}', '|', '^', '`', '\\'}) ok[static_cast<unsigned char>(c)] = false;
  }
};
constexpr IriBytes kIriBytes;

// <iri> with nothing that needs unescaping or resolving: the text is already canonical.
bool iriref(const char*& p, const char* e, std::string_view& out) {
  const char* q = p + 1;
  while (q < e && kIriBytes.ok[static_cast<unsigned char>(*q)]) ++q;
  if (q == e || *q != '>') return false;
  if (!has_scheme(std::string_view(p + 1, static_cast<std::size_t>(q - p - 1)))) {
    return false;  // relative IRIs need raptor's resolution
  }
  out = std::string_view(p, static_cast<std::size_t>(q + 1 - p));
  p = q + 1;
  return true;
}

bool iriref(const char*& p, const char* e, std::string& out) {
  std::string_view v;
  if (!iriref(p, e, v)) return false;
  out.assign(v.data(), v.size());
  return true;
}

bool name_char(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_' || c == '-';
}

bool alpha(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z');
}

// LANGTAG without its '@': [a-zA-Z]+ ('-' [a-zA-Z0-9]+)*. Advances p past it; false if none.
bool lang_tag(const char*& p, const char* e) {
  const char* start = p;
  while (p < e && alpha(*p)) ++p;
  if (p == start) return false;
  while (p + 1 < e && *p == '-' && (alpha(p[1]) || (p[1] >= '0' && p[1] <= '9'))) {
    ++p;
    while (p < e && (alpha(*p) || (*p >= '0' && *p <= '9'))) ++p;
  }
  return true;
}

bool unescape(std::string_view body, std::string& raw) {
  raw.clear();
  for (std::size_t i = 0; i < body.size(); ++i) {
    char c = body[i];
    if (c != '\\') {
      raw += c;
      continue;
    }
    if (++i >= body.size()) return false;
    switch (body[i]) {
      case 't': raw += '\t'; break;
      case 'b': raw += '\b'; break;
      case 'n': raw += '\n'; break;
      case 'r': raw += '\r'; break;
      case 'f': raw += '\f'; break;
      case '"': raw += '"'; break;
      case '\'': raw += '\''; break;
      case '\\': raw += '\\'; break;
      case 'u':
      case 'U': {
        std::size_t n = body[i] == 'u' ? 4 : 8;
        if (i + n >= body.size()) return false;
        std::uint32_t cp = 0;
        for (std::size_t k = 1; k <= n; ++k) {
          char h = body[i + k];
          int v = h >= '0' && h <= '9'   ? h - '0'
                  : h >= 'a' && h <= 'f' ? h - 'a' + 10
                  : h >= 'A' && h <= 'F' ? h - 'A' + 10
                                         : -1;
          if (v < 0) return false;
          cp = cp << 4 | static_cast<std::uint32_t>(v);
        }
        if (cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF)) return false;
        append_utf8(raw, cp);
        i += n;
        break;
      }
      default: return false;
    }
  }
  return true;
}

}  // namespace

LineParser::LineParser(Terms& terms, std::string blank_prefix)
    : terms_(terms), blank_prefix_(std::move(blank_prefix)), tokens_(kTokenCache) {}

LineParser::Line LineParser::parse(std::string_view text) {
  const char* p = text.data();
  const char* e = p + text.size();
  skip_space(p, e);
  if (p == e || *p == '#') return Line::kEmpty;
  if (*p == '@') return prefix(p, e) ? Line::kPrefix : Line::kOther;
  return block(p, e) ? Line::kTriples : Line::kOther;
}

// "@prefix name: <iri> ."
bool LineParser::prefix(const char*& p, const char* e) {
  std::string_view rest(p, static_cast<std::size_t>(e - p));
  if (rest.substr(0, 8) != "@prefix ") return false;
  p += 8;
  skip_space(p, e);
  const char* name = p;
  while (p < e && *p != ':' && *p != ' ') ++p;
  if (p == e || *p != ':') return false;
  std::string key(name, static_cast<std::size_t>(p - name));
  ++p;
  skip_space(p, e);
  std::string iri;
  if (!iriref(p, e, iri) || !end(p, e)) return false;
  std::string ns(iri.substr(1, iri.size() - 2));
  auto it = std::find_if(prefixes_.begin(), prefixes_.end(), [&](auto& kv) { return kv.first == key; });
  if (it != prefixes_.end())
    it->second = ns;
  else
    prefixes_.emplace_back(key, ns);
  for (auto& t : tokens_) t = {};  // a prefix may be redeclared: cached names are stale
  header_.append(rest.data(), rest.size());
  header_ += '\n';
  return true;
}

TermId LineParser::intern(std::string_view text) {
  return interning_ ? terms_.intern(text) : kNoTerm;
}

bool LineParser::kept(TermId predicate) {
  if (!only_) return true;
  if (predicate >= kept_.size()) kept_.resize(terms_.size(), 0);
  if (!kept_[predicate]) kept_[predicate] = only_->keeps(terms_[predicate]) ? 2 : 1;
  return kept_[predicate] == 2;
}

// "S p o , o ; p o ." into block_; false (nothing kept) if any of it is not the fast path's.
// Under keep_only(), the subject is interned once a kept predicate follows it, and the objects
// of the others are checked without being interned.
bool LineParser::block(const char*& p, const char* e) {
  block_.clear();
  TermId s, pr, o;
  const char* subject = p;
  interning_ = !only_;
  bool ok = term(p, e, s, 0);
  while (ok) {
    interning_ = true;
    if (!term(p, e, pr, 1)) break;
    bool keep = kept(pr);
    if (keep && s == kNoTerm) {
      const char* again = subject;
      term(again, e, s, 0);
    }
    interning_ = keep;
    while (true) {
      if (!term(p, e, o, 2)) {
        interning_ = true;
        return false;
      }
      if (keep) block_.push_back({s, pr, o});
      skip_space(p, e);
      if (p == e || *p != ',') break;
      ++p;
    }
    if (p == e || *p != ';') {
      interning_ = true;
      return end(p, e);
    }
    ++p;
  }
  interning_ = true;
  return false;
}

bool LineParser::end(const char*& p, const char* e) {
  skip_space(p, e);
  if (p == e || *p != '.') return false;
  ++p;
  skip_space(p, e);
  return p == e || *p == '#';
}

// prefix:local, with PN_LOCAL's backslash escapes (`\/`, `\#`, …) and %HH kept as they are.
bool LineParser::pname(const char*& p, const char* e, std::string& out) {
  const char* q = p;
  while (q < e && *q != ':' && name_char(*q)) ++q;
  if (q == e || *q != ':') return false;
  std::string_view key(p, static_cast<std::size_t>(q - p));
  auto it = std::find_if(prefixes_.begin(), prefixes_.end(), [&](auto& kv) { return kv.first == key; });
  if (it == prefixes_.end()) return false;
  out = '<';
  out += it->second;
  ++q;
  std::size_t dots = 0;  // trailing '.'s so far: the statement's end, not the name's
  while (q < e) {
    char c = *q;
    if (c == '\\') {
      if (q + 1 == e || std::string_view("_~.-!$&'()*+,;=/?#@%").find(q[1]) == std::string_view::npos)
        return false;
      out += q[1];
      q += 2;
      dots = 0;
    } else if (c == '%') {
      if (e - q < 3 || !std::isxdigit(static_cast<unsigned char>(q[1])) ||
          !std::isxdigit(static_cast<unsigned char>(q[2])))
        return false;
      out.append(q, 3);
      q += 3;
      dots = 0;
    } else if (name_char(c) || c == ':' || c == '.') {
      out += c;
      dots = c == '.' ? dots + 1 : 0;
      ++q;
    } else {
      break;
    }
  }
  q -= dots;
  out.resize(out.size() - dots);
  if (out.size() > it->second.size() + 1 && out[it->second.size() + 1] == '.') return false;
  out += '>';
  p = q;
  return true;
}

// A bare Turtle number (xsd:integer, xsd:decimal, xsd:double) or boolean at p; false if the
// token is not one.
bool LineParser::bare_literal(std::string_view token, std::string& out) {
  if (token == "true" || token == "false") {
    out = '"';
    out += token;
    out += kBooleanSuffix;
    return true;
  }
  std::size_t i = token.size() && (token[0] == '+' || token[0] == '-') ? 1 : 0;
  std::size_t digits = 0, point = 0, exponent = 0;
  for (; i < token.size(); ++i) {
    char c = token[i];
    if (c >= '0' && c <= '9') {
      ++digits;
    } else if (c == '.' && !point && !exponent) {
      point = i;
    } else if ((c == 'e' || c == 'E') && digits && !exponent) {
      exponent = i;
      if (i + 1 < token.size() && (token[i + 1] == '+' || token[i + 1] == '-')) ++i;
      if (i + 1 == token.size()) return false;
    } else {
      return false;
    }
  }
  if (!digits || (point && point + 1 == token.size())) return false;
  out = '"';
  out += token;
  out += "\"^^<";
  out += kXsd;
  out += exponent ? "double>" : point ? "decimal>" : "integer>";
  return true;
}

bool LineParser::literal(const char*& p, const char* e, std::string& out) {
  if (e - p >= 3 && p[1] == '"' && p[2] == '"') return false;  // long string: raptor
  const char* q = p + 1;
  bool simple = true;
  while (q < e && *q != '"') {
    auto c = static_cast<unsigned char>(*q);
    if (c == '\\') {
      simple = false;
      q += 2;
      continue;
    }
    if (c < 0x20 || c >= 0x7F) simple = false;
    ++q;
  }
  if (q >= e) return false;
  std::string_view body(p + 1, static_cast<std::size_t>(q - p - 1));
  p = q + 1;
  out = '"';
  if (simple) {
    out += body;
  } else {
    if (!unescape(body, raw_) || !valid_utf8(raw_)) return false;
    append_escaped(out, raw_);
  }
  out += '"';
  if (p < e && *p == '^') {
    if (p + 1 >= e || p[1] != '^') return false;
    p += 2;
    if (p < e && *p == '<' ? !iriref(p, e, dt_) : !pname(p, e, dt_)) return false;
    if (dt_ != kXsdStringTerm) {
      out += "^^";
      out += dt_;
    }
  } else if (p < e && *p == '@') {
    const char* lang = ++p;
    if (!lang_tag(p, e)) return false;
    out += '@';
    for (const char* c = lang; c < p; ++c)
      out += (*c >= 'A' && *c <= 'Z') ? static_cast<char>(*c - 'A' + 'a') : *c;
  }
  return true;
}

// One term at position `pos` (0 subject, 1 predicate, 2 object), then the space after it.
// Repeated text skips the work: the subject of the previous line, and prefixed names (a few
// dozen vocabulary terms) through a small cache from their text to their id.
bool LineParser::term(const char*& p, const char* e, TermId& id, int pos) {
  skip_space(p, e);
  if (p == e) return false;
  if (*p == '<') {
    std::string_view iri;
    if (!iriref(p, e, iri) || raptor_refuses_iri(iri)) return false;  // raptor judges (and drops) it
    if (pos == 0 && iri == last_subject_ && last_subject_id_ != kNoTerm) {
      id = last_subject_id_;
    } else {
      id = intern(iri);
      if (pos == 0) last_subject_.assign(iri.data(), iri.size()), last_subject_id_ = id;
    }
  } else if (*p == '"') {
    if (pos != 2 || !literal(p, e, scratch_)) return false;
    id = intern(scratch_);
  } else if (*p == '_' && p + 1 < e && p[1] == ':') {
    if (pos == 1) return false;
    const char* label = p += 2;
    while (p < e && name_char(*p)) ++p;
    if (p == label) return false;
    scratch_ = blank_prefix_;
    scratch_.append(label, static_cast<std::size_t>(p - label));
    id = intern(scratch_);
  } else {
    const char* q = p;
    while (q < e && *q != ' ' && *q != '\t' && *q != ',' && *q != ';') q += *q == '\\' && q + 1 < e ? 2 : 1;
    std::string_view token(p, static_cast<std::size_t>(q - p));
    if (token.size() > 1 && token.back() == '.' && pos == 2 && token[token.size() - 2] != '\\')
      token.remove_suffix(1);
    if (pos == 2 && bare_literal(token, scratch_)) {
      id = intern(scratch_);
      p += token.size();
      return p < e && (*p == ' ' || *p == '\t' || *p == '.' || *p == ',' || *p == ';');
    }
    std::size_t slot = std::hash<std::string_view>{}(token) & (kTokenCache - 1);
    if (tokens_[slot].first == token) {
      id = tokens_[slot].second;
      p += token.size();
    } else {
      if (pos == 1 && token == "a") {
        scratch_ = kRdfTypeTerm;
        ++p;
      } else if (!pname(p, e, scratch_) || p != token.data() + token.size() || raptor_refuses_iri(scratch_)) {
        return false;
      }
      id = intern(scratch_);
      if (id != kNoTerm) tokens_[slot] = {std::string(token), id};
    }
  }
  // a term ends at a space, or (an object) at the '.', ',' or ';' after it
  return p < e && (*p == ' ' || *p == '\t' || (pos == 2 && (*p == '.' || *p == ',' || *p == ';')));
}

}  // namespace provio::rdf
