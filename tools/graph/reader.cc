// Reading inputs (see reader.h).
//
// The fast path reads provio's raw per-thread files line by line (line_parser.h). A line it does
// not understand (a Turtle form it does not handle, or damage) is handed to raptor on its own,
// with the prefixes seen so far, so raptor stays the judge of what is valid and the line number in
// its message is the file's. Other files go to raptor whole; raptor stops at its first error and
// keeps what came before.
#include "graph/reader.h"

#include <fcntl.h>
#include <raptor2.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <cstdint>
#include <cstring>
#include <memory>
#include <optional>
#include <string_view>
#include <thread>
#include <utility>

#include "cli/terminal.h"
#include "graph/input.h"
#include "graph/line_parser.h"
#include "graph/raptor_parser.h"
#include "graph/start_deltas.h"
#include "graph/terms.h"
#include "graph/zstd_frames.h"
#include "model/vocabulary.h"

namespace provio::rdf {
namespace {

constexpr std::size_t kChunk = 1 << 20;

bool has_suffix(std::string_view s, std::string_view suffix) {
  return s.size() >= suffix.size() && s.substr(s.size() - suffix.size()) == suffix;
}

// The name without ".zst": the syntax is the compressed content's.
std::string_view content_name(std::string_view path) {
  if (has_suffix(path, ".zst")) path.remove_suffix(4);
  return path;
}

// Reads a file in chunks, decompressing it if it is zstd frames (graph/zstd_frames.h); remembers
// errors.
class ChunkReader {
 public:
  // "-" is standard input; anything but a regular file is refused (graph/input.h).
  // `growing`: the writer may still be at it, a frame cut at the end is not damage.
  ChunkReader(const std::string& path, bool growing) : owned_(path != "-"), growing_(growing) {
    fd_ = open_input(path, open_error_);
  }
  ~ChunkReader() {
    if (fd_ >= 0 && owned_) ::close(fd_);
  }
  ChunkReader(const ChunkReader&) = delete;
  ChunkReader& operator=(const ChunkReader&) = delete;
  // Why the file could not be opened, or empty.
  const std::string& open_error() const { return open_error_; }
  // Appends up to kChunk bytes of the file (of a compressed file, the content of the frames that
  // end in its next bytes: more or nothing) to `buf`; 0 at the end, -1 on error (errno in error()).
  // (Read into a scratch block and appended: growing `buf` by resize() would zero-fill 1 MiB per
  // call, which costs more than parsing a small file.)
  long read_into(std::string& buf) {
    std::size_t before = buf.size();
    while (true) {
      long n = read_raw();
      if (n == 0 && !finished_) {  // an unfinished last frame may hide later ones
        finished_ = true;
        if (frames_)
          frames_->finish(buf, growing_);
        else
          starts_.finish(buf);
        return static_cast<long>(buf.size() - before);
      }
      if (n <= 0) return n;
      std::string_view raw(scratch_.get(), static_cast<std::size_t>(n));
      if (first_) {
        first_ = false;
        if (is_zstd(raw)) frames_ = std::make_unique<ZstdFrames>();
      }
      if (!frames_) {
        // Plain text may be what zstdcat gave: its signed :start values resolved too.
        starts_.feed(raw, buf);
        if (buf.size() > before) return static_cast<long>(buf.size() - before);
        continue;
      }
      // Damaged bytes are skipped, the frames after them kept (damage() says which).
      frames_->feed(raw, buf);
      if (buf.size() > before) return static_cast<long>(buf.size() - before);
    }
  }
  int error() const { return errno_; }
  // At the end of a compressed file: what was lost of it (damaged ranges, a cut last frame).
  std::vector<std::string> damage() const {
    if (!frames_) {
      if (!starts_.dropped().dropped) return {};
      return {dropped_message(starts_.dropped(), "")};
    }
    std::vector<std::string> lost = frames_->damage();
    if (frames_->cut())
      lost.push_back("truncated zstd frame at byte " + std::to_string(frames_->cut_offset()) +
                     " dropped (file ends mid-frame)");
    return lost;
  }

 private:
  long read_raw() {
    if (!scratch_) scratch_.reset(new char[kChunk]);
    ssize_t n;
    do {
      n = ::read(fd_, scratch_.get(), kChunk);
    } while (n < 0 && errno == EINTR);
    if (n < 0) errno_ = errno;
    return n < 0 ? -1 : n;
  }

