#pragma once
// The three orthogonal planes of a wavefield (or of the velocity model) through one interior cell: what
// the solvers hand out and what the renderer draws. A header of its own so that render/ depends on this
// plain data and not on the solver interface.
#include <cmath>
#include <cstddef>
#include <vector>

namespace iso {

// Three orthogonal interior planes through interior cell (i, j, k), each in C order:
//   xy[j*n1 + i'] at z = k,  xz[k'*n1 + i'] at y = j,  yz[k'*n2 + j'] at x = i.
struct SliceSet {
  int n1 = 0, n2 = 0, n3 = 0;
  int i = 0, j = 0, k = 0;
  long step = 0;  // n of the field u^n the planes come from (0 for the velocity model)
  std::vector<float> xy, xz, yz;

  // The value at interior cell (ci, cj, ck) when one of the planes holds it; NaN otherwise.
  float valueAt(int ci, int cj, int ck) const {
    const auto at = [](const std::vector<float>& plane, std::size_t index) {
      return index < plane.size() ? plane[index] : std::nanf("");
    };
    if (ci < 0 || cj < 0 || ck < 0 || ci >= n1 || cj >= n2 || ck >= n3) return std::nanf("");
    if (ck == k) return at(xy, std::size_t(cj) * n1 + ci);
    if (cj == j) return at(xz, std::size_t(ck) * n1 + ci);
    if (ci == i) return at(yz, std::size_t(ck) * n2 + cj);
    return std::nanf("");
  }
};

}  // namespace iso
