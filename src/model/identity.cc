// Process identity (see identity.h).
#include "model/identity.h"

#include <fcntl.h>
#include <limits.h>
#include <pwd.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <mutex>

#include "model/clock.h"
#include "model/config.h"
#include "model/iri.h"

namespace provio::model {
namespace {

std::string getenv_str(const char* name) {
  const char* v = std::getenv(name);
  return v ? v : "";
}

std::string read_proc_file(const char* path) {
  std::string text;
  long fd = syscall(SYS_openat, AT_FDCWD, path, O_RDONLY | O_CLOEXEC);
  if (fd < 0) return text;
  char buf[4096];
  long n;
  while ((n = syscall(SYS_read, fd, buf, sizeof buf)) > 0 && text.size() < (1u << 20)) {
    text.append(buf, static_cast<std::size_t>(n));
  }
  syscall(SYS_close, fd);
  return text;
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
  std::string stat = read_proc_file("/proc/self/stat");
  std::size_t paren = stat.rfind(')');
  long ticks_per_s = sysconf(_SC_CLK_TCK);
  if (paren == std::string::npos || ticks_per_s <= 0) return now;
  const char* p = stat.c_str() + paren + 2;  // field 3
  for (int field = 3; field < 22; ++field) {
    p = std::strchr(p, ' ');
    if (!p) return now;
    ++p;
  }
  std::uint64_t start_since_boot = std::strtoull(p, nullptr, 10) * (1000000000ull / static_cast<std::uint64_t>(ticks_per_s));
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
  std::string cmd = read_proc_file("/proc/self/cmdline");
  if (!cmd.empty() && cmd.back() == '\0') cmd.pop_back();
  for (char& c : cmd) {
    if (c == '\0') c = ' ';
  }
  id->command_line = cmd;
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
  if (id->parent_exec_iri.compare(0, id->exec_iri.rfind(':') + 1, id->exec_iri, 0, id->exec_iri.rfind(':') + 1) == 0) {
    // exec without fork (the parent run has our host and pid) keeps the process start time: the
    // new program is a new execution, started now. Comparing host:pid, not the whole IRI, also
    // keeps a second exec in a row apart from the first program.
    id->start_ns = clock::wall_ns();
    fill_iris(*id);
  }
  errno = saved;
  return id;
}

std::atomic<Identity*> g_identity{nullptr};
std::mutex g_identity_mutex;

}  // namespace

const Identity& identity() {
  Identity* id = g_identity.load(std::memory_order_acquire);
  if (id) return *id;
  std::lock_guard<std::mutex> lock(g_identity_mutex);
  id = g_identity.load(std::memory_order_relaxed);
  if (!id) {
    id = read_identity();
    g_identity.store(id, std::memory_order_release);
  }
  return *id;
}

void renew_identity_after_fork() {
  // Only the forking thread exists in the child: no lock needed, and the old object is leaked
  // on purpose (the parent's buffers, discarded by the store, may still point into it).
  Identity* old = g_identity.load(std::memory_order_relaxed);
  if (!old) return;
  if (old->pid == getpid()) return;  // already renewed (the store and the preload shim both call this)
  auto* id = new Identity(*old);
  id->pid = getpid();
  id->start_ns = clock::wall_ns();
  id->parent_exec_iri = old->exec_iri;
  fill_iris(*id);
  g_identity.store(id, std::memory_order_release);
}

void set_mpi_rank(int rank, int size) {
  const Identity& cur = identity();  // before locking: identity() takes the lock when it first reads
  std::lock_guard<std::mutex> lock(g_identity_mutex);
  if (cur.rank == rank && cur.ranks == size) return;
  auto* id = new Identity(cur);  // old one leaked: readers may hold it
  id->rank = rank;
  id->ranks = size;
  fill_iris(*id);
  g_identity.store(id, std::memory_order_release);
}

std::string job_id_from_env() {
  struct Source {
    const char* var;
    const char* prefix;
  };
  // Batch schedulers first: they tie all launches of one job together.
  static constexpr Source kSources[] = {
      {"SLURM_JOB_ID", "slurm-"},   {"PBS_JOBID", "pbs-"},  {"LSB_JOBID", "lsf-"},
      {"FLUX_JOB_ID", "flux-"},     {"COBALT_JOBID", "cobalt-"},
      // MPI launchers: OpenMPI/PRRTE (PMIx namespace), MPICH hydra (PMI KVS name).
      {"PMIX_NAMESPACE", "mpi-"},   {"OMPI_MCA_ess_base_jobid", "mpi-"}, {"PMI_KVSNAME", "mpi-"},
  };
  for (const Source& s : kSources) {
    std::string v = getenv_str(s.var);
    if (!v.empty()) return s.prefix + v;
  }
  return "";
}

int rank_from_env() {
  for (const char* v : {"OMPI_COMM_WORLD_RANK", "PMIX_RANK", "PMI_RANK", "PALS_RANKID",
                        "MV2_COMM_WORLD_RANK", "SLURM_PROCID", "FLUX_TASK_RANK"}) {
    if (const char* s = std::getenv(v); s && *s) {
      char* end = nullptr;
      long r = std::strtol(s, &end, 10);
      if (*end == '\0' && r >= 0 && r < INT_MAX) return static_cast<int>(r);
    }
  }
  return -1;
}

std::string default_output_dir() {
  int saved = errno;
  char cwd[PATH_MAX];
  std::string dir = getcwd(cwd, sizeof cwd) ? cwd : "/tmp";
  std::string job = job_id_from_env();
  for (char& c : job) {
    if (c == '/' || c == '\0') c = '_';
  }
  errno = saved;
  return dir + "/provio/" + (job.empty() ? "local" : job);
}

}  // namespace provio::model
