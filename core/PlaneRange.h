#pragma once
// A run of interior planes along z, the axis along which a grid is cut into slabs
// (core/SlabDecomposition.h).
namespace iso {

// Interior planes [begin, end) of a solver's grid.
struct PlaneRange {
  int begin = 0, end = 0;
  int count() const { return end - begin; }
  bool empty() const { return end <= begin; }
  bool contains(int k) const { return k >= begin && k < end; }
  bool operator==(const PlaneRange&) const = default;
};

}  // namespace iso
