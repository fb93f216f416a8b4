#pragma once
// Runs the real `iso3dfd` binary as a user would, and collects what it prints.
#include <sys/wait.h>

#include <array>
#include <cstdio>
#include <string>

namespace iso::test {

struct CliResult {
  int status = -1;
  std::string output;  // stdout and stderr together
};

// `prefix` goes before the binary (a launcher such as "mpirun -np 2"), `args` after it.
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
