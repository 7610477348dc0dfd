// _exit without the preload library. A program that ends with _exit or _Exit skips atexit, so
// only a wrapper of _exit can flush its last buffers; the preload library has one, but the VOL
// connector alone is dlopen()ed by HDF5 and cannot interpose symbols. PyTorch's DataLoader workers
// (every multiprocessing child started by fork), dash and Open MPI's MPI_Abort end that way.
// So when the connector is loaded without the preload library, the _exit and _Exit entries of the
// global offset tables of the objects loaded at that time are pointed at a hook that flushes
// (store/process_end.h) and then calls the real _exit. Objects loaded later keep the real one.
//
// Hard rule: the program's _exit keeps its meaning (same status, nothing printed, errno unseen);
// a table that cannot be changed is left as it is.
#pragma once

namespace provio::store {

// The preload library is loaded and wraps _exit itself: the hook is not installed.
void note_exit_wrapped();

// Installs the hook in the objects loaded now (once per process; a fork child inherits it).
// x86-64 and AArch64; elsewhere nothing.
void hook_exit();

}  // namespace provio::store
