#include "ThreadPool.h"

#include <stdexcept>
#include <string>

namespace iso {

ThreadPool::ThreadPool(int threads) {
  if (threads < 1)
    throw std::invalid_argument("thread pool needs at least 1 thread (got " + std::to_string(threads) + ")");
  workers_.reserve(std::size_t(threads - 1));
  for (int t = 1; t < threads; ++t) workers_.emplace_back([this, t] { workerLoop(t); });
}

ThreadPool::~ThreadPool() {
  {
    std::lock_guard lock(mutex_);
    stopping_ = true;
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

void ThreadPool::run(const std::function<void(int)>& task) {
  {
    std::lock_guard lock(mutex_);
    task_ = &task;
    pending_ = int(workers_.size());
    firstError_ = nullptr;
    ++generation_;
  }
  startCv_.notify_all();
  runAndCapture(0);
  std::exception_ptr error;
  {
    std::unique_lock lock(mutex_);
    doneCv_.wait(lock, [this] { return pending_ == 0; });
    task_ = nullptr;
    error = firstError_;
  }
  if (error) std::rethrow_exception(error);
}

void ThreadPool::workerLoop(int threadIndex) {
  std::uint64_t seen = 0;
  for (;;) {
    {
      std::unique_lock lock(mutex_);
      startCv_.wait(lock, [&] { return stopping_ || generation_ != seen; });
      if (stopping_) return;
      seen = generation_;
    }
    runAndCapture(threadIndex);
    bool last = false;
    {
      std::lock_guard lock(mutex_);
      last = --pending_ == 0;
    }
    if (last) doneCv_.notify_one();
  }
}

}  // namespace iso
