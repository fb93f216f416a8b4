#include "core/ThreadPool.h"

#include <chrono>
#include <stdexcept>
#include <string>
#include <system_error>

namespace iso {
namespace {

// Long enough to cover the gap between two time steps and the imbalance at a step's end, short enough
// that an idle pool soon sleeps.
constexpr auto kPollTime = std::chrono::microseconds(200);

inline void relaxCpu() {
#if defined(__x86_64__) || defined(__i386__)
  __builtin_ia32_pause();
#elif defined(__aarch64__)
  asm volatile("yield");
#endif
}

}  // namespace

ThreadPool::ThreadPool(int threads) {
  if (threads < 1)
    throw std::invalid_argument("thread pool needs at least 1 thread (got " + std::to_string(threads) + ")");
  polling_ = threads > 1 && threads <= hardwareThreads();
  workers_.reserve(std::size_t(threads - 1));
  for (int t = 1; t < threads; ++t) {
    try {
      workers_.emplace_back([this, t] { workerLoop(t); });
    } catch (const std::system_error& e) {
      // A process or memory limit: the workers already started wait for work that will never come, and
      // destroying them unjoined would terminate the program. Stop them, then report.
      stopWorkers();
      throw std::runtime_error("cannot start worker thread " + std::to_string(t) + " of " + std::to_string(threads) +
                               ": " + e.code().message() + " (the process or user thread limit, ulimit -u, or " +
                               "memory is exhausted); use fewer threads");
    }
  }
}

ThreadPool::~ThreadPool() { stopWorkers(); }

void ThreadPool::stopWorkers() {
  {
    std::lock_guard lock(mutex_);
    stopping_.store(true);
  }
  startCv_.notify_all();
  for (auto& w : workers_) w.join();
}

void ThreadPool::runAndCapture(int threadIndex) {
  try {
    (*task_)(threadIndex);
  } catch (...) {
    std::lock_guard lock(mutex_);
    if (!firstError_) firstError_ = std::current_exception();
  }
}

template <class Ready>
void ThreadPool::waitFor(std::condition_variable& cv, Ready ready) {
  if (polling_) {
    const auto deadline = std::chrono::steady_clock::now() + kPollTime;
    do {
      for (int n = 0; n < 64; ++n) {
        if (ready()) return;
        relaxCpu();
      }
    } while (std::chrono::steady_clock::now() < deadline);
  }
  std::unique_lock lock(mutex_);
  cv.wait(lock, ready);
}

void ThreadPool::run(const std::function<void(int)>& task) {
  {
    std::lock_guard lock(mutex_);
    task_ = &task;
    pending_.store(int(workers_.size()));
    firstError_ = nullptr;
    generation_.fetch_add(1);  // publishes task_ and pending_ to the workers that see it
  }
  startCv_.notify_all();
  runAndCapture(0);
  waitFor(doneCv_, [this] { return pending_.load() == 0; });
  std::exception_ptr error;
  {
    std::lock_guard lock(mutex_);
    task_ = nullptr;
    error = firstError_;
  }
  if (error) std::rethrow_exception(error);
}

void ThreadPool::workerLoop(int threadIndex) {
  std::uint64_t seen = 0;
  for (;;) {
    waitFor(startCv_, [&] { return stopping_.load() || generation_.load() != seen; });
    if (stopping_.load()) return;
    seen = generation_.load();
    runAndCapture(threadIndex);
    if (pending_.fetch_sub(1) == 1) {
      // Under the lock, so that run() cannot check pending_ and then sleep past this notification.
      std::lock_guard lock(mutex_);
      doneCv_.notify_one();
    }
  }
}

}  // namespace iso
