#pragma once
// A fixed set of worker threads that run one task on every thread and wait for all of them: the
// cpu-parallel stage calls run() once per time step, so no thread is created per step.
//
// Waiting threads poll for a short while before they sleep: waking a sleeping thread can cost tens of
// microseconds (a halted virtual CPU), a sizeable share of a small grid's step, while consecutive steps
// follow each other within microseconds (docs/PERFORMANCE_LOG.md). They poll only when every thread has
// a hardware thread of its own.
#include <algorithm>
#include <atomic>
#include <condition_variable>
#include <cstdint>
#include <exception>
#include <functional>
#include <mutex>
#include <thread>
#include <vector>

namespace iso {

class ThreadPool {
 public:
  // threads >= 1: the caller of run() is thread 0, so threads - 1 workers are started.
  // Throws std::invalid_argument for threads < 1, std::runtime_error (after stopping the workers it
  // started) when the system refuses a thread.
  explicit ThreadPool(int threads);
  ~ThreadPool();
  ThreadPool(const ThreadPool&) = delete;
  ThreadPool& operator=(const ThreadPool&) = delete;

  int size() const { return int(workers_.size()) + 1; }

  // The hardware threads of this machine, at least 1 (the standard library may not know: 0).
  static int hardwareThreads() { return int(std::max(1u, std::thread::hardware_concurrency())); }

  // Runs task(threadIndex) once on every thread, threadIndex in [0, size()), and returns when all
  // have finished. The first exception a task throws is rethrown here (after all have finished).
  void run(const std::function<void(int)>& task);

 private:
  void workerLoop(int threadIndex);
  void stopWorkers();  // asks every worker to return and joins it
  void runAndCapture(int threadIndex);
  // Polls ready() for a while (when polling_), then sleeps on cv until ready() holds.
  template <class Ready>
  void waitFor(std::condition_variable& cv, Ready ready);

  std::vector<std::thread> workers_;
  bool polling_ = false;
  std::mutex mutex_;
  std::condition_variable startCv_, doneCv_;
  const std::function<void(int)>* task_ = nullptr;  // set before generation_ is bumped
  std::atomic<std::uint64_t> generation_{0};        // bumped by run(); a worker runs each generation once
  std::atomic<int> pending_{0};                     // workers still running the current generation
  std::atomic<bool> stopping_{false};
  std::exception_ptr firstError_;                   // guarded by mutex_
};

}  // namespace iso
