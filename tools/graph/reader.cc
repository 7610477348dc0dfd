// Reading inputs (see reader.h).
//
// The fast path reads provio's raw per-thread files: a fixed @prefix header, then one subject
// block per line (`S p o ; p o , o .`: the current format) or one statement per line (the format
// before it; docs/format.md), with @prefix lines anywhere. A line it does not understand (a Turtle form it
// does not handle, or damage) is handed to raptor on its own, with the prefixes seen so far, so raptor stays
// the judge of what is valid and the line number in its message is the file's. Other files go to raptor
// whole; raptor stops at its first error and keeps what came before.
#include "common/reader.h"

#include <fcntl.h>
#include <raptor2.h>
#include <unistd.h>

#include <algorithm>
#include <array>
#include <atomic>
#include <cctype>
#include <cerrno>
#include <cstring>
#include <filesystem>
#include <functional>
#include <memory>
#include <optional>
#include <string_view>
#include <thread>

#include "common/input.h"
#include "common/terms.h"
#include "model/vocabulary.h"

namespace provio::rdf {
namespace {

namespace fs = std::filesystem;

constexpr std::size_t kChunk = 1 << 20;
constexpr int kMaxMessagesPerFile = 10;

struct FileReport {
  std::vector<std::string> messages;
  std::uint64_t triples = 0;
  bool damaged = false;
  int suppressed = 0;
};

// One file being read.
struct FileContext {
  const std::string* path;
  Graph* graph;
  FileReport report;
  std::string blank_prefix;         // "_:b<n>x"
  std::uint64_t line_override = 0;  // raptor parsing one line of a fast-path file
  const char* error_suffix = "";
  bool growing = false;  // still being written: an unfinished end is left for the next read
  bool capture = false;  // keep raptor's first error in `captured` instead of reporting it
  std::string captured;
  int captured_column = 0;

  void message(std::uint64_t line, int column, std::string_view text) {
    if (static_cast<int>(report.messages.size()) >= kMaxMessagesPerFile) {
      ++report.suppressed;
      return;
    }
    std::string m = *path;
    if (line) {
      m += ':' + std::to_string(line);
      if (column > 0) m += ':' + std::to_string(column);
    }
    m += ": ";
    m += text;
    report.messages.push_back(std::move(m));
  }
};

bool has_suffix(std::string_view s, std::string_view suffix) {
  return s.size() >= suffix.size() && s.substr(s.size() - suffix.size()) == suffix;
}

std::string file_uri(const std::string& path) {
  std::error_code ec;
  fs::path abs = fs::absolute(path, ec);
  return "file://" + (ec ? path : abs.string());
}

using HeldTriple = std::array<std::string, 3>;

// A raptor world for one thread, with a log handler that reports into the current file.
class Raptor {
 public:
  Raptor() {
    world_ = raptor_new_world();
    raptor_world_open(world_);
    raptor_world_set_log_handler(world_, this, &Raptor::log);
  }
  ~Raptor() { raptor_free_world(world_); }
  Raptor(const Raptor&) = delete;
  Raptor& operator=(const Raptor&) = delete;

  // While `into` is set, parsed statements are held there instead of going into the graph: the
  // caller keeps them only if the whole text parsed (a statement is kept only if written whole).
  void hold_statements(std::vector<HeldTriple>* into) { held_ = into; }

  // Parses the chunks `next` yields (false at the end) with raptor parser `syntax`.
  // Returns false if raptor reported an error.
  bool parse(const char* syntax, FileContext& ctx, const std::function<bool(std::string_view&)>& next) {
    raptor_parser* parser = raptor_new_parser(world_, syntax);
    if (!parser) {
      ctx.message(0, 0, std::string("no raptor parser '") + syntax + "'");
      ctx.report.damaged = true;
      return false;
    }
    ctx_ = &ctx;
    parser_ = parser;
    failed_ = false;
    raptor_parser_set_statement_handler(parser, this, &Raptor::statement);
    std::string base = file_uri(*ctx.path);
    raptor_uri* uri = raptor_new_uri(world_, reinterpret_cast<const unsigned char*>(base.c_str()));
    raptor_parser_parse_start(parser, uri);
    std::string_view chunk;
    bool more = true;
    while (more && !failed_) {
      more = next(chunk);
      int rc = raptor_parser_parse_chunk(parser, reinterpret_cast<const unsigned char*>(chunk.data()),
                                         chunk.size(), more ? 0 : 1);
      if (rc) failed_ = true;
    }
    raptor_free_uri(uri);
    raptor_free_parser(parser);
    ctx_ = nullptr;
    parser_ = nullptr;
    return !failed_;
  }

