// The back end of a prov-merge store directory (graph/store_layout.h), opened read-only in
// Redland (hashes, bdb): navigation through the store's own indexes, without reading it whole;
// SPARQL reads it whole into a graph for Oxigraph (local_graph.h, sparql_on).
// Hard rule: nothing here throws or prints; Redland's errors come back in the Status.
#pragma once

#include <redland.h>

#include <string>

#include "query/source.h"

namespace provio::query {

class StoreGraph : public Source {
 public:
  StoreGraph();
  ~StoreGraph() override;
  StoreGraph(const StoreGraph&) = delete;
  StoreGraph& operator=(const StoreGraph&) = delete;

  // Opens the store in `dir` read-only.
  rdf::Status open(const std::string& dir);

  std::vector<Cell> objects(std::string_view s, std::string_view p) const override;
  std::vector<std::string> subjects(std::string_view p, std::string_view o) const override;
  std::string value(std::string_view s, std::string_view p) const override;
  bool has_subject(std::string_view s) const override;
  bool has_object(std::string_view o) const override;
  std::size_t size() const override;
  rdf::Status sparql(std::string_view text, Table& out) override;

 private:
  rdf::Status take_error(std::string_view what);

  librdf_world* world_ = nullptr;
  librdf_storage* storage_ = nullptr;
  librdf_model* model_ = nullptr;
  std::string dir_;
  std::string first_error_;  // filled by the Redland logger
  friend int store_log_handler(void*, librdf_log_message*);
};

}  // namespace provio::query
