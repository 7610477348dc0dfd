// Turtle statement writer (see turtle.h). Escaping scans for the next byte that needs work and
// copies clean runs in bulk.
#include "store/turtle.h"

#include <array>
#include <cctype>
#include <charconv>
#include <cmath>
#include <cstdio>

#include "model/iri.h"

namespace provio::store {
namespace {

constexpr char kHex[] = "0123456789ABCDEF";

// Length of the valid UTF-8 sequence at s[i], or 0 if the bytes there are not valid UTF-8.
std::size_t utf8_length(std::string_view s, std::size_t i) {
  auto b = [&](std::size_t k) { return static_cast<unsigned char>(s[i + k]); };
  unsigned char c = b(0);
  std::size_t n;
  std::uint32_t min;
  if (c < 0x80) return 1;
  if (c >= 0xC2 && c <= 0xDF)
    n = 2, min = 0x80;
  else if (c >= 0xE0 && c <= 0xEF)
    n = 3, min = 0x800;
  else if (c >= 0xF0 && c <= 0xF4)
    n = 4, min = 0x10000;
  else
    return 0;
  if (i + n > s.size()) return 0;
  std::uint32_t cp = c & (0x7F >> n);
  for (std::size_t k = 1; k < n; ++k) {
    if ((b(k) & 0xC0) != 0x80) return 0;
    cp = (cp << 6) | (b(k) & 0x3F);
  }
  if (cp < min || cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF)) return 0;
  return n;
}

template <typename T>
void append_number(std::string& out, T v) {
  char buf[32];
  auto r = std::to_chars(buf, buf + sizeof buf, v);
  out.append(buf, static_cast<std::size_t>(r.ptr - buf));
}

// Appends `v` as exactly `digits` decimal digits, zero-padded.
void append_fraction(std::string& out, std::uint64_t v, int digits) {
  char buf[20];
  for (int i = digits - 1; i >= 0; --i, v /= 10) buf[i] = static_cast<char>('0' + v % 10);
  out.append(buf, static_cast<std::size_t>(digits));
}

}  // namespace

void append_escaped_string(std::string& out, std::string_view text) {
  std::size_t run = 0;
  std::size_t i = 0;
  while (i < text.size()) {
    auto c = static_cast<unsigned char>(text[i]);
    if (c >= 0x20 && c != '"' && c != '\\' && c < 0x7F) {
      ++i;
      continue;
    }
    if (c >= 0x80) {
      std::size_t n = utf8_length(text, i);
      if (n) {
        i += n;
        continue;
      }
    }
    out.append(text.data() + run, i - run);
    switch (c) {
      case '"': out += "\\\""; break;
      case '\\': out += "\\\\"; break;
      case '\n': out += "\\n"; break;
      case '\r': out += "\\r"; break;
      case '\t': out += "\\t"; break;
      default:
        if (c >= 0x80) {
          out += "\\uFFFD";  // not UTF-8: the entity's IRI keeps the exact bytes
        } else {
          out += "\\u00";
          out += kHex[c >> 4];
          out += kHex[c & 15];
        }
    }
    run = ++i;
  }
  out.append(text.data() + run, text.size() - run);
}

UtcTime utc_time(std::uint64_t secs) {
  // H. Hinnant's civil_from_days over days since 1970-01-01, counted from 0000-03-01 so that
  // leap days end each 4/100/400-year cycle.
  std::uint64_t days = secs / 86400 + 719468;
  unsigned rem = static_cast<unsigned>(secs % 86400);
  std::uint64_t era = days / 146097;
  unsigned doe = static_cast<unsigned>(days - era * 146097);             // day of era
  unsigned yoe = (doe - doe / 1460 + doe / 36524 - doe / 146096) / 365;  // year of era
  unsigned doy = doe - (365 * yoe + yoe / 4 - yoe / 100);                // day of year, from March
  unsigned mp = (5 * doy + 2) / 153;                                     // month, from March
  unsigned month = mp < 10 ? mp + 3 : mp - 9;
  std::uint64_t year = era * 400 + yoe + (month <= 2 ? 1 : 0);
  return UtcTime{year, month, doy - (153 * mp + 2) / 5 + 1, rem / 3600, rem / 60 % 60, rem % 60};
}

