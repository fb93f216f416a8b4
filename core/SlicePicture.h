#pragma once
// A picture of the 3D slice view made where the field is computed (WaveSolver::pictureRenderer), for a
// video: the three slices as the view's OpenGL draws them (render/SliceRenderer.h, slice.frag: bilinear
// samples, the colormap over [rangeLow, clip], the velocity tint, magenta where u is not finite, the
// crossings smoothed), over the view's background, under layers of premultiplied pixels that the view
// made once (the 3D lines as the slices hide them) or paints itself (labels, colour bars, HUD), and
// converted into the encoder's planes. On a compute GPU every OpenGL frame is time the solver loses (a
// 1080p clear and one pass already cost it more than 10 % of its rate at 512³, docs/PERFORMANCE.md);
// the same picture made by a kernel of the solver's own context, beside its steps, costs it almost
// nothing. resources/kernels/picture.cl says how each pixel is made.
#include <array>
#include <cstdint>
#include <functional>
#include <memory>
#include <span>
#include <string>
#include <vector>

#include <glm/glm.hpp>

#include "core/ColourTables.h"
#include "core/SliceSet.h"

namespace iso {

struct SlicePicture {
  static constexpr int kMaxSide = 8192;
  static constexpr int kMaxLayers = 8;

  int width = 0, height = 0;  // the frame, pixels; both even for video planes
  int sceneWidth = 0;         // the 3D scene fills columns [0, sceneWidth) (the colour bars' column after it)
  // The camera: world (core/GridWorld.h) to clip space for the scene's viewport, rows not flipped (row 0
  // of the picture is its top); and the eye in grid coordinates (cells).
  glm::mat4 worldToClip{1.0f};
  glm::vec3 eye{0.0f};
  float clip = 1.0f, rangeLow = -1.0f;  // the colour range [rangeLow, clip], clip > rangeLow
  float tintOpacity = 0.0f;             // the velocity tint; 0: none (then no velocity planes needed)
  std::array<float, 2> velocityRange{0.0f, 1.0f};
  std::array<std::uint32_t, kColourTableEntries> colormap{};  // RGBA8, red in the low byte, low to high
  std::uint32_t background = 0xff000000u;                     // RGBA8, red in the low byte
  bool smoothCrossings = true;
};

// A rectangle of premultiplied pixels over the picture: Qt's ARGB32_Premultiplied words (0xAARRGGBB),
// `stride` words a row. `generation` names its contents: the renderer sends the pixels to its device only
// when it differs from the last it sent for this layer's place in the list (0: unnamed, sent every time).
// `keep` holds the pixels until the picture is collected.
struct PictureLayer {
  int x = 0, y = 0, width = 0, height = 0;
  int stride = 0;
  const std::uint32_t* pixels = nullptr;
  std::uint64_t generation = 0;
  std::shared_ptr<const void> keep;
};

// What a picture is delivered as: yuv420p planes in one block of width × height·3/2 bytes (rows of luma,
// then rows holding Cb in their left half and Cr in their right: render/VideoPlanes.h, BT.709 studio
// range), RGBA8 (tests, comparisons with OpenGL's picture), or Qt's RGB32 words (0xffRRGGBB: a window's
// frame, which a raster window shows without converting).
enum class PicturePixels { VideoPlanes, Rgba, Rgb32 };
std::size_t pictureBytes(int width, int height, PicturePixels pixels);

// "" when `picture` can be made of `slices` (and `velocity` when it tints) with `layers`, else what is wrong.
std::string slicePictureProblem(const SlicePicture& picture, const SliceSet& slices, const SliceSet* velocity,
                                std::span<const PictureLayer> layers, PicturePixels pixels);

// Pictures made on the solver's device, several on their way at once, each collected in the order started.
class PictureRenderer {
 public:
  virtual ~PictureRenderer() = default;
  virtual std::string deviceName() const = 0;
  virtual bool onGpu() const = 0;  // a CPU device would take its work from the solver's cores
  // Starts the picture; `slices` (and `velocity`, `layers`) are held until it is collected. Throws
  // std::invalid_argument for a picture that cannot be made (slicePictureProblem), ComputeError when the
  // device refuses.
  virtual void start(const SlicePicture& picture, std::shared_ptr<const SliceSet> slices,
                     std::shared_ptr<const SliceSet> velocity, std::vector<PictureLayer> layers,
                     PicturePixels pixels) = 0;
  virtual int inFlight() const = 0;
  // Waits for the oldest picture started and calls use(bytes) with it (valid during the call).
  virtual void collect(const std::function<void(std::span<const std::uint8_t> bytes)>& use) = 0;
  // The device's time for the pictures collected so far: the kernel's, and the read-back's.
  struct Times {
    long pictures = 0;
    double kernelSeconds = 0.0, readSeconds = 0.0;
  };
  virtual Times times() const = 0;
};

}  // namespace iso