  bool owned_;
  bool growing_;
  int fd_ = -1;
  int errno_ = 0;
  bool first_ = true;
  bool finished_ = false;  // the end of the file was seen
  std::string open_error_;
  std::unique_ptr<char[]> scratch_;
  std::unique_ptr<ZstdFrames> frames_;
  StartResolver starts_;  // a plain file's
};

// A fast-path file, line by line: what LineParser takes goes into the graph; a line it leaves
// goes to raptor on its own, with the prefixes seen so far (so the line number in raptor's
// message is the file's), joined with the next lines while raptor says its statement is open; a
// line nobody can read is dropped and reported.
class FastFile {
 public:
  FastFile(FileContext& ctx, Raptor& raptor)
      : ctx_(ctx), raptor_(raptor), parser_(ctx.graph->terms, ctx.blank_prefix) {
    parser_.keep_only(ctx.only);
  }

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
    switch (parser_.parse(text)) {
      case LineParser::Line::kEmpty:
      case LineParser::Line::kPrefix: return;
      case LineParser::Line::kTriples:
        batch_.insert(batch_.end(), parser_.triples().begin(), parser_.triples().end());
        if (batch_.size() >= kBatch) add_batch();
        ctx_.report.triples += parser_.triples().size();
        return;
      case LineParser::Line::kOther: break;
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

  // A line damaged on disk (graph/reader.cc, line_damage): it is dropped and reported, and a
  // statement it interrupted was not written whole, so its earlier lines go too.
  void drop(std::uint64_t number, const std::string& why, int column) {
    while (!pending_.empty()) give_up_pending(true);
    report(number, why, column);
  }

  // End of the file: a statement still open never ended.
  void finish() {
    add_batch();
    if (pending_.empty()) return;
    give_up_pending(false);
  }

 private:
  static constexpr std::size_t kMaxPendingLines = 64;
  // Triples of the fast path are added kBatch at a time (N-Triples has one a line): the graph
  // fetches their table slots together (Graph::add), so the cache misses overlap.
  static constexpr std::size_t kBatch = 32;

  void add_batch() {
    ctx_.graph->add(batch_);
    batch_.clear();
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
    std::string doc = parser_.header();
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
    add_batch();  // the fast path's triples before these: the graph keeps the file's order
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

  FileContext& ctx_;
  Raptor& raptor_;
  LineParser parser_;
  std::vector<Triple> batch_;         // the fast path's triples not yet in the graph
  std::vector<HeldTriple> held_;      // statements of the text through_raptor is trying
  std::vector<std::string> pending_;  // lines of a statement raptor saw open at their end
  std::uint64_t pending_number_ = 0;
  std::string pending_error_;
  int pending_column_ = 0;
};

// Where a line was damaged on disk: a NUL byte (a crashed node's file often ends in a NUL-filled
// block) or bytes that are not UTF-8 (a flipped bit; N-Triples and Turtle are UTF-8, and such a
// term would make the output invalid). Column 1-based; nullopt if the line is sound.
struct LineDamage {
  const char* what;
  std::size_t column;
};
// Whether `text` has a NUL or a byte >= 0x80: 8 bytes a step (a sound ASCII line, nearly every
// line, is then read once instead of by memchr and a byte loop).
bool has_nul_or_high_byte(std::string_view text) {
  constexpr std::uint64_t kOnes = 0x0101010101010101ull, kHighs = 0x8080808080808080ull;
  std::size_t i = 0;
  for (; i + 8 <= text.size(); i += 8) {
    std::uint64_t w;
    std::memcpy(&w, text.data() + i, 8);
    if (((w - kOnes) | w) & kHighs) return true;  // a high bit, or a byte that was 0 (borrow)
  }
  for (; i < text.size(); ++i)
    if (text[i] == '\0' || static_cast<unsigned char>(text[i]) >= 0x80) return true;
  return false;
}

std::optional<LineDamage> line_damage(std::string_view text) {
  if (!has_nul_or_high_byte(text)) return std::nullopt;
  if (const void* nul = std::memchr(text.data(), '\0', text.size()))
    return LineDamage{"NUL bytes", static_cast<std::size_t>(static_cast<const char*>(nul) - text.data()) + 1};
  auto high =
      std::find_if(text.begin(), text.end(), [](char c) { return static_cast<unsigned char>(c) >= 0x80; });
  if (high == text.end()) return std::nullopt;
  std::size_t bad = cli::utf8_error_at(text);
  if (bad == std::string_view::npos) return std::nullopt;
  return LineDamage{"invalid UTF-8", bad + 1};
}

// A NUL byte in the first line: not a damaged RDF file but something else (an executable, an
// image). A NUL further on is damage, reported where it is.
bool binary(std::string_view head) {
  return std::memchr(head.data(), '\0', std::min(head.size(), head.find('\n'))) != nullptr;
}

// One line of a fast-path file to the parser, unless it was damaged on disk.
void feed_line(FastFile& lines, std::string_view text, std::uint64_t number, bool terminated) {
  if (auto damage = line_damage(text)) {
    lines.drop(number, std::string(damage->what), static_cast<int>(damage->column));
    return;
  }
  lines.line(text, number, terminated);
}

// The most bytes of one Turtle document given to raptor (its buffer's int length, less a margin).
constexpr std::uint64_t kRaptorTurtleLimit = (std::uint64_t{1} << 31) - (std::uint64_t{1} << 24);

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

const char* raptor_syntax_for(std::string_view path) {
  path = content_name(path);
  if (has_suffix(path, ".nt")) return "ntriples";
  if (has_suffix(path, ".nq")) return "nquads";
  if (has_suffix(path, ".rdf") || has_suffix(path, ".owl") || has_suffix(path, ".xml")) return "rdfxml";
  if (has_suffix(path, ".json")) return "json";
  return "turtle";
}

void read_one(const std::string& path, const std::string& blank_prefix, Graph& graph, Raptor& raptor,
              FileReport& report, bool force_raptor, bool growing, const PredicateFilter* only = nullptr) {
  FileContext ctx{&path, &graph, {}, blank_prefix};
  ctx.growing = growing;
  ctx.only = only;
  ChunkReader in(path, growing);
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
    if (!growing && in.damage().empty()) {  // a growing file may just have been created
      ctx.report.damaged = true;
      ctx.message(0, 0, "empty file");
    }
  } else if (!force_raptor && parser_for(path, buf) == "fast") {
    FastFile lines(ctx, raptor);
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
    // Raptor's Turtle parser keeps the whole document in one buffer indexed by int, and crashes
    // (SIGSEGV) past 2 GiB: what lies beyond is dropped with a message instead.
    const std::uint64_t limit = syntax == "turtle" ? kRaptorTurtleLimit : UINT64_MAX;
    std::uint64_t bytes_fed = 0;
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
      if (bytes_fed + cut > limit) {
        cut = last_statement_end(std::string_view(held).substr(0, limit - bytes_fed));
        std::uint64_t line =
            lines_fed + 1 +
            static_cast<std::uint64_t>(std::count(held.begin(), held.begin() + static_cast<long>(cut), '\n'));
        ctx.report.damaged = true;
        ctx.message(line, 0,
                    "Turtle document larger than 2 GiB, more than raptor's Turtle parser holds; rest of file "
                    "dropped (prov-merge -f ntriples writes a graph of any size)");
        done = true;
      }
      bytes_fed += cut;
      fed.assign(held, 0, cut);
      held.erase(0, cut);
      lines_fed += static_cast<std::uint64_t>(std::count(fed.begin(), fed.end(), '\n'));
      chunk = fed;
      return !done;
    });
  }
  for (const std::string& lost : in.damage()) {
    ctx.report.damaged = true;
    ctx.message(0, 0, lost);
  }
  if (ctx.report.suppressed) {
    std::string m = path + ": " + std::to_string(ctx.report.suppressed) + " more problems not shown";
    ctx.report.messages.push_back(std::move(m));
  }
  report = std::move(ctx.report);
}

}  // namespace

