// 8 threads each write their own file (thread i: 1000 + i writes of 7 bytes), then the process
// forks: the child writes through a descriptor opened before the fork and through a new file,
// and exits normally. Every event must be attributed to the right thread and program execution.
//   threads <dir>
#include <fcntl.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdio>
#include <string>
#include <thread>
#include <vector>

int main(int argc, char** argv) {
  if (argc < 2) return 2;
  std::string dir = argv[1];
  std::vector<std::thread> threads;
  for (int i = 0; i < 8; ++i) {
    threads.emplace_back([&dir, i] {
      std::string path = dir + "/t" + std::to_string(i) + ".dat";
      int fd = open(path.c_str(), O_CREAT | O_WRONLY | O_TRUNC, 0644);
      for (int k = 0; k < 1000 + i; ++k) {
        if (write(fd, "1234567", 7) != 7) std::_Exit(3);
      }
      close(fd);
    });
  }
  for (auto& t : threads) t.join();

  int shared = open((dir + "/shared.dat").c_str(), O_CREAT | O_WRONLY | O_TRUNC, 0644);
  if (write(shared, "parent\n", 7) != 7) return 3;
  pid_t pid = fork();
  if (pid == 0) {
    if (write(shared, "child\n", 6) != 6) std::_Exit(3);
    FILE* f = std::fopen((dir + "/child.txt").c_str(), "w");
    std::fprintf(f, "child %d\n", 42);
    std::fclose(f);
    std::exit(0);
  }
  int status = 0;
  waitpid(pid, &status, 0);
  close(shared);
  return WIFEXITED(status) && WEXITSTATUS(status) == 0 ? 0 : 1;
}
