// The process's memory bound for provio's buffers (PROVIO_MEMORY): one counter of the bytes all
// thread logs hold, which a new log (recorder.cc) and a growing table (summary_table.h) or
// record bank (record_buffer.h) take from.
//
// Hard rule: lock-free (a compare-and-swap loop): a table grows on its owner's recording path.
#pragma once

#include <cstddef>

namespace provio::store {

// Takes `bytes` more of the bound for a growing buffer; false (nothing taken) if that would pass
// it.
bool reserve_memory(std::size_t bytes);
// Takes `bytes` whatever the bound (a log whose size the caller checked against it) / gives them
// back (a log destroyed).
void take_memory(std::size_t bytes);
void release_memory(std::size_t bytes);
// Bytes taken now.
std::size_t memory_in_use();
// Forgets every taken byte (a fork child's fresh start, tests).
void reset_memory();

}  // namespace provio::store
