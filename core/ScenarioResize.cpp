#include "core/ScenarioResize.h"

#include <algorithm>
#include <cmath>

namespace iso {

namespace {
// Maps cell `c` of an axis of `from` cells onto an axis of `to` cells (centre to centre); -1 (centre) stays.
int scaleCell(int c, int from, int to) {
  if (c < 0 || from <= 0) return c;
  const double x = (c + 0.5) * double(to) / double(from) - 0.5;
  return std::clamp(int(std::lround(x)), 0, to - 1);
}
}  // namespace

Scenario resizedScenario(Scenario s, int n1, int n2, int n3) {
  if (n1 == s.n1 && n2 == s.n2 && n3 == s.n3) return s;
  const double fx = s.n1 > 0 ? double(n1) / s.n1 : 1.0;
  const double fy = s.n2 > 0 ? double(n2) / s.n2 : 1.0;
  const double fz = s.n3 > 0 ? double(n3) / s.n3 : 1.0;
  s.source.i = scaleCell(s.source.i, s.n1, n1);
  s.source.j = scaleCell(s.source.j, s.n2, n2);
  s.source.k = scaleCell(s.source.k, s.n3, n3);
  for (auto& r : s.receivers) {
    r.i = scaleCell(r.i, s.n1, n1);
    r.j = scaleCell(r.j, s.n2, n2);
    r.k = scaleCell(r.k, s.n3, n3);
  }
  for (auto& layer : s.model.layers) layer.top *= fz;
  s.model.salt.centerX *= fx;
  s.model.salt.centerY *= fy;
  s.model.salt.centerZ *= fz;
  s.model.salt.radius *= std::cbrt(fx * fy * fz);
  s.n1 = n1, s.n2 = n2, s.n3 = n3;
  // Receivers that merged into the same cell on a coarser grid are recorded once.
  std::vector<ReceiverSpec> unique;
  for (const auto& r : s.receivers)
    if (std::none_of(unique.begin(), unique.end(), [&](const ReceiverSpec& u) { return u.i == r.i && u.j == r.j && u.k == r.k; }))
      unique.push_back(r);
  s.receivers = std::move(unique);
  return s;
}

}  // namespace iso
