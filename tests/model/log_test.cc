// provio's diagnostics: each kind of message once, and never a hang in a forked child.
#include "model/log.h"

#include <gtest/gtest.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <atomic>
#include <chrono>
#include <cstdlib>
#include <string>
#include <thread>

namespace provio::model {
namespace {

// Messages go to a file of the test's own, not to the test runner's stderr.
class LogTest : public ::testing::Test {
 protected:
  void SetUp() override {
    path_ = ::testing::TempDir() + "provio_log_test." + std::to_string(getpid());
    setenv("PROVIO_LOG", path_.c_str(), 1);
  }
  void TearDown() override {
    unsetenv("PROVIO_LOG");
    unlink(path_.c_str());
  }
  std::string path_;
};

TEST_F(LogTest, EachKeyIsReportedOnce) {
  int before = warnings_printed();
  warn_once("log_test.once", "first %d", 1);
  warn_once("log_test.once", "again %d", 2);
  warn_once("log_test.other", "other");
  EXPECT_EQ(warnings_printed(), before + 2);
}

// Waits for `pid` up to `seconds`; kills it and returns false when it does not end.
bool ended_within(pid_t pid, int seconds) {
  auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(seconds);
  while (std::chrono::steady_clock::now() < deadline) {
    int status = 0;
    if (waitpid(pid, &status, WNOHANG) == pid) return WIFEXITED(status) && WEXITSTATUS(status) == 0;
    usleep(1000);
  }
  kill(pid, SIGKILL);
  waitpid(pid, nullptr, 0);
  return false;
}

// A thread that keeps warning holds the messages' lock most of the time; a child forked meanwhile
// must still be able to warn (before the fix it waited forever for a lock no thread would release).
TEST_F(LogTest, ChildOfAForkDuringAWarningCanWarn) {
  std::atomic<bool> stop{false};
  std::thread warner([&] {
    while (!stop.load(std::memory_order_relaxed)) warn_once("log_test.busy", "busy");
  });
  int hung = 0;
  for (int i = 0; i < 100 && hung == 0; ++i) {
    pid_t pid = fork();
    ASSERT_GE(pid, 0);
    if (pid == 0) {
      warn_once("log_test.child", "child");
      _exit(0);
    }
    if (!ended_within(pid, 5)) ++hung;
  }
  stop = true;
  warner.join();
  EXPECT_EQ(hung, 0) << "a forked child hung in warn_once";
}

}  // namespace
}  // namespace provio::model
