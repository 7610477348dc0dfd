// prov-query remake FILE: the commands that produced FILE's current version from its inputs, as
// a shell script a person reads and runs (docs/prov-query.md, "Remake"): in dependency order,
// each with its working directory, command line, rank count, workflow values, and the versions
// it read with whether they are still there now. ReproZip and noWorkflow are the references for
// what users expect; this works from I/O provenance alone.
//
// Hard rule: the script is made from the graph and the file system as they are now; it runs
// nothing. Lineage is the one of lineage.h, grouped into runs as runs.h does.
#pragma once

#include <string>

#include "query/view.h"

namespace provio::query {

// `entity`: FILE's IRI (View::resolve); `path`: FILE as the user named it, stat'ed for its
// current version. Fills `script`; returns a message when there is nothing to remake.
Status remake_script(View& v, const std::string& entity, const std::string& path, std::string& script);

}  // namespace provio::query
