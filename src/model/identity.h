// Who is acting: user, host, program execution, rank, job, workflow. Read once per process (and
// again in a fork child, which is a new program execution); immutable after that, so flushes on
// any thread read it without locks.
#pragma once

#include <sys/types.h>

#include <cstdint>
#include <string>

namespace provio::model {

struct Identity {
  std::string user;  // login name (or the uid as text)
  uid_t uid = 0;
  std::string host;  // short host name
  pid_t pid = 0;
  std::string executable;         // /proc/self/exe
  std::string command_line;       // argv joined by spaces, as the program was started
  std::string working_directory;  // at start: where the command line's relative paths point
  std::string job_id;             // SLURM/PBS/LSF/Flux job, or the MPI launcher's job; empty if none
  int rank = -1;                  // MPI rank from the launcher environment, -1 when not an MPI job
  int ranks = 0;                  // job size when known
  std::uint64_t start_ns = 0;
  std::string workflow, campaign;
  // IRIs (see docs/format.md)
  std::string user_iri, host_iri, exec_iri, job_iri, rank_iri;
  // The program execution this one was forked from (fork child) or exec'd from (PROVIO_PARENT_RUN,
  // which the preload shim's exec wrappers set to the caller's exec_iri).
  std::string parent_exec_iri;
};

const Identity& identity();

// In a fork child: a new program execution whose parent is the old one.
void renew_identity_after_fork();

// Called when MPI is initialised and knows better than the environment.
void set_mpi_rank(int rank, int size);

// Job id and rank from scheduler / launcher variables (exposed for tests).
std::string job_id_from_env();
int rank_from_env();

// The output directory for PROVIO_DIR `dir` in a process started in `start_dir` (empty: unknown)
// of batch job `job` (docs/configuration.md): an absolute `dir` as it is, a relative one under
// `start_dir`, none: `start_dir`/provio/<job>. Empty when it needs `start_dir` and that is unknown:
// a fixed shared place such as /tmp would let another user prepare it (docs/security.md).
std::string output_dir_for(const std::string& dir, const std::string& start_dir, const std::string& job);

// Where every layer and thread of this process writes: PROVIO_DIR (or the VOL connector's dir=)
// against the directory the process started in (Identity::working_directory, read with the
// identity: in the preload library's constructor, or at the first event), never against the
// current one, so a chdir of the program cannot split its provenance (issue 29). Empty when that
// directory is needed and unknown or removed since.
std::string output_dir();

}  // namespace provio::model
