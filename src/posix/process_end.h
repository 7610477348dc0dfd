// How a traced program ends: provenance is flushed first when it ends by _exit or _Exit (dash, the
// Debian /bin/sh, ends every command with _exit), or by a signal that a batch system or a user
// ends a job with (SIGTERM at the time limit, SIGINT, SIGHUP, SIGXCPU). docs/reliability.md.
#pragma once

namespace provio::posix {

// Installs provio's handler for each terminating signal whose disposition is the default
// (library constructor; single-threaded).
void install_end_handlers();

}  // namespace provio::posix
