// The reader's fast path (reader.h): one line of provio's raw per-thread files into triples,
// without raptor. A raw file is a fixed @prefix header, then one subject block per line
// (`S p o ; p o , o .`: the current format) or one statement per line (the format before it;
// docs/format.md), with @prefix lines anywhere. Terms come out in the graph's canonical spelling
// (graph.h).
//
// Hard rule: a line is taken whole or not at all. Anything this parser does not handle (a Turtle
// form it does not know, relative IRIs, long strings, damage) is kOther with nothing kept, and
// the reader hands that line to raptor, which stays the judge of what is valid.
#pragma once

#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "graph/graph.h"

namespace provio::rdf {

class PredicateFilter;  // reader.h

class LineParser {
 public:
  // Terms are interned in `terms`; blank node labels get `blank_prefix` ("_:b<n>x") so that the
  // blank nodes of different files stay apart.
  LineParser(Terms& terms, std::string blank_prefix);
  // Keeps only the triples whose predicate `only` keeps (reader.h): the others are parsed and
  // checked as usual, but their subject and object are not interned.
  void keep_only(const PredicateFilter* only) { only_ = only; }

  enum class Line { kEmpty, kPrefix, kTriples, kOther };
  // One line without its '\n': kEmpty (blank or a comment), kPrefix (an @prefix, remembered),
  // kTriples (triples() holds every triple of the line) or kOther (nothing kept).
  Line parse(std::string_view text);
  const std::vector<Triple>& triples() const { return block_; }
  // The @prefix lines read so far: a Turtle header for parsing a kOther line elsewhere.
  const std::string& header() const { return header_; }

 private:
  bool prefix(const char*& p, const char* e);
  bool block(const char*& p, const char* e);
  bool end(const char*& p, const char* e);
  bool pname(const char*& p, const char* e, std::string& out);
  bool bare_literal(std::string_view token, std::string& out);
  bool literal(const char*& p, const char* e, std::string& out);
  bool term(const char*& p, const char* e, TermId& id, int pos);
  TermId intern(std::string_view text);
  bool kept(TermId predicate);

  static constexpr std::size_t kTokenCache = 256;
  Terms& terms_;
  std::string blank_prefix_;
  std::vector<std::pair<std::string, std::string>> prefixes_;
  std::string header_;
  std::string scratch_, dt_, raw_, last_subject_;
  std::vector<Triple> block_;  // the line being parsed, handed out only when all of it is read
  TermId last_subject_id_ = kNoTerm;
  std::vector<std::pair<std::string, TermId>> tokens_;  // prefixed name → id (see term())
  const PredicateFilter* only_ = nullptr;
  bool interning_ = true;   // false: term() checks a term and gives kNoTerm
  std::vector<char> kept_;  // predicate id → 0 unknown, 1 left out, 2 kept (only_'s answer)
};

}  // namespace provio::rdf
