#pragma once
// A float32 volume as a model file holds it (core/ModelFile.h), before it is resampled to a grid.
#include <cstddef>
#include <vector>

namespace iso {

// x (n1) fastest: data[(k·n2 + j)·n1 + i].
struct Volume {
  int n1 = 0, n2 = 0, n3 = 0;
  std::vector<float> data;
  float at(int i, int j, int k) const {
    return data[(std::size_t(k) * std::size_t(n2) + std::size_t(j)) * std::size_t(n1) + std::size_t(i)];
  }
};

}  // namespace iso
