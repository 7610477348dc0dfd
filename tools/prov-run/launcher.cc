// Forwarding the job's environment through a launcher (launcher.h).
#include "launcher.h"

#include <fcntl.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <array>
#include <cstdio>

namespace provio::run {

namespace {

std::string basename_of(const std::string& path) {
  std::size_t slash = path.rfind('/');
  return slash == std::string::npos ? path : path.substr(slash + 1);
}

// The first 4 KiB of `argv`'s standard output and error; "" when it cannot run.
std::string output_of(const std::vector<std::string>& argv) {
  int fds[2];
  if (::pipe2(fds, O_CLOEXEC) != 0) return "";
  pid_t pid = ::fork();
  if (pid == 0) {
    ::dup2(fds[1], STDOUT_FILENO);
    ::dup2(fds[1], STDERR_FILENO);
    std::vector<char*> args;
    for (const auto& a : argv) args.push_back(const_cast<char*>(a.c_str()));
    args.push_back(nullptr);
    ::execvp(args[0], args.data());
    ::_exit(127);
  }
  ::close(fds[1]);
  std::string out;
  std::array<char, 512> buf;
  ssize_t n;
  while (pid > 0 && (n = ::read(fds[0], buf.data(), buf.size())) > 0 && out.size() < 4096)
    out.append(buf.data(), n);
  ::close(fds[0]);
  if (pid > 0) ::waitpid(pid, nullptr, 0);
  return out;
}

// The index in `command` after which flux's job options go: after the run/submit word.
std::size_t flux_subcommand_end(const std::vector<std::string>& command) {
  for (std::size_t i = 1; i < command.size(); ++i) {
    const std::string& w = command[i];
    if (w == "run" || w == "submit" || w == "bulksubmit" || w == "alloc" || w == "batch") return i + 1;
  }
  return 1;
}

}  // namespace

bool parse_launcher(std::string_view name, Launcher& out) {
  for (Launcher l :
       {Launcher::kPlain, Launcher::kOpenMpi, Launcher::kHydra, Launcher::kSrun, Launcher::kFlux}) {
    if (name == launcher_name(l)) {
      out = l;
      return true;
    }
  }
  return false;
}

const char* launcher_name(Launcher l) {
  switch (l) {
    case Launcher::kOpenMpi: return "openmpi";
    case Launcher::kHydra: return "hydra";
    case Launcher::kSrun: return "srun";
    case Launcher::kFlux: return "flux";
    case Launcher::kPlain: break;
  }
  return "plain";
}

Launcher detect_launcher(const std::vector<std::string>& command) {
  if (command.empty()) return Launcher::kPlain;
  std::string name = basename_of(command[0]);
  if (name == "srun") return Launcher::kSrun;
  if (name == "flux") return Launcher::kFlux;
  if (name == "mpirun" || name == "mpiexec" || name == "orterun" || name == "prterun") {
    std::string version = output_of({command[0], "--version"});
    bool open_mpi = version.find("Open MPI") != std::string::npos ||
                    version.find("OpenRTE") != std::string::npos ||
                    version.find("PRRTE") != std::string::npos;
    return open_mpi ? Launcher::kOpenMpi : Launcher::kHydra;
  }
  return Launcher::kPlain;
}

Launch forward(const std::vector<std::string>& command, Launcher launcher, const std::vector<EnvVar>& vars) {
  Launch l;
  std::vector<std::string> options;
  const EnvVar* preload = nullptr;
  for (const EnvVar& v : vars) {
    if (v.name == "LD_PRELOAD" && launcher != Launcher::kPlain) {
      preload = &v;
      continue;
    }
    l.env.push_back(v);
    if (launcher == Launcher::kOpenMpi) options.insert(options.end(), {"-x", v.name});
    if (launcher == Launcher::kFlux) options.push_back("--env=" + v.name);
  }
  if (preload) {
    switch (launcher) {
      case Launcher::kOpenMpi: options.insert(options.end(), {"-x", "LD_PRELOAD=" + preload->value}); break;
      case Launcher::kHydra: options.insert(options.end(), {"-genv", "LD_PRELOAD", preload->value}); break;
      case Launcher::kFlux: options.push_back("--env=LD_PRELOAD=" + preload->value); break;
      case Launcher::kSrun:
        // --export splits its list at commas: a value holding one goes through the environment.
        if (preload->value.find(',') == std::string::npos) {
          options.push_back("--export=ALL,LD_PRELOAD=" + preload->value);
        } else {
          options.push_back("--export=ALL");
          l.env.push_back(*preload);
        }
        break;
      case Launcher::kPlain: break;
    }
  } else if (launcher == Launcher::kSrun) {
    options.push_back("--export=ALL");
  }
  std::size_t at = launcher == Launcher::kFlux ? flux_subcommand_end(command) : 1;
  if (launcher == Launcher::kPlain || command.empty()) at = 0;
  l.argv.assign(command.begin(), command.begin() + static_cast<long>(std::min(at, command.size())));
  l.argv.insert(l.argv.end(), options.begin(), options.end());
  l.argv.insert(l.argv.end(), command.begin() + static_cast<long>(std::min(at, command.size())),
                command.end());
  return l;
}

}  // namespace provio::run
