#pragma once
// The three orthogonal planes of a wavefield (or of the velocity model) through one interior cell: what
// the solvers hand out and what the renderer draws. A header of its own so that render/ depends on this
// plain data and not on the solver interface.
#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <memory>
#include <span>

namespace iso {

struct VolumeView;  // core/VolumeView.h

// Three orthogonal interior planes through interior cell (i, j, k), each in C order:
//   xy[j*n1 + i'] at z = k,  xz[k'*n1 + i'] at y = j,  yz[k'*n2 + j'] at x = i.
// The planes lie one after the other (xy, xz, yz: planeFloats() floats) in memory that `memory` keeps
// alive: the set's own (ownPlanes, copy) or someone else's (viewPlanes), such as a slot of the
// persistently mapped GL buffers the studio's compute thread writes into (app/controller/SliceRing.h).
// A copy of a set shares its memory; a writer that fills the same set again (the controller's triple
// buffer) is read through copy().
// In the volume view a set also carries an image of the whole field rendered at the same step
// (WaveSolver::startVolume): imageWidth × imageHeight RGBA8 pixels right after the planes, in the same
// memory (memoryFloats() 4-byte words in all), and the view it was rendered with.
struct SliceSet {
  int n1 = 0, n2 = 0, n3 = 0;
  int i = 0, j = 0, k = 0;
  long step = 0;  // n of the field u^n the planes come from (0 for the velocity model)
  std::span<const float> xy, xz, yz;
  std::shared_ptr<const void> memory;
  int imageWidth = 0, imageHeight = 0;  // 0: no image
  std::span<const std::uint32_t> image;  // premultiplied RGBA8, red in the low byte, rows top to bottom
  std::shared_ptr<const VolumeView> imageView;  // its camera, range and settings
  double imageSeconds = 0.0;                    // the renderer's time for it

  static std::size_t planeFloats(int n1, int n2, int n3) {
    return std::size_t(n1) * std::size_t(n2) + std::size_t(n1) * std::size_t(n3) + std::size_t(n2) * std::size_t(n3);
  }
  std::size_t planeFloats() const { return planeFloats(n1, n2, n3); }
  std::size_t imagePixels() const { return std::size_t(imageWidth) * std::size_t(imageHeight); }
  std::size_t memoryFloats() const { return planeFloats() + imagePixels(); }  // planes and image
  // The three planes as one span: they lie one after the other in `memory` (ownPlanes, viewPlanes).
  std::span<const float> planes() const { return {xy.data(), planeFloats()}; }

  // Memory of the set's own for planes of the sizes n1, n2, n3 and an image of imageWidth × imageHeight
  // (set them first), to be written: the set's memory again when it is its own and of that size, else
  // new memory (contents unspecified). The image goes at ownImage().
  float* ownPlanes() {
    if (!own_ || ownFloats_ != memoryFloats()) {
      ownFloats_ = memoryFloats();
      own_ = std::make_shared_for_overwrite<float[]>(ownFloats_);
    }
    memory = own_;
    point(own_.get());
    return own_.get();
  }
  // Where ownPlanes() put the image, to be written.
  std::uint32_t* ownImage() { return reinterpret_cast<std::uint32_t*>(own_.get() + planeFloats()); }
  // The planes (and image) in someone else's memory (memoryFloats() from `planes`), kept alive by `owner`.
  void viewPlanes(const float* planes, std::shared_ptr<const void> owner) {
    own_.reset();
    ownFloats_ = 0;
    memory = std::move(owner);
    point(planes);
  }
  // The same set with the planes (and image) copied into memory of its own.
  SliceSet copy() const {
    SliceSet out = *this;
    float* planes = out.ownPlanes();
    for (std::span<const float> plane : {xy, xz, yz}) planes = std::copy(plane.begin(), plane.end(), planes);
    if (!image.empty()) std::memcpy(out.ownImage(), image.data(), image.size_bytes());
    return out;
  }

  // The value at interior cell (ci, cj, ck) when one of the planes holds it; NaN otherwise.
  float valueAt(int ci, int cj, int ck) const {
    const auto at = [](std::span<const float> plane, std::size_t index) {
      return index < plane.size() ? plane[index] : std::nanf("");
    };
    if (ci < 0 || cj < 0 || ck < 0 || ci >= n1 || cj >= n2 || ck >= n3) return std::nanf("");
    if (ck == k) return at(xy, std::size_t(cj) * n1 + ci);
    if (cj == j) return at(xz, std::size_t(ck) * n1 + ci);
    if (ci == i) return at(yz, std::size_t(ck) * n2 + cj);
    return std::nanf("");
  }

 private:
  void point(const float* planes) {
    const std::size_t nxy = std::size_t(n1) * n2, nxz = std::size_t(n1) * n3, nyz = std::size_t(n2) * n3;
    xy = {planes, nxy};
    xz = {planes + nxy, nxz};
    yz = {planes + nxy + nxz, nyz};
    image = {reinterpret_cast<const std::uint32_t*>(planes + nxy + nxz + nyz), imagePixels()};
  }
  std::shared_ptr<float[]> own_;  // `memory` when the planes are the set's own
  std::size_t ownFloats_ = 0;
};

}  // namespace iso
