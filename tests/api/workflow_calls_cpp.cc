// The C++ header (include/provio/provio.hpp): RAII workflow and task, typed values from C++
// values, a configuration file, misuse reported by status. check_cpp.py asserts the triples.
#include <cmath>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <limits>
#include <string>

#include "provio/provio.hpp"

static int failures = 0;
#define EXPECT(cond)                                                                           \
  do {                                                                                         \
    if (!(cond)) {                                                                             \
      std::fprintf(stderr, "%s:%d: expected %s (last error: %s)\n", __FILE__, __LINE__, #cond, \
                   provio::last_error().c_str());                                              \
      ++failures;                                                                              \
    }                                                                                          \
  } while (0)

int main(int argc, char** argv) {
  if (argc != 2) return 2;
  std::string dir = argv[1];
  std::string cfg_path = dir + "/sim.cfg";
  {
    std::ofstream cfg(cfg_path);
    cfg << "# heat equation\n"
        << "grid = 64\n"
        << "dt=0.001   # step\n"
        << "implicit = true\n"
        << "boundary = dirichlet \"fixed\"\n"
        << "weird = nan\n"
        << "\n"
        << "no equals sign here\n";
  }
  {
    provio::Workflow wf("cpp workflow", "cpp campaign");
    EXPECT(wf.status() == PROVIO_OK);
    provio::Workflow second("again");
    EXPECT(second.status() == PROVIO_EINVAL);  // one workflow at a time; its destructor is a no-op
    EXPECT(provio::program_type("simulation") == PROVIO_OK);
    provio::Task task("cpp task");
    EXPECT(task);
    auto hp =
        provio::hyperparameters({{"lr", 0.5},
                                 {"n", 3},
                                 {"f", 0.25f},
                                 {"u", std::numeric_limits<uint64_t>::max()},
                                 {"flag", true},
                                 {"label", std::string("x\"y\n")},
                                 {"huge", provio::Value::integer_text("123456789012345678901234567890")},
                                 {"data", provio::Data::file(dir + "/in.dat")}});
    EXPECT(hp.id == 1);
    auto file_cfg = provio::config_file(cfg_path);
    EXPECT(file_cfg.id == 2);
    EXPECT(!provio::hyperparameters({{"bad", std::nan("")}}));
    EXPECT(provio::last_error().find("NaN") != std::string::npos);
    EXPECT(task.parameters({{"p", -1}}) == PROVIO_OK);
    EXPECT(task.results({{"r", 2.5}}) == PROVIO_OK);
    EXPECT(task.results({{"dup", 1}, {"dup", 2}}) == PROVIO_EINVAL);
    EXPECT(provio::metric("loss", 0.25, 3, PROVIO_STAGE_TRAINING) == PROVIO_OK);
    EXPECT(provio::metric("nan", std::nan(""), 3) == PROVIO_EINVAL);
    EXPECT(provio::model(provio::Data::object(dir + "/out.h5", "/model", PROVIO_GROUP), hp, 3, "net") ==
           PROVIO_OK);
    EXPECT(provio::properties({{"owner", "me"}}) == PROVIO_OK);
    {
      provio::Task sub("sub");
      EXPECT(sub.end() == PROVIO_OK);
      EXPECT(sub.end() == PROVIO_EINVAL);  // ended twice: refused; the destructor does nothing
    }
    EXPECT(task.output(provio::Data::file(dir + "/out.h5")) == PROVIO_OK);
  }
  EXPECT(provio::metric("late", 1.0) == PROVIO_EINVAL);  // the task ended with its scope
  provio_flush();
  return failures ? 1 : 0;
}
