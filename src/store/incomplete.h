// The statements that say what provio could not record (docs/format.md, "Incomplete
// provenance"): the program execution gets a provio:incomplete node per reason and flush,
// carrying provio:reason and provio:lost; prov-query and the report sum the counts. The counters
// themselves are the model's (model/losses.h): every layer counts, the store writes.
#pragma once

#include <string>

#include "model/losses.h"

namespace provio::store {

using model::count_loss;
using model::Loss;
using model::losses;

// Appends, for every reason with losses not yet written, one incomplete node to `out` and marks
// those losses written. `node_base`: an IRI unique to this flush (thread and flush number), to
// which "/<reason>" is added, so that nodes from different flushes never merge.
void append_losses(std::string& out, const std::string& exec_iri, const std::string& node_base);

}  // namespace provio::store
