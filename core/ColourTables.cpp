#include "core/ColourTables.h"

#include <algorithm>
#include <cmath>

namespace iso {
namespace {
std::uint8_t toByte(double v) { return std::uint8_t(std::lround(std::clamp(v, 0.0, 1.0) * 255.0)); }
}  // namespace

ColourTable piecewiseLinearTable(const std::vector<std::array<double, 4>>& knots) {
  ColourTable table(kColourTableEntries);
  for (int n = 0; n < kColourTableEntries; ++n) {
    const double t = double(n) / (kColourTableEntries - 1);
    std::size_t segment = 1;
    while (segment + 1 < knots.size() && knots[segment][0] < t) ++segment;
    const auto& a = knots[segment - 1];
    const auto& b = knots[segment];
    const double f = std::clamp((t - a[0]) / (b[0] - a[0]), 0.0, 1.0);
    for (int c = 0; c < 3; ++c) table[n][c] = toByte(a[c + 1] + f * (b[c + 1] - a[c + 1]));
  }
  return table;
}

ColourTable seismicTable() {
  return piecewiseLinearTable({{{0.0, 0.0, 0.0, 0.3}},
                               {{0.25, 0.0, 0.0, 1.0}},
                               {{0.5, 1.0, 1.0, 1.0}},
                               {{0.75, 1.0, 0.0, 0.0}},
                               {{1.0, 0.5, 0.0, 0.0}}});
}

ColourTable greyTable() { return piecewiseLinearTable({{{0.0, 0.0, 0.0, 0.0}}, {{1.0, 1.0, 1.0, 1.0}}}); }

std::array<std::uint32_t, kColourTableEntries> rgbaWords(const ColourTable& table) {
  std::array<std::uint32_t, kColourTableEntries> words{};
  for (std::size_t n = 0; n < words.size(); ++n) {
    const auto& c = table.at(std::min(n, table.size() - 1));
    words[n] = std::uint32_t(c[0]) | std::uint32_t(c[1]) << 8 | std::uint32_t(c[2]) << 16 | 0xFF000000u;
  }
  return words;
}

}  // namespace iso
