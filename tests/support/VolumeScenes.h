#pragma once
// Scenes for the volume renderer's tests: a wave in a small layered model with a salt body on an odd,
// non-cubic grid, its reference field, and views of it (the 3D view's camera, no jitter).
#include <algorithm>
#include <cmath>
#include <memory>
#include <vector>

#include "core/OrbitCamera.h"
#include "core/Problem.h"
#include "core/Scenario.h"
#include "core/VelocityModel.h"
#include "core/VolumeView.h"
#include "core/WaveSolver.h"
#include "tests/support/VolumeReference.h"

namespace iso::test {

// A Ricker wave half-way across a 29 x 23 x 19 grid with two layers and a salt body (contrasts for the
// context), the absorbing layer 3 cells wide.
inline Scenario volumeScene() {
  Scenario s = presetScenario("default");
  s.n1 = 29, s.n2 = 23, s.n3 = 19;
  s.dx = 10.0;
  s.model.kind = ModelKind::Layered;
  s.model.layers = {{0.0, 2000.0}, {110.0, 2600.0}};
  s.model.salt = {true, 200.0, 110.0, 130.0, 45.0, 4500.0};
  s.boundary = {BoundaryKind::Absorbing, 3, 1.0e-3};
  s.source = {SourceKind::Ricker, 10, 11, 8, 40.0, 1.0e6, 0.03};
  s.receivers.clear();
  s.stage = "cpu-serial";
  return s;
}

// The solver's current field and the scenario's velocity model, for the reference.
inline ReferenceField referenceField(WaveSolver& solver, const Scenario& s) {
  ReferenceField f;
  f.n1 = s.n1, f.n2 = s.n2, f.n3 = s.n3;
  solver.readField(f.u);
  f.velocity = buildVelocityModel(s);
  return f;
}

inline float largestMagnitude(const std::vector<float>& u) {
  float m = 0.0f;
  for (float v : u) m = std::max(m, std::abs(v));
  return m;
}

// A colour range as the view's automatic gain picks one: the 98th percentile of |u| over the cells above
// 1e-3 of the largest, so that the singular source cell does not set it.
inline float robustRange(const std::vector<float>& u) {
  const float floor = 1e-3f * largestMagnitude(u);
  std::vector<float> active;
  for (float v : u)
    if (std::abs(v) > floor) active.push_back(std::abs(v));
  if (active.empty()) return 1.0f;
  const auto at = active.begin() + std::ptrdiff_t(0.98 * double(active.size() - 1));
  std::nth_element(active.begin(), at, active.end());
  return *at;
}

// The 3D view's default camera on the grid, turned by (yaw, pitch) pixels of dragging.
inline OrbitCamera sceneCamera(const Grid& g, float dragX = 0.0f, float dragY = 0.0f) {
  OrbitCamera camera;
  const float n1 = float(g.n1), n2 = float(g.n2), n3 = float(g.n3);
  camera.frame(glm::vec3(0.0f), 0.5f * std::sqrt(n1 * n1 + n2 * n2 + n3 * n3));
  camera.orbit(dragX, dragY);
  return camera;
}

// A view through `camera` of width x height with range `clip`, no jitter, no early termination (what
// the reference computes).
inline VolumeView sceneView(const Grid& g, const OrbitCamera& camera, int width, int height, float clip) {
  VolumeView view = defaultVolumeView(g, width, height, clip);
  setVolumeCamera(view, camera);
  view.jitter = false;
  view.earlyTermination = false;
  return view;
}

}  // namespace iso::test
