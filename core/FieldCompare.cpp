#include "FieldCompare.h"

#include <cmath>
#include <stdexcept>
#include <string>

namespace iso {

FieldDifference compareFields(const std::vector<float>& a, const std::vector<float>& ref) {
  if (a.size() != ref.size())
    throw std::invalid_argument("cannot compare fields of " + std::to_string(a.size()) + " and " +
                                std::to_string(ref.size()) + " values");
  FieldDifference d;
  double diff2 = 0.0, ref2 = 0.0;
  for (std::size_t n = 0; n < a.size(); ++n) {
    if (!std::isfinite(a[n])) {
      ++d.nonFinite;
      continue;
    }
    const double e = double(a[n]) - double(ref[n]);
    d.maxAbs = std::max(d.maxAbs, std::fabs(e));
    diff2 += e * e;
    ref2 += double(ref[n]) * double(ref[n]);
  }
  d.relativeL2 = ref2 > 0.0 ? std::sqrt(diff2 / ref2) : std::sqrt(diff2);
  return d;
}

}  // namespace iso