 private:
  static void log(void* data, raptor_log_message* m) {
    auto* self = static_cast<Raptor*>(data);
    FileContext* ctx = self->ctx_;
    if (!ctx) return;
    bool error = m->level >= RAPTOR_LOG_LEVEL_ERROR;
    std::uint64_t line = 0;
    int column = 0;
    if (m->locator) {
      line = m->locator->line > 0 ? static_cast<std::uint64_t>(m->locator->line) : 0;
      column = m->locator->column;
    }
    if (ctx->line_override) line = ctx->line_override;
    std::string text = m->text ? m->text : "unknown raptor error";
    if (ctx->capture) {
      if (error && !self->failed_) ctx->captured = text, ctx->captured_column = column;
      self->failed_ |= error;
      return;
    }
    if (error) {
      if (self->failed_) return;  // raptor's follow-up messages about the same failure
      self->failed_ = true;
      ctx->report.damaged = true;
      text += ctx->error_suffix;
    }
    ctx->message(line, column, text);
  }

  static void term_text(FileContext& ctx, raptor_term* t, std::string& out) {
    out.clear();
    switch (t->type) {
      case RAPTOR_TERM_TYPE_URI: {
        std::size_t n = 0;
        const unsigned char* s = raptor_uri_as_counted_string(t->value.uri, &n);
        append_iri(out, std::string_view(reinterpret_cast<const char*>(s), n));
        break;
      }
      case RAPTOR_TERM_TYPE_LITERAL: {
        const raptor_term_literal_value& l = t->value.literal;
        std::string_view dt, lang;
        std::size_t n = 0;
        if (l.datatype) dt = reinterpret_cast<const char*>(raptor_uri_as_counted_string(l.datatype, &n));
        if (l.language) lang = std::string_view(reinterpret_cast<const char*>(l.language), l.language_len);
        append_literal(out, std::string_view(reinterpret_cast<const char*>(l.string), l.string_len), dt,
                       lang);
        break;
      }
      case RAPTOR_TERM_TYPE_BLANK:
        out = ctx.blank_prefix;
        out.append(reinterpret_cast<const char*>(t->value.blank.string), t->value.blank.string_len);
        break;
      default: break;
    }
  }

  static void statement(void* data, raptor_statement* st) {
    auto* self = static_cast<Raptor*>(data);
    FileContext& ctx = *self->ctx_;
    term_text(ctx, st->subject, self->s_);
    term_text(ctx, st->predicate, self->p_);
    term_text(ctx, st->object, self->o_);
    if (self->s_.empty() || self->p_.empty() || self->o_.empty()) return;
    if (!valid_utf8(self->s_) || !valid_utf8(self->p_) || !valid_utf8(self->o_)) {
      self->invalid_utf8(ctx);
      return;
    }
    if (self->held_) {
      self->held_->push_back({self->s_, self->p_, self->o_});
      return;
    }
    ctx.graph->add(self->s_, self->p_, self->o_);
    ++ctx.report.triples;
  }

  // Raptor passes some bytes that are not UTF-8 through into IRIs; such a statement would make
  // the output invalid RDF, so it is dropped (and, under capture, fails the parse).
  void invalid_utf8(FileContext& ctx) {
    const char* text = "invalid UTF-8 in a term";
    if (ctx.capture) {
      if (!failed_) ctx.captured = text, ctx.captured_column = 0;
      failed_ = true;
      return;
    }
    raptor_locator* where = parser_ ? raptor_parser_get_locator(parser_) : nullptr;
    std::uint64_t line = ctx.line_override          ? ctx.line_override
                         : where && where->line > 0 ? static_cast<std::uint64_t>(where->line)
                                                    : 0;
    ctx.report.damaged = true;
    ctx.message(line, 0, std::string(text) + "; statement dropped");
  }

