#pragma once
// Runs the real `iso3dfd` (ISO3DFD_BINARY) through the shell, as a user types it: `args` may carry
// redirections; `prefix` goes before the binary (environment assignments, a launcher such as "mpirun -np 2").
#include <sys/wait.h>

#include <array>
#include <cstdio>
#include <string>

namespace iso::test {

struct CliResult {
  int status = -1;     // exit status; -1 when killed by a signal
  std::string output;  // stdout and stderr together
};

inline CliResult runCli(const std::string& args, const std::string& prefix = "") {
  CliResult r;
  const std::string cmd = prefix + (prefix.empty() ? "" : " ") + ISO3DFD_BINARY + " " + args + " 2>&1";
  FILE* pipe = popen(cmd.c_str(), "r");
  if (!pipe) return r;
  std::array<char, 4096> buf{};
  while (fgets(buf.data(), buf.size(), pipe)) r.output += buf.data();
  const int status = pclose(pipe);
  r.status = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  return r;
}

}  // namespace iso::test