void append_datetime(std::string& out, std::uint64_t ns) {
  // Flushes format thousands of times within the same second: keep that second's text.
  thread_local std::uint64_t cached_secs = ~std::uint64_t{0};
  thread_local char cached[80];  // 21 bytes in practice; sized for any int the compiler imagines
  std::uint64_t secs = ns / 1000000000u;
  if (secs != cached_secs) {
    // Not gmtime_r: glibc's takes a process-wide lock, which a fork can leave held forever in the
    // child when another thread was formatting a time (hostile.fork_at_start hung so).
    UtcTime t = utc_time(secs);
    std::snprintf(cached, sizeof cached, "%04llu-%02u-%02uT%02u:%02u:%02u.",
                  static_cast<unsigned long long>(t.year), t.month, t.day, t.hour, t.minute, t.second);
    cached_secs = secs;
  }
  out += cached;
  append_fraction(out, static_cast<unsigned>((ns / 1000u) % 1000000u), 6);
  out += 'Z';
}

bool append_local_name(std::string& out, std::string_view local) {
  // PN_LOCAL allows "\." last, but rdflib (6.1) then stops at the '.' as the statement's end: a
  // name ending in '.' is written as a full IRI, which every parser reads alike.
  if (!local.empty() && local.back() == '.') return false;
  std::size_t start = out.size();
  for (std::size_t i = 0; i < local.size(); ++i) {
    char c = local[i];
    bool bare = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_' ||
                c == ':' || (c == '-' && i > 0);
    if (c == '%' && i + 2 < local.size() && std::isxdigit(static_cast<unsigned char>(local[i + 1])) &&
        std::isxdigit(static_cast<unsigned char>(local[i + 2]))) {
      bare = true;  // PLX: a percent escape stays as it is
    }
    if (bare) {
      out += c;
    } else if (std::string_view("_~.-!$&'()*+,;=/?#@%").find(c) != std::string_view::npos) {
      out += '\\';
      out += c;
    } else {
      out.resize(start);
      return false;
    }
  }
  return true;
}

void Turtle::sep() {
  if (terms_++ > 0) out_ += ' ';
}

Turtle& Turtle::pred(std::string_view predicate) {
  if (terms_ == 1) return name(predicate);  // the subject's first predicate
  if (terms_ != 3) bad_ = true;
  out_ += " ; ";
  out_ += predicate;
  terms_ = 2;
  return *this;
}

Turtle& Turtle::more(std::string_view pairs) {
  if (terms_ != 1 && terms_ != 3) bad_ = true;
  out_ += terms_ == 1 ? " " : " ; ";
  out_ += pairs;
  terms_ = 3;
  return *this;
}

Turtle& Turtle::also() {
  if (terms_ != 3) bad_ = true;
  out_ += " ,";
  terms_ = 2;
  return *this;
}

Turtle& Turtle::integer(std::int64_t n) {
  sep();
  append_number(out_, n);
  return *this;
}

Turtle& Turtle::iri(std::string_view iri) {
  sep();
  if (iri.empty())
    bad_ = true;
  else
    model::append_iri_term(out_, iri);
  return *this;
}

Turtle& Turtle::name(std::string_view term) {
  sep();
  if (term.empty()) bad_ = true;
  out_ += term;
  return *this;
}

Turtle& Turtle::str(std::string_view text) {
  sep();
  out_ += '"';
  append_escaped_string(out_, text);
  out_ += '"';
  return *this;
}

Turtle& Turtle::u64(std::uint64_t n) {
  sep();
  out_ += '"';
  append_number(out_, n);
  out_ += "\"^^xsd:unsignedLong";
  return *this;
}

Turtle& Turtle::i64(std::int64_t n) {
  sep();
  out_ += '"';
  append_number(out_, n);
  out_ += "\"^^xsd:long";
  return *this;
}

Turtle& Turtle::dbl(double v) {
  sep();
  out_ += '"';
  if (std::isnan(v))
    out_ += "NaN";
  else if (std::isinf(v))
    out_ += v > 0 ? "INF" : "-INF";
  else
    append_number(out_, v);
  out_ += "\"^^xsd:double";
  return *this;
}

Turtle& Turtle::seconds(std::uint64_t ns) {
  sep();
  out_ += '"';
  append_number(out_, ns / 1000000000u);
  out_ += '.';
  append_fraction(out_, ns % 1000000000u, 9);
  out_ += "\"^^xsd:double";
  return *this;
}

Turtle& Turtle::time(std::uint64_t ns) {
  sep();
  out_ += '"';
  append_datetime(out_, ns);
  out_ += "\"^^xsd:dateTime";
  return *this;
}

Turtle& Turtle::boolean(bool b) {
  sep();
  out_ += b ? "\"true\"^^xsd:boolean" : "\"false\"^^xsd:boolean";
  return *this;
}

bool Turtle::end() {
  bool ok = !bad_ && terms_ == 3;
  if (ok) {
    out_ += " .\n";
  } else {
    out_.resize(start_);
  }
  start_ = out_.size();
  terms_ = 0;
  bad_ = false;
  return ok;
}

}  // namespace provio::store
