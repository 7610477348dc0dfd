// The exec'd child's environment: the caller's, with exactly one PROVIO_PARENT_RUN (ours).
#include "posix/exec_env.h"

#include <gtest/gtest.h>

#include <cstring>
#include <string>
#include <vector>

#include "model/identity.h"

namespace provio::posix {
namespace {

TEST(ExecEnv, CountsNullAsEmpty) {
  EXPECT_EQ(env_count(nullptr), 0u);
  char* env[] = {const_cast<char*>("A=1"), const_cast<char*>("B=2"), nullptr};
  EXPECT_EQ(env_count(env), 2u);
}

TEST(ExecEnv, ReplacesEveryParentRunEntryWithOurs) {
  char* env[] = {const_cast<char*>("A=1"), const_cast<char*>("PROVIO_PARENT_RUN=urn:old"),
                 const_cast<char*>("PROVIO_PARENT_RUNX=keep"),
                 const_cast<char*>("PROVIO_PARENT_RUN=urn:old2"), nullptr};
  std::vector<char*> out(env_count(env) + 2);
  child_env(out.data(), env, "PROVIO_PARENT_RUN=urn:new");
  std::vector<std::string> got;
  for (char** p = out.data(); *p; ++p) got.emplace_back(*p);
  EXPECT_EQ(got, (std::vector<std::string>{"A=1", "PROVIO_PARENT_RUNX=keep", "PROVIO_PARENT_RUN=urn:new"}));
}

TEST(ExecEnv, EmptyEnvironmentGetsOnlyOurs) {
  std::vector<char*> out(2);
  child_env(out.data(), nullptr, "PROVIO_PARENT_RUN=urn:x");
  EXPECT_STREQ(out[0], "PROVIO_PARENT_RUN=urn:x");
  EXPECT_EQ(out[1], nullptr);
}

TEST(ExecEnv, EntryNamesThisRun) {
  char entry[kEntrySize];
  ASSERT_TRUE(parent_run_entry(entry));
  EXPECT_EQ(std::string(entry), "PROVIO_PARENT_RUN=" + model::identity().exec_iri);
}

}  // namespace
}  // namespace provio::posix
