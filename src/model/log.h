// provio's own diagnostics. Inside a traced application provio never prints to stdout: messages
// go to stderr (or the file named by PROVIO_LOG), each kind of message once, and at most
// kMaxMessages in all, so a broken disk cannot flood the application's terminal.
#pragma once

namespace provio::model {

// Reports `fmt` the first time `key` is seen; later calls with the same key are silent.
void warn_once(const char* key, const char* fmt, ...) __attribute__((format(printf, 2, 3)));

// Number of distinct messages printed so far (for tests).
int warnings_printed();

}  // namespace provio::model