PredicateFilter::PredicateFilter(std::vector<std::string> predicate_terms)
    : terms_(std::move(predicate_terms)) {
  for (const std::string& t : terms_) keep_.insert(t);
}

std::string parser_for(const std::string& path, const std::string& first_bytes) {
  if (has_suffix(content_name(path), ".nt")) return "fast";
  std::string_view head(first_bytes);
  if (head.substr(0, model::kTurtlePrefixes.size()) == model::kTurtlePrefixes) return "fast";
  return raptor_syntax_for(path);
}

void read_files(const std::vector<std::string>& files, unsigned jobs, Graph& graph, ReadResult& result,
                std::size_t blank_base, bool growing, const PredicateFilter* only) {
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
      read_one(files[i], "_:b" + std::to_string(blank_base + i) + "x", g, raptor, reports[i], false, growing,
               only);
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

namespace {

void read_alone(const std::string& path, const std::string& blank_prefix, bool force_raptor, Graph& graph,
                ReadResult& result) {
  Raptor raptor;
  FileReport report;
  read_one(path, blank_prefix, graph, raptor, report, force_raptor, false);
  ++result.files;
  result.triples_in += report.triples;
  if (report.damaged) ++result.damaged;
  for (std::string& m : report.messages) result.messages.push_back(std::move(m));
}

}  // namespace

void read_file_with_raptor(const std::string& path, Graph& graph, ReadResult& result) {
  read_alone(path, "_:b0x", true, graph, result);
}

void read_file_keeping_blank_labels(const std::string& path, Graph& graph, ReadResult& result) {
  read_alone(path, "_:", false, graph, result);
}

}  // namespace provio::rdf
