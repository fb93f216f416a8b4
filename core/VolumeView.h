#pragma once
// What a volume image shows and how (WaveSolver::startVolume): the camera, the image's size, the colour
// range and colormap, the quality settings, the velocity model as context and an optional slice plane.
// The camera is the same matrix OpenGL draws the box, the axes and the markers with (world coordinates of
// core/GridWorld.h), so that the image and what is drawn over it line up. marchParams turns a view into
// the ray marcher's parameters (resources/kernels/volume_march.cl), for the OpenCL kernel and the host
// alike: one ray set-up.
#include <array>
#include <cstdint>
#include <string>

#include <glm/glm.hpp>

#include "core/ColourTables.h"
#include "core/Grid.h"
#include "core/OrbitCamera.h"

namespace iso {

struct VolumeView {
  static constexpr int kMaxImageSide = 8192;  // pixels per side
  static constexpr float kMinSamplesPerCell = 0.25f, kMaxSamplesPerCell = 8.0f;
  // The transfer function (volume_march.cl): |u|/clip below deadZone is transparent; a wave at the clip
  // has `density` extinction per cell and gives kEmission times the light of its colour; the strongest
  // velocity contrast has contextDensity.
  static constexpr float kDeadZone = 0.06f, kDensity = 0.25f, kContextDensity = 0.04f;
  static constexpr float kEmission = 2.0f;
  static constexpr float kStopAlpha = 0.99f;  // early termination: a ray this opaque stops

  glm::mat4 worldToClip{1.0f};  // the camera's projection · view (OrbitCamera)
  int width = 0, height = 0;    // image pixels
  float clip = 1.0f;            // the colour range [-clip, clip], > 0
  std::array<std::uint32_t, kColourTableEntries> colormap{};  // RGBA8, red in the low byte, low to high
  float samplesPerCell = 1.0f;  // along a ray, kMinSamplesPerCell to kMaxSamplesPerCell
  bool earlyTermination = true;
  bool velocityContext = false;  // the velocity model's contrasts as a faint surface
  int planeAxis = -1;            // -1: no slice plane; 0, 1, 2: the plane x, y or z = planeCell (opaque)
  int planeCell = 0;
  std::array<int, 3> marginCells{0, 0, 0};  // left out at both ends of x, y, z (the absorbing layer)
  bool jitter = true;  // per-pixel offsets of the first sample (off: every ray starts half a step in)

  std::size_t pixels() const { return std::size_t(width) * std::size_t(height); }
  void setColormap(const ColourTable& table);  // the first kColourTableEntries entries, opaque
};

// What the user chooses of a volume view (the studio's view controls): its quality, its content. The
// studio turns it, with the camera, the size and the colour range, into the VolumeView the solver
// renders.
struct VolumeSettings {
  float samplesPerCell = 1.0f;
  int imageScale = 0;  // the image at 1/imageScale of the view's size per side; 0: automatic (VolumeImageScale)
  bool earlyTermination = true;
  bool velocityContext = false;
  int slicePlane = -1;  // -1: none; 0, 1, 2: the plane x, y or z through the slice point
  bool operator==(const VolumeSettings&) const = default;
};

// The view of the 3D slice view's default camera (OrbitCamera::frame around the grid) at width × height,
// the seismic colormap, range `clip`.
VolumeView defaultVolumeView(const Grid& grid, int width, int height, float clip = 1.0f);
// The camera for width × height pixels (its matrix; the rest of `view` unchanged).
void setVolumeCamera(VolumeView& view, const OrbitCamera& camera);

// "" when `view` can be rendered for `grid` into `pixels` pixels of memory; otherwise what is wrong
// (the size, the range, the samples per cell, the plane, the margins, too little memory).
std::string volumeViewProblem(const VolumeView& view, const Grid& grid, std::size_t pixels);

}  // namespace iso
