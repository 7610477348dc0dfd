// HTML pieces the report's pages share: escaping, durations, sortable tables, bar charts.
// Hard rule: every piece of graph text goes through html_escape.
#pragma once

#include <functional>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

#include "graph/status.h"
#include "query/table.h"

namespace provio::viz {

std::string html_escape(const std::string& s);
// "12.3 µs", "4.56 ms", "7.89 s".
std::string seconds_text(double s);
// A sortable table of `t`'s columns but `skip`; `id` names it (the tests find the report's
// tables by it), none when empty. Cells print their exact values, as prov-query's CSV does.
void table_html(std::ostringstream& out, const query::Table& t,
                const std::vector<std::string>& skip = {"iri"}, const std::string& id = "");
// table_html, folded under its row count when longer than 30 rows (`what` names the rows): the
// report's long reference tables.
void folded(std::ostringstream& out, const query::Table& t, const std::vector<std::string>& skip,
            const std::string& id, const std::string& what);
// A horizontal bar chart as inline SVG: label, bar, value text (`fmt`).
void bars(std::ostringstream& out, const std::string& title,
          const std::vector<std::pair<std::string, double>>& items,
          const std::function<std::string(double)>& fmt, const char* colour);

// Graphviz's SVG of `dot`, inline in a <div class="graph"> (no XML prolog).
[[nodiscard]] rdf::Status inline_svg(std::ostringstream& out, const std::string& dot);

}  // namespace provio::viz
