// One thread's provenance file, written through raw syscalls so that the preload shim does not
// see provio's own I/O.
//
// Hard rule: provio never writes through a descriptor it does not own at that moment. The
// application may close, dup2 over or close_range any descriptor number at any time (shells do
// `exec 3>log`, daemons close 3..1024 after fork), and only the preload library could see that
// happen — the VOL connector alone cannot. So no descriptor is kept between writes: each write
// opens the file by name (O_APPEND | O_NOFOLLOW | O_CLOEXEC), checks that it is still the file this
// object created (device and inode), writes, and closes. Every write is checked; the first failure
// is reported once and the file goes quiet (sticky error), the application carries on. The events
// whose text a failed write carried, or that come after it, are counted lost here (model/losses.h),
// whichever thread wrote, so the graph says what the file lacks (store/incomplete.h).
//
// Compressed files (PROVIO_COMPRESS=zstd, "<stem>.ttl.zst"): each write() becomes one zstd frame
// (store/frame_compressor.h), so a killed process's file keeps every frame written whole. The
// compressing is the background writer's (store/background_writer.h), never the application's:
// a write() on another thread copies its bytes to `pending_` and queues the file; the writer
// compresses what is pending as one frame and writes it. Only when the writer cannot take the job,
// and at process exit (set_write_through), does the calling thread compress, its file's pending
// bytes first, so a file's frames keep the order of its writes. A write's events travel with its
// bytes: a frame that cannot be written counts as lost the events of every write it holds.
#pragma once

#include <sys/types.h>

#include <atomic>
#include <cstdint>
#include <mutex>
#include <string>
#include <string_view>

#include "store/incomplete.h"

namespace provio::store {

class OutputFile {
 public:
  OutputFile() = default;
  // Waits for the writer thread's job for this file, if one is queued.
  ~OutputFile();
  OutputFile(const OutputFile&) = delete;
  OutputFile& operator=(const OutputFile&) = delete;

  // Creates `dir` (and parents) and a new file "<stem>.ttl" (".ttl.zst" when compressed) in it
  // ("<stem>-1.ttl", … if taken) with O_EXCL | O_NOFOLLOW: never follows a planted symlink, never
  // appends to another's file. A directory another user could tamper with is refused
  // (store/output_dir.h).
  bool open(const std::string& dir, const std::string& stem);
  bool is_open() const { return created_ && !failed(); }
  bool failed() const { return failed_.load(std::memory_order_acquire); }
  // Why the file went quiet: the free-space reserve, or an error.
  Loss failure() const { return failure_.load(std::memory_order_acquire); }
  const std::string& path() const { return path_; }

  // Appends all of `data`, the text of `events` recorded events (a compressed file: queues it for
  // the writer thread); false (and the sticky error) if it could not. Events whose text does not
  // reach the file are counted lost for failure(), now or when the writer thread fails to write
  // them; the caller counts nothing more.
  bool write(std::string_view data, std::uint64_t events = 0);
  // Fork child: the file stays the parent's; this object forgets it without writing.
  void abandon();
  // Writer thread (background_writer.h): compresses and writes the pending bytes as one frame.
  // Its last touch of this object.
  void write_pending();

  // Process exit: what is pending is written first (the writer thread is waited for), then each
  // write compresses on the calling thread (nothing is left to run after it).
  static void set_write_through(bool on);

 private:
  // Compresses the pending bytes and `data` into one frame and writes it, on this thread.
  bool write_frame_now(std::string_view data, std::uint64_t events);
  // Compresses `plain` (the text of `events` events) into one frame and writes it; the events are
  // lost if it cannot. The caller holds write_mutex_.
  bool write_frame(const std::string& plain, std::uint64_t events);
  // Counts `events` lost for failure().
  void lose(std::uint64_t events) const;
  // Appends bytes as they are; false (and the sticky error) if it could not.
  bool append(std::string_view data);
  // A descriptor of this object's file opened for appending (`size`: the file's size), or -1
  // (sticky error set).
  int reopen(off_t& size);
  void fail(const char* what, int err);

  bool created_ = false;
  std::atomic<bool> failed_{false};                 // set by whichever thread writes (sticky)
  std::atomic<Loss> failure_{Loss::kOutputFailed};  // set before failed_
  bool compressed_ = false;
  dev_t dev_ = 0;
  ino_t ino_ = 0;
  std::string path_;

  std::mutex write_mutex_;            // held while a frame is compressed and written
  std::mutex pending_mutex_;          // held only to add to or take `pending_`
  std::string pending_;               // bytes written but not yet compressed; guarded by pending_mutex_
  std::uint64_t pending_events_ = 0;  // the events whose text is in pending_; guarded by pending_mutex_
  bool queued_ = false;               // a writer job will take `pending_`; guarded by pending_mutex_
  std::atomic<unsigned> jobs_{0};     // writer jobs queued or running for this file
};

}  // namespace provio::store
