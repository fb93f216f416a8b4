#pragma once
// Grid geometry: interior sizes n1 (x, fastest), n2 (y), n3 (z), padded by the stencil half-length on
// every side. Padded index = z*nx*ny + y*nx + x (docs/ARCHITECTURE.md).
#include <cstddef>
#include <cstdint>

namespace iso {

inline constexpr int kHalfLength = 8;  // R: the stencil reaches 8 cells along each axis
// Interior cells per axis that scenario files, the command lines and the form accept; whether a grid fits
// in memory is checked separately, when its solver is built.
inline constexpr int kMaxAxisCells = 16384;

struct Grid {
  int n1 = 0, n2 = 0, n3 = 0;  // interior sizes

  Grid() = default;
  Grid(int n1_, int n2_, int n3_) : n1(n1_), n2(n2_), n3(n3_) {}

  int nx() const { return n1 + 2 * kHalfLength; }
  int ny() const { return n2 + 2 * kHalfLength; }
  int nz() const { return n3 + 2 * kHalfLength; }
  std::size_t planeSize() const { return std::size_t(nx()) * std::size_t(ny()); }
  std::size_t paddedSize() const { return planeSize() * std::size_t(nz()); }
  std::size_t interiorSize() const { return std::size_t(n1) * std::size_t(n2) * std::size_t(n3); }

  // Padded coordinates.
  std::size_t index(int x, int y, int z) const {
    return std::size_t(z) * planeSize() + std::size_t(y) * std::size_t(nx()) + std::size_t(x);
  }
  // Interior coordinates (0-based inside the halo).
  std::size_t interiorIndex(int i, int j, int k) const {
    return index(i + kHalfLength, j + kHalfLength, k + kHalfLength);
  }
  bool operator==(const Grid&) const = default;
};

}  // namespace iso
