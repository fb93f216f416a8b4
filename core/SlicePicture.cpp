#include "core/SlicePicture.h"

#include <cmath>

namespace iso {

std::size_t pictureBytes(int width, int height, PicturePixels pixels) {
  const std::size_t w = std::size_t(std::max(width, 0)), h = std::size_t(std::max(height, 0));
  return pixels == PicturePixels::VideoPlanes ? w * h + w * (h / 2) : 4 * w * h;
}

namespace {

std::string layerProblem(const PictureLayer& l, int index, const SlicePicture& p) {
  const std::string name = "picture layer " + std::to_string(index);
  if (l.width < 1 || l.height < 1 || l.x < 0 || l.y < 0 || l.x > p.width - l.width || l.y > p.height - l.height)
    return name + " (" + std::to_string(l.width) + "x" + std::to_string(l.height) + " at " + std::to_string(l.x) + "," +
           std::to_string(l.y) + ") does not lie inside the " + std::to_string(p.width) + "x" + std::to_string(p.height) +
           " picture";
  if (l.pixels == nullptr || l.stride < l.width) return name + " has no pixels, or rows shorter than its width";
  return {};
}

std::string cameraProblem(const SlicePicture& p) {
  for (int c = 0; c < 4; ++c)
    for (int r = 0; r < 4; ++r)
      if (!std::isfinite(p.worldToClip[c][r])) return "the picture's camera matrix is not finite";
  if (std::abs(glm::determinant(p.worldToClip)) < 1e-30f) return "the picture's camera matrix cannot be inverted";
  if (!std::isfinite(p.eye.x) || !std::isfinite(p.eye.y) || !std::isfinite(p.eye.z)) return "the picture's eye is not finite";
  return {};
}

}  // namespace

std::string slicePictureProblem(const SlicePicture& p, const SliceSet& slices, const SliceSet* velocity,
                                std::span<const PictureLayer> layers, PicturePixels pixels) {
  const std::string size = std::to_string(p.width) + "x" + std::to_string(p.height);
  if (p.width < 2 || p.height < 2 || p.width > SlicePicture::kMaxSide || p.height > SlicePicture::kMaxSide)
    return "a picture of " + size + " pixels: each side must be 2 to " + std::to_string(SlicePicture::kMaxSide);
  if (pixels == PicturePixels::VideoPlanes && (p.width % 2 != 0 || p.height % 2 != 0))
    return "video planes of a " + size + " picture: both sides must be even";
  if (p.sceneWidth < 1 || p.sceneWidth > p.width) return "the scene's width " + std::to_string(p.sceneWidth) + " does not fit the picture";
  if (const std::string camera = cameraProblem(p); !camera.empty()) return camera;
  if (!(std::isfinite(p.clip) && std::isfinite(p.rangeLow) && p.clip > p.rangeLow))
    return "the colour range [" + std::to_string(p.rangeLow) + ", " + std::to_string(p.clip) + "] is empty or not finite";
  if (!(p.tintOpacity >= 0.0f && p.tintOpacity <= 1.0f)) return "the velocity tint's opacity must lie in [0, 1]";
  if (slices.n1 < 1 || slices.n2 < 1 || slices.n3 < 1 || slices.planes().size() != slices.planeFloats())
    return "the picture's slices hold no planes";
  if (p.tintOpacity > 0.0f) {
    if (velocity == nullptr) return "a velocity tint without velocity planes";
    if (velocity->n1 != slices.n1 || velocity->n2 != slices.n2 || velocity->n3 != slices.n3 ||
        velocity->planes().size() != slices.planeFloats())
      return "the velocity planes do not match the slices' grid";
    if (!(std::isfinite(p.velocityRange[0]) && std::isfinite(p.velocityRange[1]))) return "the velocity range is not finite";
  }
  if (layers.size() > std::size_t(SlicePicture::kMaxLayers))
    return std::to_string(layers.size()) + " picture layers: at most " + std::to_string(SlicePicture::kMaxLayers);
  for (std::size_t n = 0; n < layers.size(); ++n)
    if (const std::string problem = layerProblem(layers[n], int(n), p); !problem.empty()) return problem;
  return {};
}

}  // namespace iso
