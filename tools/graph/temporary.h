// Names of the tools' temporaries (an output file's, a store's) and the removal of those a killed
// tool left behind (docs/reliability.md).
//
// Hard rule: a temporary is removed only when it is certainly dead: its name carries the host and
// the pid of the process that made it, that host is this one, no process has that pid, and it
// belongs to the user running the tool. A live merge's temporary (on this node or on another node
// of a shared file system) and another user's files are never touched.
#pragma once

#include <string>
#include <string_view>

namespace provio::rdf {

// A mkstemp/mkdtemp template for a temporary beside `prefix`: "PREFIX.tmp-HOST-PID-XXXXXX".
std::string temporary_template(const std::string& prefix);

// Whether no process of this host has the pid written in `digits` (false if it is no pid).
bool process_gone(std::string_view digits);

// Removes the dead temporaries of `prefix` (files, or whole directories).
void remove_dead_temporaries(const std::string& prefix);

}  // namespace provio::rdf
