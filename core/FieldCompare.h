#pragma once
// How far one field is from a reference: the numbers `verify`, `bench` and the tests report.
#include <cstddef>
#include <vector>

namespace iso {

struct FieldDifference {
  double maxAbs = 0.0;        // max |a - ref|
  double relativeL2 = 0.0;    // ||a - ref||₂ / ||ref||₂ (absolute L2 when ref is all zeros)
  std::size_t nonFinite = 0;  // NaN or Inf entries in a
  bool withinTolerance(double relL2Tolerance) const { return nonFinite == 0 && relativeL2 <= relL2Tolerance; }
};

// Throws std::invalid_argument when the sizes differ.
FieldDifference compareFields(const std::vector<float>& a, const std::vector<float>& ref);

}  // namespace iso
