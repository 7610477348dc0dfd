// Canonical term spelling and measure parsing (see terms.h).
#include "graph/terms.h"

#include <raptor2.h>

#include <charconv>
#include <cmath>
#include <cstdlib>

#include "cli/terminal.h"
#include "model/iri.h"
#include "store/turtle.h"

namespace provio::rdf {
namespace {

// Days since 1970-01-01 of a proleptic Gregorian date (H. Hinnant's days_from_civil).
std::int64_t days_from_civil(std::int64_t y, unsigned m, unsigned d) {
  y -= m <= 2;
  std::int64_t era = (y >= 0 ? y : y - 399) / 400;
  auto yoe = static_cast<unsigned>(y - era * 400);
  unsigned doy = (153 * (m > 2 ? m - 3 : m + 9) + 2) / 5 + d - 1;
  unsigned doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
  return era * 146097 + static_cast<std::int64_t>(doe) - 719468;
}

bool digits(std::string_view s, std::size_t pos, std::size_t n, int& v) {
  if (pos + n > s.size()) return false;
  v = 0;
  for (std::size_t i = pos; i < pos + n; ++i) {
    if (s[i] < '0' || s[i] > '9') return false;
    v = v * 10 + (s[i] - '0');
  }
  return true;
}

}  // namespace

bool raptor_refuses_iri(std::string_view term) {
  constexpr std::string_view kMember = "<http://www.w3.org/1999/02/22-rdf-syntax-ns#_";
  if (term.substr(0, kMember.size()) != kMember) return false;
  std::string_view digits = term.substr(kMember.size(), term.size() - kMember.size() - 1);
  if (digits.empty() || digits.size() > 9 || digits.find_first_not_of("0123456789") != std::string_view::npos)
    return true;
  return digits.find_first_not_of('0') == std::string_view::npos;  // _0 is no ordinal either
}

bool valid_utf8(std::string_view s) {
  return cli::utf8_error_at(s) == std::string_view::npos;
}

std::string_view utf8_tail(std::string_view s, std::size_t n) {
  std::size_t i = s.size();
  // Back over n lead bytes (anything but a continuation byte 10xxxxxx).
  for (std::size_t chars = 0; i > 0 && chars < n;) {
    --i;
    if ((static_cast<unsigned char>(s[i]) & 0xC0) != 0x80) ++chars;
  }
  return s.substr(i);
}

void append_utf8(std::string& out, std::uint32_t cp) {
  if (cp < 0x80) {
    out += static_cast<char>(cp);
  } else if (cp < 0x800) {
    out += static_cast<char>(0xC0 | (cp >> 6));
    out += static_cast<char>(0x80 | (cp & 0x3F));
  } else if (cp < 0x10000) {
    out += static_cast<char>(0xE0 | (cp >> 12));
    out += static_cast<char>(0x80 | ((cp >> 6) & 0x3F));
    out += static_cast<char>(0x80 | (cp & 0x3F));
  } else {
    out += static_cast<char>(0xF0 | (cp >> 18));
    out += static_cast<char>(0x80 | ((cp >> 12) & 0x3F));
    out += static_cast<char>(0x80 | ((cp >> 6) & 0x3F));
    out += static_cast<char>(0x80 | (cp & 0x3F));
  }
}

// The core's IRI term writer (model/iri.h): raw and merged files spell every IRI alike.
void append_iri(std::string& out, std::string_view iri) {
  model::append_iri_term(out, iri);
}

// The core's writer escapes literals (docs/format.md); one rule for both keeps raw and merged
// spellings identical.
void append_escaped(std::string& out, std::string_view text) {
  store::append_escaped_string(out, text);
}

void append_literal(std::string& out, std::string_view text, std::string_view datatype,
                    std::string_view lang) {
  out += '"';
  append_escaped(out, text);
  out += '"';
  if (!lang.empty()) {
    out += '@';
    for (char c : lang) out += (c >= 'A' && c <= 'Z') ? static_cast<char>(c - 'A' + 'a') : c;
  } else if (!datatype.empty() && datatype != xsd("string")) {
    out += "^^";
    append_iri(out, datatype);
  }
}

std::string_view iri_body(std::string_view term) {
  if (term.size() < 2 || term.front() != '<' || term.back() != '>') return {};
  return term.substr(1, term.size() - 2);
}

namespace {
// What follows a literal's closing '"': ^^<datatype> or @lang.
void read_suffix(std::string_view rest, std::string_view& datatype, std::string_view& lang) {
  if (rest.size() > 2 && rest.substr(0, 2) == "^^")
    datatype = iri_body(rest.substr(2));
  else if (!rest.empty() && rest.front() == '@')
    lang = rest.substr(1);
}
}  // namespace

std::optional<Literal> parse_literal(std::string_view term) {
  if (term.empty() || term.front() != '"') return std::nullopt;
  Literal lit;
  std::size_t i = 1;
  for (; i < term.size() && term[i] != '"'; ++i) {
    char c = term[i];
    if (c != '\\') {
      lit.lexical += c;
      continue;
    }
    if (++i >= term.size()) return std::nullopt;
    switch (term[i]) {
      case 'n': lit.lexical += '\n'; break;
      case 'r': lit.lexical += '\r'; break;
      case 't': lit.lexical += '\t'; break;
      case 'u':
      case 'U': {
        std::size_t n = term[i] == 'u' ? 4 : 8;
        if (i + n >= term.size()) return std::nullopt;
        std::uint32_t cp = 0;
        auto r = std::from_chars(term.data() + i + 1, term.data() + i + 1 + n, cp, 16);
        if (r.ptr != term.data() + i + 1 + n) return std::nullopt;
        append_utf8(lit.lexical, cp);
        i += n;
        break;
      }
      default: lit.lexical += term[i];
    }
  }
  if (i >= term.size()) return std::nullopt;
  read_suffix(term.substr(i + 1), lit.datatype, lit.lang);
  return lit;
}

std::optional<LiteralView> literal_view(std::string_view term, std::string& scratch) {
  if (term.empty() || term.front() != '"') return std::nullopt;
  std::size_t end = term.find_first_of("\"\\", 1);
  if (end == std::string_view::npos) return std::nullopt;
  if (term[end] == '\\') {  // escapes: the slow path unescapes
    auto lit = parse_literal(term);
    if (!lit) return std::nullopt;
    scratch = std::move(lit->lexical);
    return LiteralView{scratch, lit->datatype, lit->lang};
  }
  LiteralView v{term.substr(1, end - 1), {}, {}};
  read_suffix(term.substr(end + 1), v.datatype, v.lang);
  return v;
}

std::optional<std::uint64_t> parse_u64(std::string_view text) {
  if (!text.empty() && text.front() == '+') text.remove_prefix(1);
  std::uint64_t v = 0;
  auto r = std::from_chars(text.data(), text.data() + text.size(), v);
  if (text.empty() || r.ec != std::errc() || r.ptr != text.data() + text.size()) return std::nullopt;
  return v;
}

std::optional<std::uint64_t> parse_seconds_ns(std::string_view text) {
  // The exact form first: digits, optionally '.' and up to 9 digits.
  std::size_t dot = text.find('.');
  std::string_view whole = text.substr(0, dot);
  std::string_view frac = dot == std::string_view::npos ? std::string_view() : text.substr(dot + 1);
  auto secs = parse_u64(whole);
  if (secs && frac.size() <= 9 &&
      (frac.empty() || frac.find_first_not_of("0123456789") == std::string_view::npos)) {
    std::uint64_t ns = 0;
    for (std::size_t k = 0; k < 9; ++k)
      ns = ns * 10 + (k < frac.size() ? static_cast<unsigned>(frac[k] - '0') : 0);
    return *secs * 1000000000u + ns;
  }
  // Anything else xsd:double allows ("1.5E-3"): rounded to the ns.
  std::string s(text);
  char* end = nullptr;
  double v = std::strtod(s.c_str(), &end);
  if (s.empty() || end != s.c_str() + s.size() || !(v >= 0) || v > 1.8e10) return std::nullopt;
  return static_cast<std::uint64_t>(std::llround(v * 1e9));
}

std::optional<std::int64_t> parse_datetime_us(std::string_view s) {
  // YYYY-MM-DDThh:mm:ss[.f+][Z|(+|-)hh:mm]
  int y, mo, d, h, mi, se;
  if (!digits(s, 0, 4, y) || s.size() < 19 || s[4] != '-' || !digits(s, 5, 2, mo) || s[7] != '-' ||
      !digits(s, 8, 2, d) || s[10] != 'T' || !digits(s, 11, 2, h) || s[13] != ':' || !digits(s, 14, 2, mi) ||
      s[16] != ':' || !digits(s, 17, 2, se)) {
    return std::nullopt;
  }
  if (mo < 1 || mo > 12 || d < 1 || d > 31 || h > 24 || mi > 59 || se > 60) return std::nullopt;
  std::size_t i = 19;
  std::int64_t us = 0;
  if (i < s.size() && s[i] == '.') {
    std::int64_t scale = 100000;
    ++i;
    if (i >= s.size() || s[i] < '0' || s[i] > '9') return std::nullopt;
    for (; i < s.size() && s[i] >= '0' && s[i] <= '9'; ++i) {
      us += (s[i] - '0') * scale;
      scale /= 10;
    }
  }
  std::int64_t offset_min = 0;
  if (i < s.size()) {
    if (s[i] == 'Z' && i + 1 == s.size()) {
      ++i;
    } else if ((s[i] == '+' || s[i] == '-') && i + 6 == s.size() && s[i + 3] == ':') {
      int oh, om;
      if (!digits(s, i + 1, 2, oh) || !digits(s, i + 4, 2, om)) return std::nullopt;
      offset_min = (s[i] == '-' ? -1 : 1) * (oh * 60 + om);
      i += 6;
    } else {
      return std::nullopt;
    }
  }
  std::int64_t secs = days_from_civil(y, static_cast<unsigned>(mo), static_cast<unsigned>(d)) * 86400 +
                      h * 3600 + mi * 60 + se - offset_min * 60;
  return secs * 1000000 + us;
}

std::string format_seconds(std::uint64_t ns) {
  char buf[40];
  int n = std::snprintf(buf, sizeof buf, "%llu.%09llu", static_cast<unsigned long long>(ns / 1000000000u),
                        static_cast<unsigned long long>(ns % 1000000000u));
  return std::string(buf, static_cast<std::size_t>(n));
}

}  // namespace provio::rdf
