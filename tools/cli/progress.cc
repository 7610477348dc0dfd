// Terminal progress line (progress.h).
#include "cli/progress.h"

#include <unistd.h>

#include <cstdio>

namespace provio::cli {

Progress::Progress(const char* tool, bool quiet) : tool_(tool), start_(std::chrono::steady_clock::now()) {
  if (!quiet && ::isatty(STDERR_FILENO)) thread_ = std::thread([this] { run(); });
}

Progress::~Progress() {
  if (!thread_.joinable()) return;
  {
    std::lock_guard<std::mutex> lock(mu_);
    done_ = true;
  }
  cv_.notify_one();
  thread_.join();
  if (shown_) std::fputs("\r\033[K", stderr);  // erase the line: the tool's own summary follows
}

void Progress::step(std::string what) {
  std::lock_guard<std::mutex> lock(mu_);
  what_ = std::move(what);
}

void Progress::run() {
  std::unique_lock<std::mutex> lock(mu_);
  if (cv_.wait_until(lock, start_ + kDelay, [this] { return done_; })) return;
  while (!done_) {
    auto secs = std::chrono::duration_cast<std::chrono::seconds>(std::chrono::steady_clock::now() - start_);
    std::fprintf(stderr, "\r\033[K%s: %s… %lld s", tool_, what_.c_str(),
                 static_cast<long long>(secs.count()));
    std::fflush(stderr);
    shown_ = true;
    cv_.wait_for(lock, std::chrono::seconds(1), [this] { return done_; });
  }
}

}  // namespace provio::cli
