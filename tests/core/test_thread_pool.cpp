// ThreadPool: every thread runs each task once, errors come back to the caller, and the pool starts
// and stops whether its threads are polling, asleep or more than the machine has.
#include <gtest/gtest.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <filesystem>
#include <stdexcept>
#include <thread>
#include <vector>

#include "tests/core/ChildProcess.h"
#include "core/ThreadPool.h"

namespace iso {
namespace {

// Sizes that poll (one hardware thread each, where the machine has two) and that never poll (more
// threads than hardware threads).
std::vector<int> poolSizes() {
  const int hardware = ThreadPool::hardwareThreads();
  return {1, std::min(2, hardware), hardware, 2 * hardware + 1};
}

TEST(ThreadPool, EveryThreadRunsEachTaskOnce) {
  for (int threads : poolSizes()) {
    ThreadPool pool(threads);
    ASSERT_EQ(pool.size(), threads);
    std::vector<std::atomic<int>> runs(static_cast<std::size_t>(threads));
    std::atomic<long> sum{0};
    constexpr int kRuns = 3000;
    for (int r = 0; r < kRuns; ++r) {
      pool.run([&](int t) {
        runs[std::size_t(t)].fetch_add(1);
        sum.fetch_add(r);
      });
      // What the task did is visible when run() returns.
      ASSERT_EQ(sum.load(), long(threads) * r * (r + 1) / 2) << threads << " threads, run " << r;
    }
    for (int t = 0; t < threads; ++t) EXPECT_EQ(runs[std::size_t(t)].load(), kRuns) << "thread " << t;
  }
}

TEST(ThreadPool, RunsAgainAfterItsThreadsFellAsleep) {
  for (int threads : poolSizes()) {
    ThreadPool pool(threads);
    for (int r = 0; r < 3; ++r) {
      std::this_thread::sleep_for(std::chrono::milliseconds(5));  // well past the polling time
      std::atomic<int> ran{0};
      pool.run([&](int) { ran.fetch_add(1); });
      EXPECT_EQ(ran.load(), threads);
    }
  }
}

TEST(ThreadPool, ATasksErrorReachesTheCallerAndThePoolGoesOn) {
  for (int threads : poolSizes()) {
    ThreadPool pool(threads);
    const int failing = threads - 1;  // a worker where there is one
    EXPECT_THROW(pool.run([&](int t) {
      if (t == failing) throw std::runtime_error("task failed");
    }),
                 std::runtime_error);
    std::atomic<int> ran{0};
    pool.run([&](int) { ran.fetch_add(1); });
    EXPECT_EQ(ran.load(), threads);
  }
}

TEST(ThreadPool, StopsWhetherItsThreadsPollOrSleep) {
  for (int threads : poolSizes()) {
    { ThreadPool idle(threads); }  // never ran
    {
      ThreadPool justRan(threads);
      justRan.run([](int) {});  // destroyed while its workers poll
    }
    {
      ThreadPool asleep(threads);
      asleep.run([](int) {});
      std::this_thread::sleep_for(std::chrono::milliseconds(5));
    }
  }
  EXPECT_THROW(ThreadPool(0), std::invalid_argument);
}

// Tasks (threads) that the real user `uid` runs now: what RLIMIT_NPROC counts.
int tasksOfUser(uid_t uid) {
  int count = 0;
  std::error_code ec;
  for (const auto& process : std::filesystem::directory_iterator("/proc", ec)) {
    struct stat info {};
    if (stat(process.path().c_str(), &info) != 0 || info.st_uid != uid) continue;
    for (const auto& task : std::filesystem::directory_iterator(process.path() / "task", ec)) {
      (void)task;
      ++count;
    }
  }
  return count;
}

TEST(ThreadPool, RefusedThreadIsAClearErrorNotAHang) {
  // RLIMIT_NPROC in a child lets it start two more threads; root ignores the limit, so the child
  // becomes an unprivileged user first.
  const test::ChildResult child = test::runInChild([](std::string& report) {
    if (geteuid() == 0 && setuid(65534) != 0) return 2;
    const rlim_t allowed = rlim_t(tasksOfUser(getuid()) + 2);
    const rlimit limit{allowed, allowed};
    if (setrlimit(RLIMIT_NPROC, &limit) != 0) return 3;
    try {
      ThreadPool pool(16);
      report = "all 16 threads started";
      return 1;
    } catch (const std::runtime_error& e) {
      report = e.what();
    }
    // The process goes on normally: a pool within the limit still works.
    ThreadPool small(2);
    std::atomic<int> ran{0};
    small.run([&](int) { ++ran; });
    return ran == 2 ? 0 : 4;
  }, 20);
  ASSERT_TRUE(child.exited) << "the child died of signal " << child.status << " (SIGALRM " << SIGALRM << ": a hang)";
  EXPECT_EQ(child.status, 0) << child.report;
  EXPECT_NE(child.report.find("cannot start worker thread"), std::string::npos) << child.report;
  EXPECT_NE(child.report.find(" of 16: "), std::string::npos) << child.report;
  EXPECT_NE(child.report.find("Resource temporarily unavailable"), std::string::npos) << child.report;
}

}  // namespace
}  // namespace iso
