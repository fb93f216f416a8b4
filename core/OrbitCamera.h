#pragma once
// Perspective camera that orbits a target point: left drag orbits, right/middle drag pans, the wheel
// zooms. Pixel coordinates have their origin at the top-left of the viewport (Qt's convention).
#include <optional>

#include <glm/glm.hpp>

namespace iso {

class OrbitCamera {
 public:
  struct Ray {
    glm::vec3 origin, direction;  // direction is unit length
  };

  // Looks at a sphere of `radius` around `center` from the default oblique angle (from above, so the
  // surface z = 0 is seen at the top), far enough that the whole sphere fits the view.
  void frame(const glm::vec3& center, float radius);

  void orbit(float dxPixels, float dyPixels);
  void pan(float dxPixels, float dyPixels, int viewportWidth, int viewportHeight);
  void zoom(float wheelSteps);  // > 0 moves closer

  // The top `fraction` of the viewport is covered (by the HUD's text): the scene is framed, projected,
  // picked and panned in the rest below it, as if the viewport began there. 0 by default; at most 0.5.
  void setCoveredTop(float fraction);

  glm::vec3 eye() const;
  glm::mat4 view() const;
  glm::mat4 projection(float aspect) const;

  // The ray from the eye through the centre of pixel (px, py) of a width × height viewport.
  Ray ray(float px, float py, int width, int height) const;
  // Pixel position of a world point (origin top-left), or nullopt when it is behind the eye.
  std::optional<glm::vec2> project(const glm::vec3& world, int width, int height) const;

  float yaw() const { return yaw_; }
  float pitch() const { return pitch_; }
  float distance() const { return distance_; }

 private:
  // The vertical field of view for a viewport shape: the nominal one, widened in portrait viewports
  // so that the nominal angle always fits horizontally too (what frame() relies on).
  static float fieldOfViewY(float aspect);
  float nearPlane() const;
  float farPlane() const;

  glm::vec3 target_{0.0f};
  float radius_ = 1.0f;
  float yaw_ = 0.0f, pitch_ = 0.0f;  // radians; pitch > 0 looks from above
  float distance_ = 3.0f;
  float coveredTop_ = 0.0f;
  static constexpr float kFieldOfViewY = 0.61f;  // 35 degrees
};

}  // namespace iso
