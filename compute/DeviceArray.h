#pragma once
// One grid-sized array on an OpenCL device, stored as float or as IEEE half (gpu-half's storage,
// stages/OpenClStage.h FieldStorage), optionally inside guard regions (OpenClSolverOptions). Everything
// that enters or leaves it passes through float with a scale: values · scale are stored (rounded to the
// nearest half, ties to even, for half arrays: core/Half.h, as vstore_half_rte does on the device), and
// stored values · scale are read. The kernels take get().
#include <cstddef>
#include <string>
#include <vector>

#include "compute/ClHost.h"
#include "core/Grid.h"

namespace iso {

class DeviceArray {
 public:
  DeviceArray() = default;
  // `count` elements; with guard > 0 inside an allocation with `guard` elements (rounded up to the
  // device's sub-buffer alignment) on each side, filled with guardValue (a NaN stays a NaN in half).
  DeviceArray(const ClContext& ctx, std::size_t count, bool half, std::size_t guard, float guardValue,
              const std::string& what);

  cl_mem get() const { return array_.get(); }
  bool half() const { return half_; }
  std::size_t size() const { return count_; }
  std::size_t guard() const { return guard_; }
  std::size_t elementBytes() const { return half_ ? 2 : 4; }

  void fillZero(const ClContext& ctx) const;
  void write(const ClContext& ctx, const std::vector<float>& values, float scale) const;
  // count elements from `offset`, times scale.
  void read(const ClContext& ctx, float* out, std::size_t offset, std::size_t count, float scale) const;
  // The interior of padded grid g (the array holds one), C order (n3, n2, n1), times scale.
  void readInterior(const ClContext& ctx, const Grid& g, float* out, float scale) const;
  // The whole allocation, guards included, as stored (a half as the float it is).
  std::vector<float> readAllocation(const ClContext& ctx) const;

 private:
  Buffer<unsigned char> parent_, array_;  // parent_: the guarded allocation (empty without guards)
  bool half_ = false;
  std::size_t count_ = 0, guard_ = 0;
};

}  // namespace iso
