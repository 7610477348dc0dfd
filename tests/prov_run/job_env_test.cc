// The job's environment and its forwarding per launcher (tools/prov-run/job_env.h, launcher.h).
#include "job_env.h"

#include <gtest/gtest.h>

#include <map>

#include "launcher.h"

namespace provio::run {
namespace {

TEST(JobEnv, ConnectorOverNativeWhenUnset) {
  EXPECT_EQ(stack_connector(""), "provio under_vol=0;under_info={}");
  EXPECT_EQ(stack_connector("  "), "provio under_vol=0;under_info={}");
}

TEST(JobEnv, ConnectorStacksOverTheUsersOne) {
  EXPECT_EQ(stack_connector("async under_vol=0;under_info={}"),
            "provio under_vol=async;under_info={under_vol=0;under_info={}}");
  EXPECT_EQ(stack_connector("512"), "provio under_vol=512;under_info={}");
  EXPECT_EQ(stack_connector("provio under_vol=0;under_info={};level=trace"),
            "provio under_vol=0;under_info={};level=trace");
}

TEST(JobEnv, ListsArePrependedOnce) {
  EXPECT_EQ(prepend_list("/p/lib.so", "", ':'), "/p/lib.so");
  EXPECT_EQ(prepend_list("/p/lib.so", "/x/other.so", ':'), "/p/lib.so:/x/other.so");
  EXPECT_EQ(prepend_list("/p/lib.so", "/x/other.so:/p/lib.so", ':'), "/x/other.so:/p/lib.so");
  EXPECT_EQ(prepend_list("/p", "/p2", ':'), "/p:/p2");
}

TEST(JobEnv, VariablesFollowTheSettings) {
  std::map<std::string, std::string> env = {{"LD_PRELOAD", "/x/mine.so"},
                                            {"HDF5_PLUGIN_PATH", "/h5/plugins"}};
  auto lookup = [&](const char* n) -> const char* {
    auto it = env.find(n);
    return it == env.end() ? nullptr : it->second.c_str();
  };
  JobSettings s;
  s.plugin_dir = "/p/plugins";
  s.preload = "/p/libprovio_posix.so";
  s.dir = "/scratch/prov";
  s.workflow = "wf";
  auto vars = job_environment(s, lookup);
  std::vector<std::string> names;
  for (const auto& v : vars) names.push_back(v.name + "=" + v.value);
  EXPECT_EQ(names, (std::vector<std::string>{"HDF5_PLUGIN_PATH=/p/plugins:/h5/plugins",
                                             "HDF5_VOL_CONNECTOR=provio under_vol=0;under_info={}",
                                             "LD_PRELOAD=/p/libprovio_posix.so:/x/mine.so",
                                             "PROVIO_DIR=/scratch/prov", "PROVIO_WORKFLOW=wf"}));
  // Unset, HDF5_PLUGIN_PATH keeps HDF5's default directory after ours.
  env.erase("HDF5_PLUGIN_PATH");
  s.hdf5_plugin_dir = "/usr/local/hdf5/lib/plugin";
  EXPECT_EQ(job_environment(s, lookup)[0].value, "/p/plugins:/usr/local/hdf5/lib/plugin");
  s.vol = false;
  s.posix = false;
  EXPECT_EQ(job_environment(s, lookup).size(), 2u);
}

TEST(JobEnv, ShellQuoting) {
  EXPECT_EQ(shell_quote("a b"), "'a b'");
  EXPECT_EQ(shell_quote("it's"), "'it'\\''s'");
}

const std::vector<EnvVar> kVars = {{"PROVIO_DIR", "/d"}, {"LD_PRELOAD", "/p/l.so"}};

std::vector<std::string> argv_of(Launcher l, std::vector<std::string> cmd) {
  return forward(cmd, l, kVars).argv;
}

TEST(Launcher, OpenMpiGetsDashX) {
  EXPECT_EQ(
      argv_of(Launcher::kOpenMpi, {"mpirun", "-np", "2", "a"}),
      (std::vector<std::string>{"mpirun", "-x", "PROVIO_DIR", "-x", "LD_PRELOAD=/p/l.so", "-np", "2", "a"}));
}

TEST(Launcher, SrunExportsAll) {
  EXPECT_EQ(argv_of(Launcher::kSrun, {"srun", "-n", "2", "a"}),
            (std::vector<std::string>{"srun", "--export=ALL,LD_PRELOAD=/p/l.so", "-n", "2", "a"}));
  // A comma would split --export's list: the value goes through the environment instead.
  Launch l = forward({"srun", "a"}, Launcher::kSrun, {{"LD_PRELOAD", "/p/a,b.so"}});
  EXPECT_EQ(l.argv, (std::vector<std::string>{"srun", "--export=ALL", "a"}));
  ASSERT_EQ(l.env.size(), 1u);
  EXPECT_EQ(l.env[0].name, "LD_PRELOAD");
}

TEST(Launcher, FluxRulesGoAfterTheSubcommand) {
  EXPECT_EQ(argv_of(Launcher::kFlux, {"flux", "run", "-n", "2", "a"}),
            (std::vector<std::string>{"flux", "run", "--env=PROVIO_DIR", "--env=LD_PRELOAD=/p/l.so", "-n",
                                      "2", "a"}));
}

TEST(Launcher, HydraAndPlain) {
  EXPECT_EQ(argv_of(Launcher::kHydra, {"mpiexec", "a"}),
            (std::vector<std::string>{"mpiexec", "-genv", "LD_PRELOAD", "/p/l.so", "a"}));
  Launch plain = forward({"a", "b"}, Launcher::kPlain, kVars);
  EXPECT_EQ(plain.argv, (std::vector<std::string>{"a", "b"}));
  EXPECT_EQ(plain.env.size(), 2u);  // the preload library goes into the program's environment
}

TEST(Launcher, ByName) {
  Launcher l;
  EXPECT_TRUE(parse_launcher("srun", l));
  EXPECT_EQ(l, Launcher::kSrun);
  EXPECT_FALSE(parse_launcher("aprun", l));
  EXPECT_EQ(detect_launcher({"/usr/bin/srun", "x"}), Launcher::kSrun);
  EXPECT_EQ(detect_launcher({"flux", "run"}), Launcher::kFlux);
  EXPECT_EQ(detect_launcher({"./sim"}), Launcher::kPlain);
  EXPECT_EQ(detect_launcher({"mpirun", "-np", "2"}), Launcher::kOpenMpi);  // Debian's Open MPI
}

}  // namespace
}  // namespace provio::run
