// Reading provenance files into a Graph: provio's raw per-thread files through a fast line parser,
// anything else (merged pretty Turtle, RDF/XML, …) through raptor, which stays the reference.
//
// Hard rule: never drop data silently. Every line or file that cannot be read gives a message
// "path:line[:col]: text" and marks the file damaged; everything readable is kept.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <unordered_set>
#include <vector>

#include "cli/trust.h"
#include "graph/graph.h"

namespace provio::rdf {

struct ReadResult {
  std::size_t files = 0;              // files read (or tried)
  std::uint64_t triples_in = 0;       // statements parsed, duplicates included
  std::size_t damaged = 0;            // files or inputs with something dropped or skipped
  std::vector<std::string> messages;  // in input order, without the tool's name
};

// The predicates a read keeps (prov-query sparql: those its query can match, docs/sparql.md):
// every other statement is parsed and checked as usual, then left out before its subject and
// object are interned. Its predicate is interned all the same, so the graph's terms tell which
// predicates the input had. Terms in canonical spelling ("<iri>").
class PredicateFilter {
 public:
  explicit PredicateFilter(std::vector<std::string> predicate_terms);
  PredicateFilter(const PredicateFilter&) = delete;
  PredicateFilter& operator=(const PredicateFilter&) = delete;
  bool keeps(std::string_view predicate) const { return keep_.count(predicate) != 0; }

 private:
  std::vector<std::string> terms_;
  std::unordered_set<std::string_view> keep_;  // views of terms_
};

// Expands command-line inputs into files: a directory is searched recursively for *.ttl and *.nt
// files (in name order), following symlinked directories once (a loop is reported, not followed);
// a file is taken as given. Entries that cannot be read, and anything but regular files, are
// reported in `result` and counted as damaged; so are other files found in directories unless
// `other_files_are_damage` is false (then they are left out silently). An input or entry another
// user could have planted (cli/trust.h) is refused and counted as damaged, or with
// OtherOwners::kWarn read after a warning naming it. graph/input.cc.
std::vector<std::string> list_inputs(const std::vector<std::string>& args, ReadResult& result,
                                     bool other_files_are_damage = true,
                                     cli::OtherOwners other_owners = cli::OtherOwners::kRefuse);

// Which parser a file gets: "fast" (provio raw files and N-Triples) or a raptor parser name.
std::string parser_for(const std::string& path, const std::string& first_bytes);

// Parses `files` with `jobs` threads (0: all cores) and adds their triples to `graph`.
// `blank_base` keeps blank node labels of different calls apart (MPI ranks pass their offset).
// `growing`: the files may still be written (prov-merge --follow): a last line or statement
// without its end is left out silently (a later read gets it whole), an empty file is no problem.
// `only`: keep only the statements with these predicates (null: all).
void read_files(const std::vector<std::string>& files, unsigned jobs, Graph& graph, ReadResult& result,
                std::size_t blank_base = 0, bool growing = false, const PredicateFilter* only = nullptr);

// Only the raptor path for one file (tests compare it with the fast path).
void read_file_with_raptor(const std::string& path, Graph& graph, ReadResult& result);

// One file, its blank node labels kept as written: a store's triples (store_lines.h), whose labels
// were made distinct when they were first read, as Redland's store keeps them.
void read_file_keeping_blank_labels(const std::string& path, Graph& graph, ReadResult& result);

}  // namespace provio::rdf