  raptor_world* world_;
  raptor_parser* parser_ = nullptr;
  FileContext* ctx_ = nullptr;
  bool failed_ = false;
  std::string s_, p_, o_;
  std::vector<HeldTriple>* held_ = nullptr;
};

// Reads a file in chunks; remembers errors.
class ChunkReader {
 public:
  // "-" is standard input; anything but a regular file is refused (common/input.h).
  explicit ChunkReader(const std::string& path) : owned_(path != "-") { fd_ = open_input(path, open_error_); }
  ~ChunkReader() {
    if (fd_ >= 0 && owned_) ::close(fd_);
  }
  ChunkReader(const ChunkReader&) = delete;
  ChunkReader& operator=(const ChunkReader&) = delete;
  // Why the file could not be opened, or empty.
  const std::string& open_error() const { return open_error_; }
  // Appends up to kChunk bytes to `buf`; 0 at the end, -1 on error (errno in error()).
  // (Read into a scratch block and appended: growing `buf` by resize() would zero-fill 1 MiB per
  // call, which costs more than parsing a small file.)
  long read_into(std::string& buf) {
    if (!scratch_) scratch_.reset(new char[kChunk]);
    ssize_t n;
    do {
      n = ::read(fd_, scratch_.get(), kChunk);
    } while (n < 0 && errno == EINTR);
    if (n < 0) {
      errno_ = errno;
      return -1;
    }
    buf.append(scratch_.get(), static_cast<std::size_t>(n));
    return n;
  }
  int error() const { return errno_; }

 private:
  bool owned_;
  int fd_ = -1;
  int errno_ = 0;
  std::string open_error_;
  std::unique_ptr<char[]> scratch_;
};

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

// The fast path: one subject block (or statement) per line.
class LineParser {
 public:
  LineParser(FileContext& ctx, Raptor& raptor) : ctx_(ctx), raptor_(raptor) {}

  void line(std::string_view text, std::uint64_t number, bool terminated) {
    if (!pending_.empty()) {
      pending_.emplace_back(text);
      retry_pending(terminated);
      return;
    }
    if (!terminated && !ends_statement(text)) {
      // The last line, cut by a killed process. Nobody may read it: raptor accepts a statement
      // without its final " ." at the end of input, and a cut name ("prov:Act" of
      // "prov:Activity", or "prov:x." of "prov:x.y") would become a wrong term.
      if (text.find_first_not_of(" \t\r") != std::string_view::npos) truncated(number);
      return;
    }
    const char* p = text.data();
    const char* e = p + text.size();
    skip_space(p, e);
    if (p == e || *p == '#') return;
    if (*p == '@') {
      if (prefix(p, e)) return;
    } else if (block(p, e)) {
      for (const Triple& t : block_) ctx_.graph->add(t.s, t.p, t.o);
      ctx_.report.triples += block_.size();
      return;
    }
    if (through_raptor(text, number)) return;
    if (!terminated) {
      truncated(number);
      return;
    }
    if (open_ended()) {
      // A statement may go on over the next lines (a long string): wait for them.
      pending_.emplace_back(text);
      pending_number_ = number;
      pending_error_ = ctx_.captured;
      pending_column_ = ctx_.captured_column;
      return;
    }
    report(number, ctx_.captured, ctx_.captured_column);
  }

  // A line damaged on disk (common/reader.cc, line_damage): it is dropped and reported, and a
  // statement it interrupted was not written whole, so its earlier lines go too.
  void drop(std::uint64_t number, const std::string& why, int column) {
    while (!pending_.empty()) give_up_pending(true);
    report(number, why, column);
  }

  // End of the file: a statement still open never ended.
  void finish() {
    if (pending_.empty()) return;
    give_up_pending(false);
  }

 private:
  static constexpr std::size_t kMaxPendingLines = 64;

