// The reader's raptor side (reader.h): one raptor world per reading thread, which parses a whole
// file (merged Turtle, RDF/XML, …) or one line the fast path left (line_parser.h) into the graph,
// and the per-file context both paths report into.
//
// Hard rule: raptor's messages are never lost and never printed: each becomes a
// "path:line[:col]: text" message of the file (FileContext::message) and marks it damaged.
// Internal to tools/graph.
#pragma once

#include <raptor2.h>

#include <array>
#include <cstdint>
#include <functional>
#include <string>
#include <string_view>
#include <vector>

#include "graph/graph.h"

namespace provio::rdf {

inline constexpr int kMaxMessagesPerFile = 10;

class PredicateFilter;  // reader.h

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
  // Statements with other predicates are left out (reader.h); null: none.
  const PredicateFilter* only = nullptr;

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

// A statement raptor parsed, in canonical spelling, not yet added to the graph.
using HeldTriple = std::array<std::string, 3>;

// A raptor world for one thread, with a log handler that reports into the current file.
class Raptor {
 public:
  Raptor();
  ~Raptor() { raptor_free_world(world_); }
  Raptor(const Raptor&) = delete;
  Raptor& operator=(const Raptor&) = delete;

  // While `into` is set, parsed statements are held there instead of going into the graph: the
  // caller keeps them only if the whole text parsed (a statement is kept only if written whole).
  void hold_statements(std::vector<HeldTriple>* into) { held_ = into; }

  // Parses the chunks `next` yields (false at the end) with raptor parser `syntax`.
  // Returns false if raptor reported an error.
  bool parse(const char* syntax, FileContext& ctx, const std::function<bool(std::string_view&)>& next);

 private:
  static void log(void* data, raptor_log_message* m);

  static void term_text(FileContext& ctx, raptor_term* t, std::string& out);

  static void statement(void* data, raptor_statement* st);

  // A statement the output could not keep valid for every reader (raptor passes some bytes that
  // are not UTF-8 through into IRIs; raptor_refuses_iri): dropped with `text` as its message
  // (and, under capture, fails the parse).
  void drop_statement(FileContext& ctx, const char* text);

  raptor_world* world_;
  raptor_parser* parser_ = nullptr;
  FileContext* ctx_ = nullptr;
  bool failed_ = false;
  std::string s_, p_, o_;
  std::vector<HeldTriple>* held_ = nullptr;
};

}  // namespace provio::rdf
