// Process identity (see identity.h).
#include "model/identity.h"

#include <fcntl.h>
#include <limits.h>
#include <pwd.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <string_view>
#include <vector>

#include "model/clock.h"
#include "model/config.h"
#include "model/iri.h"
#include "model/output_dir_name.h"
#include "model/redact.h"
#include "model/small_file.h"
#include "model/snapshot.h"

namespace provio::model {
namespace {

std::string getenv_str(const char* name) {
  const char* v = std::getenv(name);
  return v ? v : "";
}

std::string encoded(std::string_view s) {
  std::string out;
  append_percent_encoded(out, s, false);
  return out;
}

// When the process started (not when provio first looked): /proc/self/stat field 22 is the
// start in clock ticks after boot; CLOCK_BOOTTIME says how long ago that was. Falls back to now.
std::uint64_t process_start_ns() {
  std::uint64_t now = clock::wall_ns();
  std::string stat = read_small_file("/proc/self/stat");
  std::size_t paren = stat.rfind(')');
  long ticks_per_s = sysconf(_SC_CLK_TCK);
  if (paren == std::string::npos || ticks_per_s <= 0) return now;
  const char* p = stat.c_str() + paren + 2;  // field 3
  for (int field = 3; field < 22; ++field) {
    p = std::strchr(p, ' ');
    if (!p) return now;
    ++p;
  }
  std::uint64_t start_since_boot =
      std::strtoull(p, nullptr, 10) * (1000000000ull / static_cast<std::uint64_t>(ticks_per_s));
  std::uint64_t since_boot = clock::read(CLOCK_BOOTTIME);
  if (start_since_boot > since_boot) return now;
  return now - (since_boot - start_since_boot);
}

void fill_iris(Identity& id) {
  id.user_iri = "urn:provio:user:" + encoded(id.user);
  id.host_iri = "urn:provio:host:" + encoded(id.host);
  id.exec_iri = "urn:provio:run:" + encoded(id.host) + ":" + std::to_string(id.pid) + ":" +
                std::to_string(id.start_ns / 1000);
  id.job_iri = id.job_id.empty() ? "" : "urn:provio:job:" + encoded(id.job_id);
  id.rank_iri = (id.rank < 0 || id.job_iri.empty()) ? "" : id.job_iri + "/rank/" + std::to_string(id.rank);
}

Identity* read_identity() {
  int saved = errno;
  auto* id = new Identity;
  id->uid = getuid();
  char buf[1024];
  struct passwd pw;
  struct passwd* found = nullptr;
  // getpwuid_r may load NSS modules; this runs once, off the hot path.
  if (getpwuid_r(id->uid, &pw, buf, sizeof buf, &found) == 0 && found) id->user = pw.pw_name;
  if (id->user.empty()) id->user = std::to_string(id->uid);
  char host[HOST_NAME_MAX + 1] = {};
  gethostname(host, sizeof host - 1);
  id->host = host;
  if (auto dot = id->host.find('.'); dot != std::string::npos) id->host.resize(dot);
  id->pid = getpid();
  char exe[PATH_MAX];
  ssize_t n = readlink("/proc/self/exe", exe, sizeof exe - 1);
  if (n > 0) id->executable.assign(exe, static_cast<std::size_t>(n));
  std::string cmd = read_small_file("/proc/self/cmdline");
  if (!cmd.empty() && cmd.back() == '\0') cmd.pop_back();
  std::vector<std::string_view> args;
  for (std::size_t begin = 0, end; begin <= cmd.size(); begin = end + 1) {
    end = std::min(cmd.find('\0', begin), cmd.size());
    args.emplace_back(cmd.data() + begin, end - begin);
  }
  id->command_line = redact_command_line(args, config());
  char cwd[PATH_MAX];
  if (getcwd(cwd, sizeof cwd)) id->working_directory = cwd;
  id->job_id = job_id_from_env();
  id->rank = rank_from_env();
  for (const char* v : {"OMPI_COMM_WORLD_SIZE", "PMI_SIZE", "PMIX_SIZE", "SLURM_NTASKS"}) {
    if (const char* s = std::getenv(v)) {
      id->ranks = std::atoi(s);
      break;
    }
  }
  id->start_ns = process_start_ns();
  // Set by the preload shim's exec wrappers: an exec'd program's parent execution.
  id->parent_exec_iri = getenv_str("PROVIO_PARENT_RUN");
  id->workflow = config().workflow;
  id->campaign = config().campaign;
  fill_iris(*id);
  if (id->parent_exec_iri.compare(0, id->exec_iri.rfind(':') + 1, id->exec_iri, 0,
                                  id->exec_iri.rfind(':') + 1) == 0) {
    // exec without fork (the parent run has our host and pid) keeps the process start time: the
    // new program is a new execution, started now. Comparing host:pid, not the whole IRI, also
    // keeps a second exec in a row apart from the first program.
    id->start_ns = clock::wall_ns();
    fill_iris(*id);
  }
  errno = saved;
  return id;
}

Snapshot<Identity> g_identity;

}  // namespace

const Identity& identity() {
  return g_identity.get(read_identity);
}

void renew_identity_after_fork() {
  // Only the forking thread exists in the child. The parent's buffers, which the store discards,
  // may still point into the old value, so it stays allocated.
  Identity* old = g_identity.current_in_fork_child();
  if (!old) return;
  if (old->pid == getpid()) return;  // already renewed: the store and the preload shim both call this
  auto* id = new Identity(*old);
  id->pid = getpid();
  id->start_ns = clock::wall_ns();
  id->parent_exec_iri = old->exec_iri;
  fill_iris(*id);
  g_identity.replace_in_fork_child(id);
}

void set_mpi_rank(int rank, int size) {
  g_identity.update(read_identity, [&](const Identity& cur) -> Identity* {
    if (cur.rank == rank && cur.ranks == size) return nullptr;
    auto* id = new Identity(cur);
    id->rank = rank;
    id->ranks = size;
    fill_iris(*id);
    return id;
  });
}

std::string job_id_from_env() {
  struct Source {
    const char* var;
    const char* prefix;
  };
  // Batch schedulers first: they tie all launches of one job together.
  static constexpr Source kSources[] = {
      {"SLURM_JOB_ID", "slurm-"},
      {"PBS_JOBID", "pbs-"},
      {"LSB_JOBID", "lsf-"},
      {"FLUX_JOB_ID", "flux-"},
      {"COBALT_JOBID", "cobalt-"},
      // MPI launchers: OpenMPI/PRRTE (PMIx namespace), MPICH hydra (PMI KVS name).
      {"PMIX_NAMESPACE", "mpi-"},
      {"OMPI_MCA_ess_base_jobid", "mpi-"},
      {"PMI_KVSNAME", "mpi-"},
  };
  for (const Source& s : kSources) {
    std::string v = getenv_str(s.var);
    if (!v.empty()) return s.prefix + v;
  }
  return "";
}

int rank_from_env() {
  for (const char* v : {"OMPI_COMM_WORLD_RANK", "PMIX_RANK", "PMI_RANK", "PALS_RANKID", "MV2_COMM_WORLD_RANK",
                        "SLURM_PROCID", "FLUX_TASK_RANK"}) {
    if (const char* s = std::getenv(v); s && *s) {
      char* end = nullptr;
      long r = std::strtol(s, &end, 10);
      if (*end == '\0' && r >= 0 && r < INT_MAX) return static_cast<int>(r);
    }
  }
  return -1;
}

std::string output_dir() {
  const Identity& id = identity();
  const std::string& dir = config().dir;
  // A start directory the program removed is not made again (provio would bring back a directory
  // the user deleted): no output, as when it is unknown. A raw syscall: libc's would be traced.
  int saved = errno;
  bool gone = (dir.empty() || dir[0] != '/') && !id.working_directory.empty() &&
              syscall(SYS_faccessat, AT_FDCWD, id.working_directory.c_str(), F_OK) != 0;
  errno = saved;
  return gone ? "" : output_dir_for(dir, id.working_directory, id.job_id);
}

std::string output_dir_for(const std::string& dir, const std::string& start_dir, const std::string& job) {
  if (!dir.empty() && dir[0] == '/') return dir;
  if (start_dir.empty()) return "";
  if (!dir.empty()) return start_dir + "/" + dir;
  return start_dir + "/" + kOutputDirName + "/" + job_dir_name(job);
}

}  // namespace provio::model
