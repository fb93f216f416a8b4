#pragma once
// Runs a piece of a test in a forked child, for limits that must not touch the test process itself
// (file size, thread count): the child reports one line of text through a pipe and its exit status.
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdio>
#include <functional>
#include <string>

namespace iso::test {

struct ChildResult {
  bool exited = false;  // false: killed by a signal (a crash, or the alarm of a hang)
  int status = -1;      // exit status, or the signal number
  std::string report;   // what the child wrote
};

// body returns the child's exit status and may fill `report`. The child is killed after
// timeoutSeconds (SIGALRM), so a hang fails the test instead of stalling it.
inline ChildResult runInChild(const std::function<int(std::string& report)>& body, unsigned timeoutSeconds = 30) {
  int fds[2];
  if (pipe(fds) != 0) return {};
  // What the test printed and has not flushed would otherwise be in the child's buffers too, and reach
  // whatever file the child makes its stdout.
  std::fflush(nullptr);
  const pid_t pid = fork();
  if (pid < 0) return {};
  if (pid == 0) {
    close(fds[0]);
    alarm(timeoutSeconds);
    std::string report;
    int status = 99;
    try {
      status = body(report);
    } catch (const std::exception& e) {
      report = std::string("unexpected exception: ") + e.what();
    }
    const char* p = report.data();
    std::size_t left = report.size();
    while (left > 0) {
      const ssize_t n = write(fds[1], p, left);
      if (n <= 0) break;
      p += n;
      left -= std::size_t(n);
    }
    _exit(status);  // no atexit handlers: they belong to the parent (the scratch folder among them)
  }
  close(fds[1]);
  ChildResult result;
  char buf[4096];
  for (ssize_t n; (n = read(fds[0], buf, sizeof buf)) > 0;) result.report.append(buf, std::size_t(n));
  close(fds[0]);
  int wstatus = 0;
  waitpid(pid, &wstatus, 0);
  result.exited = WIFEXITED(wstatus);
  result.status = result.exited ? WEXITSTATUS(wstatus) : WTERMSIG(wstatus);
  return result;
}

}  // namespace iso::test
