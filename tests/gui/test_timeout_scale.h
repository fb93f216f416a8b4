#pragma once
// $ISO_TEST_TIMEOUT_SCALE (e.g. 10 under ThreadSanitizer, which is that much slower): the factor by which
// the studio tests' waits grow; 1 when unset or not a positive number. Free of Qt, so that the
// compute-thread tests stay Qt-free.
#include <algorithm>
#include <cstdlib>

namespace iso::test {

inline int timeoutScale() {
  const char* text = std::getenv("ISO_TEST_TIMEOUT_SCALE");
  return std::max(text ? std::atoi(text) : 0, 1);
}

}  // namespace iso::test
