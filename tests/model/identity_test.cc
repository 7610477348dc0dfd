// Job and rank from scheduler and launcher variables.
#include "model/identity.h"

#include <gtest/gtest.h>

#include <cstdlib>

#include "model/config.h"

namespace provio::model {
namespace {

class ScopedEnv {
 public:
  ScopedEnv(const char* name, const char* value) : name_(name) {
    if (const char* old = std::getenv(name)) old_ = old, had_ = true;
    setenv(name, value, 1);
  }
  ~ScopedEnv() { had_ ? setenv(name_, old_.c_str(), 1) : unsetenv(name_); }

 private:
  const char* name_;
  std::string old_;
  bool had_ = false;
};

TEST(Identity, SchedulerJobWinsOverLauncher) {
  ScopedEnv a("PMIX_NAMESPACE", "prterun-vm-123@1");
  EXPECT_EQ(job_id_from_env(), "mpi-prterun-vm-123@1");
  ScopedEnv b("SLURM_JOB_ID", "4242");
  EXPECT_EQ(job_id_from_env(), "slurm-4242");
  EXPECT_EQ(output_dir_for("", "/start", job_id_from_env()), "/start/provio/slurm-4242");
}

// One directory per process, from where it started (issue 29 item 9): nothing here reads the
// current directory.
TEST(Identity, OutputDirFromTheStartDirectory) {
  EXPECT_EQ(output_dir_for("/abs/prov", "/start", ""), "/abs/prov");
  EXPECT_EQ(output_dir_for("rel/prov", "/start", ""), "/start/rel/prov");
  EXPECT_EQ(output_dir_for("", "/start", ""), "/start/provio/local");
  EXPECT_EQ(output_dir_for("", "/start", "pbs-1/x"), "/start/provio/pbs-1_x");
  EXPECT_EQ(output_dir_for("", "", ""), "");  // no start directory, no default (docs/security.md)
  EXPECT_EQ(output_dir_for("rel", "", ""), "");
  EXPECT_EQ(output_dir_for("/abs", "", ""), "/abs");
  EXPECT_EQ(output_dir(), output_dir_for(config().dir, identity().working_directory, identity().job_id));
}

TEST(Identity, RankFromLauncher) {
  ScopedEnv a("PMI_RANK", "3");
  EXPECT_EQ(rank_from_env(), 3);
  ScopedEnv b("OMPI_COMM_WORLD_RANK", "7");
  EXPECT_EQ(rank_from_env(), 7);
}

TEST(Identity, ProcessFacts) {
  const Identity& id = identity();
  EXPECT_EQ(id.pid, getpid());
  EXPECT_FALSE(id.user.empty());
  EXPECT_NE(id.executable.find("model_test"), std::string::npos);
  EXPECT_EQ(id.exec_iri.rfind("urn:provio:run:", 0), 0u);
  EXPECT_GT(id.start_ns, 0u);
}

}  // namespace
}  // namespace provio::model

namespace provio::model {
namespace {

// MPI refines the rank after the launcher environment was read; it may also be the first caller.
TEST(Identity, SetMpiRankUpdatesIris) {
  set_mpi_rank(5, 8);
  EXPECT_EQ(identity().rank, 5);
  EXPECT_EQ(identity().ranks, 8);
  set_mpi_rank(5, 8);  // idempotent
  EXPECT_EQ(identity().rank, 5);
}

}  // namespace
}  // namespace provio::model