  static void skip_space(const char*& p, const char* e) {
    while (p < e && (*p == ' ' || *p == '\t' || *p == '\r')) ++p;
  }

  // Ends with " ." (the writer's statement end), blanks after it allowed.
  static bool ends_statement(std::string_view text) {
    while (!text.empty() && (text.back() == ' ' || text.back() == '\t' || text.back() == '\r'))
      text.remove_suffix(1);
    return text.size() >= 2 && text.back() == '.' &&
           (text[text.size() - 2] == ' ' || text[text.size() - 2] == '\t');
  }

  void truncated(std::uint64_t number) {
    if (ctx_.growing) return;  // the writer is still at it: the line ends in a later read
    ctx_.report.damaged = true;
    ctx_.message(number, 0, "truncated statement dropped (file ends mid-line)");
  }

  void report(std::uint64_t number, const std::string& error, int column) {
    ctx_.report.damaged = true;
    ctx_.message(number, column, error + "; line dropped");
  }

  bool open_ended() const {
    return ctx_.captured.find("End of file") != std::string::npos ||
           ctx_.captured.find("$end") != std::string::npos;
  }

  // `text` through raptor, with the prefixes declared so far; errors are kept in ctx_.captured.
  bool through_raptor(std::string_view text, std::uint64_t number) {
    std::string doc = header_;
    doc += text;
    doc += '\n';
    ctx_.line_override = number;
    ctx_.capture = true;
    ctx_.captured.clear();
    bool given = false;
    held_.clear();
    raptor_.hold_statements(&held_);
    bool ok = raptor_.parse("turtle", ctx_, [&](std::string_view& chunk) {
      chunk = given ? std::string_view() : std::string_view(doc);
      bool more = !given;
      given = true;
      return more;
    });
    raptor_.hold_statements(nullptr);
    ctx_.line_override = 0;
    ctx_.capture = false;
    if (ok) keep_held();
    return ok;
  }

  // The statements raptor parsed from text that parsed whole: raptor hands each statement over
  // as soon as it ends, also when the text fails further on (two damaged lines joined by the
  // multi-line retry can make one whole-looking statement before the error).
  void keep_held() {
    for (const HeldTriple& t : held_) {
      ctx_.graph->add(t[0], t[1], t[2]);
      ++ctx_.report.triples;
    }
    held_.clear();
  }

  void retry_pending(bool terminated) {
    std::string joined;
    for (const std::string& l : pending_) joined += l + "\n";
    joined.pop_back();
    if (through_raptor(joined, pending_number_)) {
      pending_.clear();
      return;
    }
    if (open_ended() && terminated && pending_.size() < kMaxPendingLines) return;
    give_up_pending(terminated);
  }

  // The first pending line was bad on its own: report it, read the others again one by one.
  void give_up_pending(bool last_terminated) {
    std::vector<std::string> rest(pending_.begin() + 1, pending_.end());
    std::uint64_t number = pending_number_;
    pending_.clear();
    report(number, pending_error_, pending_column_);
    for (std::size_t i = 0; i < rest.size(); ++i) {
      line(rest[i], number + 1 + i, i + 1 < rest.size() || last_terminated);
    }
    if (!pending_.empty() && !last_terminated) give_up_pending(false);
  }

