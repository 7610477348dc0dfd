// Progress on a terminal for steps that may take a while (merging, loading a large graph): after
// kDelay without finishing, one line on stderr, rewritten in place every second —
// "prov-merge: reading 1200 files… 4 s" — and erased when done.
// Hard rule: nothing at all unless stderr is a terminal and the tool is not --quiet, so logs,
// pipes and tests see exactly the output they saw before.
#pragma once

#include <chrono>
#include <condition_variable>
#include <mutex>
#include <string>
#include <thread>

namespace provio::cli {

class Progress {
 public:
  static constexpr std::chrono::seconds kDelay{2};

  // `tool` must outlive the object (a string literal).
  Progress(const char* tool, bool quiet);
  ~Progress();
  Progress(const Progress&) = delete;
  Progress& operator=(const Progress&) = delete;

  // What is being done now ("reading 1200 files").
  void step(std::string what);

 private:
  void run();

  const char* tool_;
  std::chrono::steady_clock::time_point start_;
  std::mutex mu_;
  std::condition_variable cv_;
  std::string what_;    // guarded by mu_
  bool done_ = false;   // guarded by mu_
  bool shown_ = false;  // written only by the thread
  std::thread thread_;  // only when enabled
};

}  // namespace provio::cli
