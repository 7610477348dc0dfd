// How the job's environment reaches the ranks, per launcher (docs/prov-run.md, "Launchers").
// The launcher process itself gets every variable except LD_PRELOAD, which only the ranks get,
// through the launcher's own option: provio traces the application, not mpirun or srun.
//   Open MPI mpirun/mpiexec   -x NAME ... -x LD_PRELOAD=VALUE   (remote daemons forward nothing else)
//   MPICH / Intel MPI (hydra) -genv LD_PRELOAD VALUE            (hydra forwards the environment)
//   srun                      --export=ALL,LD_PRELOAD=VALUE     (overrides sbatch --export=NONE)
//   flux run|submit|…         --env=NAME ... --env=LD_PRELOAD=VALUE
//   anything else             the environment itself
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "job_env.h"

namespace provio::run {

enum class Launcher { kPlain, kOpenMpi, kHydra, kSrun, kFlux };

// By --launcher NAME: openmpi, hydra, srun, flux, plain. False when NAME is none of them.
bool parse_launcher(std::string_view name, Launcher& out);
const char* launcher_name(Launcher l);

// The launcher of `command` from its program name; an mpirun/mpiexec is asked for its
// --version to tell Open MPI from hydra.
Launcher detect_launcher(const std::vector<std::string>& command);

struct Launch {
  std::vector<std::string> argv;  // the command with the forwarding options inserted
  std::vector<EnvVar> env;        // what to set in the launcher's own environment
};

// Inserts the forwarding options for `vars` into `command`.
Launch forward(const std::vector<std::string>& command, Launcher launcher, const std::vector<EnvVar>& vars);

}  // namespace provio::run
