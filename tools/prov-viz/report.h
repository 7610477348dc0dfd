// The HTML report: one self-contained page (inline CSS, SVG and JS; no network, no external
// file) a person reads to understand a job: programs, ranks, threads, duration; files and
// objects with bytes; top I/O costs as bar charts; a per-rank timeline; the I/O pages of
// prov-query io and flow (io_pages.h); the outputs' lineage.
// Hard rule: every piece of graph text is HTML-escaped; the page must load with no console error.
#pragma once

#include <string>

#include "query/view.h"

namespace provio::viz {

// Writes the report for the loaded graph. `title` names the inputs.
// `by_rank`: the timeline, the time chart and the lineage graph show each rank of an MPI job step;
// by default a step is one run of N ranks (query/runs.h).
rdf::Status write_report(query::View& v, const std::string& title, bool by_rank, std::string& html);

}  // namespace provio::viz
