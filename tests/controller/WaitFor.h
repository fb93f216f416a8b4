#pragma once
// Polls a condition that another thread (a controller's compute thread) makes true.
#include <chrono>
#include <functional>
#include <thread>

namespace iso::test {

// True once `condition` holds; false after `seconds` without it.
inline bool waitFor(const std::function<bool()>& condition, int seconds = 60) {
  const auto end = std::chrono::steady_clock::now() + std::chrono::seconds(seconds);
  while (!condition()) {
    if (std::chrono::steady_clock::now() > end) return false;
    std::this_thread::sleep_for(std::chrono::milliseconds(2));
  }
  return true;
}

}  // namespace iso::test
