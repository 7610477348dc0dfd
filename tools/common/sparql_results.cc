// SPARQL results JSON reader (see sparql_results.h). A small recursive-descent JSON parser: the
// format nests three levels deep and only strings matter, so nothing more general is needed.
#include "common/sparql_results.h"

#include <cstdint>

#include "common/terms.h"

namespace provio::sparql {
namespace {

class Parser {
 public:
  explicit Parser(std::string_view s) : s_(s) {}

  bool fail(const std::string& what) {
    if (error_.empty()) error_ = "offset " + std::to_string(i_) + ": " + what;
    return false;
  }
  const std::string& error() const { return error_; }

  void ws() {
    while (i_ < s_.size() && (s_[i_] == ' ' || s_[i_] == '\n' || s_[i_] == '\r' || s_[i_] == '\t')) ++i_;
  }
  bool eat(char c) {
    ws();
    if (i_ < s_.size() && s_[i_] == c) {
      ++i_;
      return true;
    }
    return false;
  }
  bool expect(char c) { return eat(c) || fail(std::string("expected '") + c + "'"); }
  bool peek(char c) {
    ws();
    return i_ < s_.size() && s_[i_] == c;
  }

  bool hex4(std::uint32_t& v) {
    if (i_ + 4 > s_.size()) return fail("truncated \\u escape");
    v = 0;
    for (int k = 0; k < 4; ++k) {
      char c = s_[i_++];
      v <<= 4;
      if (c >= '0' && c <= '9')
        v |= static_cast<std::uint32_t>(c - '0');
      else if (c >= 'a' && c <= 'f')
        v |= static_cast<std::uint32_t>(c - 'a' + 10);
      else if (c >= 'A' && c <= 'F')
        v |= static_cast<std::uint32_t>(c - 'A' + 10);
      else
        return fail("bad \\u escape");
    }
    return true;
  }

  bool string(std::string& out) {
    out.clear();
    if (!expect('"')) return false;
    while (i_ < s_.size()) {
      char c = s_[i_++];
      if (c == '"') return true;
      if (c != '\\') {
        out += c;
        continue;
      }
      if (i_ >= s_.size()) break;
      char e = s_[i_++];
      switch (e) {
        case 'n': out += '\n'; break;
        case 't': out += '\t'; break;
        case 'r': out += '\r'; break;
        case 'b': out += '\b'; break;
        case 'f': out += '\f'; break;
        case 'u': {
          std::uint32_t cp = 0;
          if (!hex4(cp)) return false;
          if (cp >= 0xD800 && cp < 0xDC00 && i_ + 1 < s_.size() && s_[i_] == '\\' && s_[i_ + 1] == 'u') {
            i_ += 2;
            std::uint32_t lo = 0;
            if (!hex4(lo)) return false;
            cp = 0x10000 + ((cp - 0xD800) << 10) + (lo - 0xDC00);
          }
          rdf::append_utf8(out, cp);
          break;
        }
        default: out += e;  // \" \\ \/
      }
    }
    return fail("unterminated string");
  }

  // Skips any JSON value.
  bool skip() {
    ws();
    if (peek('"')) {
      std::string ignored;
      return string(ignored);
    }
    if (eat('{')) {
      if (eat('}')) return true;
      do {
        std::string k;
        if (!string(k) || !expect(':') || !skip()) return false;
      } while (eat(','));
      return expect('}');
    }
    if (eat('[')) {
      if (eat(']')) return true;
      do {
        if (!skip()) return false;
      } while (eat(','));
      return expect(']');
    }
    std::size_t b = i_;
    while (i_ < s_.size() && std::string_view("{}[],: \n\r\t\"").find(s_[i_]) == std::string_view::npos) ++i_;
    return i_ > b || fail("expected a value");
  }

  // Iterates the members of an object, calling f(key) positioned at each value.
  template <typename F>
  bool members(F f) {
    if (!expect('{')) return false;
    if (eat('}')) return true;
    do {
      std::string k;
      if (!string(k) || !expect(':') || !f(k)) return false;
    } while (eat(','));
    return expect('}');
  }

  template <typename F>
  bool elements(F f) {
    if (!expect('[')) return false;
    if (eat(']')) return true;
    do {
      if (!f()) return false;
    } while (eat(','));
    return expect(']');
  }

  bool word(std::string_view w) {
    ws();
    if (s_.substr(i_, w.size()) != w) return false;
    i_ += w.size();
    return true;
  }

  bool term(Term& t) {
    std::string type;
    bool ok = members([&](const std::string& k) {
      if (k == "type") return string(type);
      if (k == "value") return string(t.value);
      if (k == "datatype") return string(t.datatype);
      if (k == "xml:lang") return string(t.lang);
      return skip();
    });
    if (!ok) return false;
    if (type == "uri")
      t.kind = Term::Kind::kIri;
    else if (type == "bnode")
      t.kind = Term::Kind::kBlank;
    else if (type == "literal" || type == "typed-literal")  // typed-literal: SPARQL 1.0 servers
      t.kind = Term::Kind::kLiteral;
    else
      return fail("unknown term type '" + type + "'");
    return true;
  }

  bool results(Results& out) {
    std::vector<std::vector<std::pair<std::string, Term>>> raw;
    bool ok = members([&](const std::string& k) {
      if (k == "head")
        return members([&](const std::string& h) {
          if (h != "vars") return skip();
          return elements([&] { return string(out.vars.emplace_back()); });
        });
      if (k == "boolean") {
        out.is_boolean = true;
        if (word("true")) return out.boolean = true;
        if (word("false")) return true;
        return fail("expected true or false");
      }
      if (k == "results")
        return members([&](const std::string& r) {
          if (r != "bindings") return skip();
          return elements([&] {
            auto& row = raw.emplace_back();
            return members([&](const std::string& var) { return term(row.emplace_back(var, Term{}).second); });
          });
        });
      return skip();
    });
    ws();
    if (ok && i_ != s_.size()) ok = fail("text after the document");
    if (!ok) return false;
    out.rows.reserve(raw.size());
    for (auto& r : raw) {
      Row row(out.vars.size());
      for (auto& [var, t] : r) {
        int c = out.column(var);
        if (c >= 0) row[static_cast<std::size_t>(c)] = std::move(t);
      }
      out.rows.push_back(std::move(row));
    }
    return true;
  }

 private:
  std::string_view s_;
  std::size_t i_ = 0;
  std::string error_;
};

}  // namespace

int Results::column(std::string_view var) const {
  for (std::size_t i = 0; i < vars.size(); ++i)
    if (vars[i] == var) return static_cast<int>(i);
  return -1;
}

bool parse_json_results(std::string_view body, Results& out, std::string& error) {
  out = Results{};
  Parser p(body);
  if (p.results(out)) return true;
  error = "malformed SPARQL JSON results: " + p.error();
  return false;
}

}  // namespace provio::sparql
