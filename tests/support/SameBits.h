#pragma once
// Whether two float arrays hold the same bits (NaN included), with the first difference for messages:
// what the decomposition's tests ask of a grid cut into slabs against one device.
#include <gtest/gtest.h>

#include <cstring>
#include <vector>

namespace iso::test {

inline ::testing::AssertionResult sameBits(const std::vector<float>& a, const std::vector<float>& b) {
  if (a.size() != b.size()) return ::testing::AssertionFailure() << "sizes " << a.size() << " and " << b.size();
  for (std::size_t n = 0; n < a.size(); ++n)
    if (std::memcmp(&a[n], &b[n], sizeof(float)) != 0)
      return ::testing::AssertionFailure() << "first difference at " << n << ": " << a[n] << " and " << b[n];
  return ::testing::AssertionSuccess();
}

}  // namespace iso::test