  // "@prefix name: <iri> ."
  bool prefix(const char*& p, const char* e) {
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

  // "S p o , o ; p o ." into block_; false (nothing kept) if any of it is not the fast path's.
  bool block(const char*& p, const char* e) {
    block_.clear();
    TermId s, pr, o;
    if (!term(p, e, s, 0)) return false;
    while (true) {
      if (!term(p, e, pr, 1)) return false;
      while (true) {
        if (!term(p, e, o, 2)) return false;
        block_.push_back({s, pr, o});
        skip_space(p, e);
        if (p == e || *p != ',') break;
        ++p;
      }
      if (p == e || *p != ';') break;
      ++p;
    }
    return end(p, e);
  }

  bool end(const char*& p, const char* e) {
    skip_space(p, e);
    if (p == e || *p != '.') return false;
    ++p;
    skip_space(p, e);
    return p == e || *p == '#';
  }

  // <iri> with nothing that needs unescaping or resolving: the text is already canonical.
  static bool iriref(const char*& p, const char* e, std::string_view& out) {
    const char* q = p + 1;
    for (; q < e && *q != '>'; ++q) {
      auto c = static_cast<unsigned char>(*q);
      if (c <= 0x20 || c == '<' || c == '"' || c == '{' || c == '}' || c == '|' || c == '^' || c == '`' ||
          c == '\\') {
        return false;
      }
    }
    if (q == e || !has_scheme(std::string_view(p + 1, static_cast<std::size_t>(q - p - 1)))) {
      return false;  // relative IRIs need raptor's resolution
    }
    out = std::string_view(p, static_cast<std::size_t>(q + 1 - p));
    p = q + 1;
    return true;
  }
  static bool iriref(const char*& p, const char* e, std::string& out) {
    std::string_view v;
    if (!iriref(p, e, v)) return false;
    out.assign(v.data(), v.size());
    return true;
  }

  static bool name_char(char c) {
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_' || c == '-';
  }

  // prefix:local, with PN_LOCAL's backslash escapes (`\/`, `\#`, …) and %HH kept as they are.
  bool pname(const char*& p, const char* e, std::string& out) {
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
  bool bare_literal(std::string_view token, std::string& out) {
    if (token == "true" || token == "false") {
      out = '"';
      out += token;
      out += "\"^^<http://www.w3.org/2001/XMLSchema#boolean>";
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
    out += "\"^^<http://www.w3.org/2001/XMLSchema#";
    out += exponent ? "double>" : point ? "decimal>" : "integer>";
    return true;
  }

  static bool unescape(std::string_view body, std::string& raw) {
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

  bool literal(const char*& p, const char* e, std::string& out) {
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
      if (dt_ != "<http://www.w3.org/2001/XMLSchema#string>") {
        out += "^^";
        out += dt_;
      }
    } else if (p < e && *p == '@') {
      const char* lang = ++p;
      while (p < e && (name_char(*p))) ++p;
      if (p == lang) return false;
      out += '@';
      for (const char* c = lang; c < p; ++c)
        out += (*c >= 'A' && *c <= 'Z') ? static_cast<char>(*c - 'A' + 'a') : *c;
    }
    return true;
  }

  // One term at position `pos` (0 subject, 1 predicate, 2 object), then the space after it.
  // Repeated text skips the work: the subject of the previous line, and prefixed names (a few
  // dozen vocabulary terms) through a small cache from their text to their id.
  bool term(const char*& p, const char* e, TermId& id, int pos) {
    skip_space(p, e);
    if (p == e) return false;
    Terms& terms = ctx_.graph->terms;
    if (*p == '<') {
      std::string_view iri;
      if (!iriref(p, e, iri)) return false;
      if (pos == 0 && iri == last_subject_) {
        id = last_subject_id_;
      } else {
        id = terms.intern(iri);
        if (pos == 0) last_subject_.assign(iri.data(), iri.size()), last_subject_id_ = id;
      }
    } else if (*p == '"') {
      if (pos != 2 || !literal(p, e, scratch_)) return false;
      id = terms.intern(scratch_);
    } else if (*p == '_' && p + 1 < e && p[1] == ':') {
      if (pos == 1) return false;
      const char* label = p += 2;
      while (p < e && name_char(*p)) ++p;
      if (p == label) return false;
      scratch_ = ctx_.blank_prefix;
      scratch_.append(label, static_cast<std::size_t>(p - label));
      id = terms.intern(scratch_);
    } else {
      const char* q = p;
      while (q < e && *q != ' ' && *q != '\t' && *q != ',' && *q != ';') q += *q == '\\' && q + 1 < e ? 2 : 1;
      std::string_view token(p, static_cast<std::size_t>(q - p));
      if (token.size() > 1 && token.back() == '.' && pos == 2 && token[token.size() - 2] != '\\')
        token.remove_suffix(1);
      if (pos == 2 && bare_literal(token, scratch_)) {
        id = terms.intern(scratch_);
        p += token.size();
        return p < e && (*p == ' ' || *p == '\t' || *p == '.' || *p == ',' || *p == ';');
      }
      std::size_t slot = std::hash<std::string_view>{}(token) & (kTokenCache - 1);
      if (tokens_[slot].first == token) {
        id = tokens_[slot].second;
        p += token.size();
      } else {
        if (pos == 1 && token == "a") {
          scratch_ = "<http://www.w3.org/1999/02/22-rdf-syntax-ns#type>";
          ++p;
        } else if (!pname(p, e, scratch_) || p != token.data() + token.size()) {
          return false;
        }
        id = terms.intern(scratch_);
        tokens_[slot] = {std::string(token), id};
      }
    }
    // a term ends at a space, or (an object) at the '.', ',' or ';' after it
    return p < e && (*p == ' ' || *p == '\t' || (pos == 2 && (*p == '.' || *p == ',' || *p == ';')));
  }

  static constexpr std::size_t kTokenCache = 256;
  FileContext& ctx_;
  Raptor& raptor_;
  std::vector<std::pair<std::string, std::string>> prefixes_;
  std::string header_;
  std::string scratch_, dt_, raw_, last_subject_;
  std::vector<Triple> block_;         // the line being parsed, added only when all of it is read
  std::vector<HeldTriple> held_;      // statements of the text through_raptor is trying
  std::vector<std::string> pending_;  // lines of a statement raptor saw open at their end
  std::uint64_t pending_number_ = 0;
  std::string pending_error_;
  int pending_column_ = 0;
  TermId last_subject_id_ = kNoTerm;
  std::vector<std::pair<std::string, TermId>> tokens_ =
      std::vector<std::pair<std::string, TermId>>(kTokenCache);
};

// Where a line was damaged on disk: a NUL byte (a crashed node's file often ends in a NUL-filled
// block) or bytes that are not UTF-8 (a flipped bit; N-Triples and Turtle are UTF-8, and such a
// term would make the output invalid). Column 1-based; nullopt if the line is sound.
struct LineDamage {
  const char* what;
  std::size_t column;
};
std::optional<LineDamage> line_damage(std::string_view text) {
  if (const void* nul = std::memchr(text.data(), '\0', text.size()))
    return LineDamage{"NUL bytes", static_cast<std::size_t>(static_cast<const char*>(nul) - text.data()) + 1};
  auto high =
      std::find_if(text.begin(), text.end(), [](char c) { return static_cast<unsigned char>(c) >= 0x80; });
  if (high == text.end()) return std::nullopt;
  std::size_t bad = utf8_error_at(text);
  if (bad == std::string_view::npos) return std::nullopt;
  return LineDamage{"invalid UTF-8", bad + 1};
}

// A NUL byte in the first line: not a damaged RDF file but something else (an executable, an
// image). A NUL further on is damage, reported where it is.
bool binary(std::string_view head) {
  return std::memchr(head.data(), '\0', std::min(head.size(), head.find('\n'))) != nullptr;
}

// One line of a fast-path file to the parser, unless it was damaged on disk.
void feed_line(LineParser& lines, std::string_view text, std::uint64_t number, bool terminated) {
  if (auto damage = line_damage(text)) {
    lines.drop(number, std::string(damage->what), static_cast<int>(damage->column));
    return;
  }
  lines.line(text, number, terminated);
}

// Offset just after the last line that ends with '.' (a statement's end), 0 if none.
std::size_t last_statement_end(std::string_view text) {
  for (std::size_t nl = text.rfind('\n'); nl != std::string_view::npos && nl > 0;
       nl = text.rfind('\n', nl - 1)) {
    std::size_t k = nl;
    while (k > 0 && (text[k - 1] == ' ' || text[k - 1] == '\t' || text[k - 1] == '\r')) --k;
    if (k > 0 && text[k - 1] == '.') return nl + 1;
  }
  return 0;
}

bool blank_or_comments(std::string_view text) {
  std::size_t pos = 0;
  while (pos < text.size()) {
    std::size_t end = text.find('\n', pos);
    if (end == std::string_view::npos) end = text.size();
    std::string_view line = text.substr(pos, end - pos);
    std::size_t first = line.find_first_not_of(" \t\r");
    if (first != std::string_view::npos && line[first] != '#') return false;
    pos = end + 1;
  }
  return true;
}

const char* raptor_syntax_for(const std::string& path) {
  if (has_suffix(path, ".nt")) return "ntriples";
  if (has_suffix(path, ".nq")) return "nquads";
  if (has_suffix(path, ".rdf") || has_suffix(path, ".owl") || has_suffix(path, ".xml")) return "rdfxml";
  if (has_suffix(path, ".json")) return "json";
  return "turtle";
}

void read_one(const std::string& path, std::size_t blank_id, Graph& graph, Raptor& raptor, FileReport& report,
              bool force_raptor, bool growing) {
  FileContext ctx{&path, &graph, {}, "_:b" + std::to_string(blank_id) + "x"};
  ctx.growing = growing;
  ChunkReader in(path);
  if (!in.open_error().empty()) {
    ctx.report.damaged = true;
    ctx.message(0, 0, in.open_error());
    report = std::move(ctx.report);
    return;
  }
  std::string buf;
  auto read_error = [&](std::uint64_t line) {
    ctx.report.damaged = true;
    ctx.message(line, 0, std::string("read error: ") + std::strerror(in.error()) + "; rest of file dropped");
  };
  long n = in.read_into(buf);
  if (n < 0) {
    read_error(0);
  } else if (n == 0) {
    if (!growing) {  // a growing file may just have been created
      ctx.report.damaged = true;
      ctx.message(0, 0, "empty file");
    }
  } else if (!force_raptor && parser_for(path, buf) == "fast") {
    LineParser lines(ctx, raptor);
    std::uint64_t number = 0;
    std::size_t pos = 0;
    while (true) {
      std::size_t nl;
      while ((nl = buf.find('\n', pos)) != std::string::npos) {
        feed_line(lines, std::string_view(buf).substr(pos, nl - pos), ++number, true);
        pos = nl + 1;
      }
      buf.erase(0, pos);
      pos = 0;
      n = in.read_into(buf);
      if (n < 0) {
        lines.finish();
        read_error(number + 1);
        break;
      }
      if (n == 0) {
        if (!buf.empty()) feed_line(lines, buf, ++number, false);
        lines.finish();
        break;
      }
    }
  } else if (binary(buf)) {
    ctx.report.damaged = true;
    ctx.message(0, 0, "skipped: binary data, not RDF");
  } else {
    const std::string syntax = force_raptor ? raptor_syntax_for(path) : parser_for(path, buf);
    ctx.error_suffix = "; rest of file dropped";
    // Line-based syntaxes are fed only up to the last line that ends a statement (". \n"); what
    // follows waits for the next chunk. At the end of the file, a tail that is not blank or
    // comments was cut by a killed writer: raptor would take a cut last statement without its
    // final '.' and a cut name ("prov:Act") as a complete one, so it is reported and not fed.
    bool hold = syntax == "turtle" || syntax == "ntriples" || syntax == "nquads";
    std::string held, fed;
    std::uint64_t lines_fed = 0;
    bool first = true, done = false;
    raptor.parse(syntax.c_str(), ctx, [&](std::string_view& chunk) {
      if (done) {
        chunk = std::string_view();
        return false;
      }
      if (!first) {
        buf.clear();
        long r = in.read_into(buf);
        if (r < 0) read_error(0);
        if (r <= 0) done = true;
      }
      first = false;
      if (!hold) {
        chunk = buf;
        return !done;
      }
      held += buf;
      if (std::size_t nul = held.find('\0'); nul != std::string::npos) {
        // Raptor would stop there without a word (or worse, end a literal): keep the whole
        // statements before the damage, report the rest.
        std::size_t line_start = held.rfind('\n', nul);
        line_start = line_start == std::string::npos ? 0 : line_start + 1;
        std::uint64_t line = lines_fed + 1 +
                             static_cast<std::uint64_t>(std::count(
                                 held.begin(), held.begin() + static_cast<long>(line_start), '\n'));
        ctx.report.damaged = true;
        ctx.message(line, static_cast<int>(nul - line_start + 1), "NUL bytes; rest of file dropped");
        held.resize(last_statement_end(std::string_view(held).substr(0, line_start)));
        done = true;
      }
      std::size_t cut = done && !ctx.growing ? held.size() : last_statement_end(held);
      if (done && !ctx.growing && !blank_or_comments(held.substr(last_statement_end(held)))) {
        std::size_t end = last_statement_end(held);
        std::size_t start = std::min(held.size(), held.find_first_not_of(" \t\r\n", end));  // where it began
        std::uint64_t line = lines_fed + 1 +
                             static_cast<std::uint64_t>(
                                 std::count(held.begin(), held.begin() + static_cast<long>(start), '\n'));
        ctx.report.damaged = true;
        ctx.message(line, 0, "truncated statement dropped (file ends mid-statement)");
        cut = end;
      }
      fed.assign(held, 0, cut);
      held.erase(0, cut);
      lines_fed += static_cast<std::uint64_t>(std::count(fed.begin(), fed.end(), '\n'));
      chunk = fed;
      return !done;
    });
  }
  if (ctx.report.suppressed) {
    std::string m = path + ": " + std::to_string(ctx.report.suppressed) + " more problems not shown";
    ctx.report.messages.push_back(std::move(m));
  }
  report = std::move(ctx.report);
}

}  // namespace

std::string parser_for(const std::string& path, const std::string& first_bytes) {
  if (has_suffix(path, ".nt")) return "fast";
  std::string_view head(first_bytes);
  if (head.substr(0, model::kTurtlePrefixes.size()) == model::kTurtlePrefixes) return "fast";
  return raptor_syntax_for(path);
}

void read_files(const std::vector<std::string>& files, unsigned jobs, Graph& graph, ReadResult& result,
                std::size_t blank_base, bool growing) {
  if (jobs == 0) jobs = std::max(1u, std::thread::hardware_concurrency());
  jobs = static_cast<unsigned>(std::min<std::size_t>(jobs, std::max<std::size_t>(1, files.size())));
  std::vector<FileReport> reports(files.size());
  std::atomic<std::size_t> next{0};
  // Raptor worlds are made here, one after the other: their setup (libxml2's among others) is
  // not safe to run in several threads at once.
  std::vector<std::unique_ptr<Raptor>> raptors;
  for (unsigned t = 0; t < jobs; ++t) raptors.push_back(std::make_unique<Raptor>());
  auto work = [&](Graph& g, Raptor& raptor) {
    for (std::size_t i; (i = next.fetch_add(1)) < files.size();) {
      read_one(files[i], blank_base + i, g, raptor, reports[i], false, growing);
    }
  };
  if (jobs == 1) {
    work(graph, *raptors[0]);
  } else {
    std::vector<Graph> graphs(jobs);
    std::vector<std::thread> threads;
    for (unsigned t = 1; t < jobs; ++t)
      threads.emplace_back(work, std::ref(graphs[t]), std::ref(*raptors[t]));
    work(graph, *raptors[0]);
    for (std::thread& t : threads) t.join();
    for (unsigned t = 1; t < jobs; ++t) {
      graph.merge(graphs[t]);
      graphs[t] = Graph();
    }
  }
  result.files += files.size();
  for (FileReport& r : reports) {
    result.triples_in += r.triples;
    if (r.damaged) ++result.damaged;
    for (std::string& m : r.messages) result.messages.push_back(std::move(m));
  }
}

void read_file_with_raptor(const std::string& path, Graph& graph, ReadResult& result) {
  Raptor raptor;
  FileReport report;
  read_one(path, 0, graph, raptor, report, true, false);
  ++result.files;
  result.triples_in += report.triples;
  if (report.damaged) ++result.damaged;
  for (std::string& m : report.messages) result.messages.push_back(std::move(m));
}

}  // namespace provio::rdf
