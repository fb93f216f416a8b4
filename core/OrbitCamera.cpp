#include "core/OrbitCamera.h"

#include <algorithm>
#include <cmath>

#include <glm/gtc/matrix_transform.hpp>

namespace iso {
namespace {
constexpr float kRadiansPerPixel = 0.008f;
constexpr float kMaxPitch = 1.55f;      // just short of straight down/up, where the up vector degenerates
constexpr float kZoomPerStep = 0.85f;   // distance factor per wheel notch
}  // namespace

void OrbitCamera::frame(const glm::vec3& center, float radius) {
  target_ = center;
  radius_ = std::max(radius, 1e-3f);
  yaw_ = 0.65f;    // from the front-right, so x runs left to right and y recedes
  pitch_ = 0.42f;  // from above
  distance_ = 1.08f * radius_ / std::sin(0.5f * kFieldOfViewY);
}

void OrbitCamera::orbit(float dxPixels, float dyPixels) {
  yaw_ -= dxPixels * kRadiansPerPixel;
  pitch_ = std::clamp(pitch_ + dyPixels * kRadiansPerPixel, -kMaxPitch, kMaxPitch);
}

float OrbitCamera::fieldOfViewY(float aspect) {
  if (aspect >= 1.0f) return kFieldOfViewY;
  return 2.0f * std::atan(std::tan(0.5f * kFieldOfViewY) / std::max(aspect, 1e-3f));
}

void OrbitCamera::setCoveredTop(float fraction) { coveredTop_ = std::clamp(fraction, 0.0f, 0.5f); }

void OrbitCamera::pan(float dxPixels, float dyPixels, int viewportWidth, int viewportHeight) {
  // Move the target so that the point under the cursor follows it (at the target's depth).
  const float h = float(std::max(viewportHeight, 1)) * (1.0f - coveredTop_);
  const float fov = fieldOfViewY(float(std::max(viewportWidth, 1)) / h);
  const float worldPerPixel = 2.0f * distance_ * std::tan(0.5f * fov) / h;
  const glm::mat4 v = view();
  const glm::vec3 right(v[0][0], v[1][0], v[2][0]);
  const glm::vec3 up(v[0][1], v[1][1], v[2][1]);
  target_ += (-dxPixels * right + dyPixels * up) * worldPerPixel;
}

void OrbitCamera::zoom(float wheelSteps) {
  distance_ = std::clamp(distance_ * std::pow(kZoomPerStep, wheelSteps), 0.2f * radius_, 30.0f * radius_);
}

glm::vec3 OrbitCamera::eye() const {
  const glm::vec3 offset(std::cos(pitch_) * std::sin(yaw_), std::sin(pitch_), std::cos(pitch_) * std::cos(yaw_));
  return target_ + distance_ * offset;
}

glm::mat4 OrbitCamera::view() const { return glm::lookAt(eye(), target_, glm::vec3(0.0f, 1.0f, 0.0f)); }

float OrbitCamera::nearPlane() const { return std::max(distance_ - 2.0f * radius_, 0.01f * radius_); }
float OrbitCamera::farPlane() const { return distance_ + 2.0f * radius_; }

glm::mat4 OrbitCamera::projection(float aspect) const {
  // The perspective of the uncovered part, then squeezed into it: y_ndc' = (1 − f)·y_ndc − f.
  const float shown = std::max(aspect, 1e-3f) / (1.0f - coveredTop_);
  const glm::mat4 below = glm::translate(glm::mat4(1.0f), glm::vec3(0.0f, -coveredTop_, 0.0f)) *
                          glm::scale(glm::mat4(1.0f), glm::vec3(1.0f, 1.0f - coveredTop_, 1.0f));
  return below * glm::perspective(fieldOfViewY(shown), shown, nearPlane(), farPlane());
}

OrbitCamera::Ray OrbitCamera::ray(float px, float py, int width, int height) const {
  const float w = float(std::max(width, 1)), h = float(std::max(height, 1));
  const glm::vec2 ndc(2.0f * (px + 0.5f) / w - 1.0f, 1.0f - 2.0f * (py + 0.5f) / h);
  const glm::mat4 inverse = glm::inverse(projection(w / h) * view());
  glm::vec4 nearPoint = inverse * glm::vec4(ndc, -1.0f, 1.0f);
  glm::vec4 farPoint = inverse * glm::vec4(ndc, 1.0f, 1.0f);
  nearPoint /= nearPoint.w;
  farPoint /= farPoint.w;
  return {glm::vec3(nearPoint), glm::normalize(glm::vec3(farPoint - nearPoint))};
}

std::optional<glm::vec2> OrbitCamera::project(const glm::vec3& world, int width, int height) const {
  const float w = float(std::max(width, 1)), h = float(std::max(height, 1));
  const glm::vec4 clip = projection(w / h) * view() * glm::vec4(world, 1.0f);
  if (clip.w <= 1e-6f) return std::nullopt;
  const glm::vec2 ndc = glm::vec2(clip) / clip.w;
  return glm::vec2((ndc.x + 1.0f) * 0.5f * w - 0.5f, (1.0f - ndc.y) * 0.5f * h - 0.5f);
}

}  // namespace iso
