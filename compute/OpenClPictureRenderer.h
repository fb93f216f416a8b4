#pragma once
// Pictures of the 3D slice view made on an OpenCL solver's device (core/SlicePicture.h), by the kernel of
// resources/kernels/picture.cl, in queues of their own over the solver's context (ClContext::sharing): the
// kernel runs beside the solver's steps instead of taking turns with them as a second context (OpenGL's)
// does. Per picture: the three planes and any layer whose generation changed go to the device, one
// work-item per 2 × 2 block makes the picture, and it comes back into page-locked memory of the
// renderer's, all without waiting; collect waits for the oldest. The program is built at the first picture,
// or on a thread of its own from the renderer's construction on (OpenClSolver asks for that on a GPU, so
// that neither the window's first frame nor a recording's first picture waits for the driver's compiler;
// a CPU device's cores are the solver's).
#include <array>
#include <cstdint>
#include <deque>
#include <future>
#include <memory>
#include <optional>
#include <vector>

#include "compute/ClHost.h"
#include "core/SlicePicture.h"

namespace iso {

class OpenClPictureRenderer : public PictureRenderer {
 public:
  static constexpr int kSlots = 3;  // pictures on their way at once

  enum class Build { AtFirstPicture, InBackground };
  explicit OpenClPictureRenderer(const ClContext& solverContext, Build when = Build::AtFirstPicture);
  ~OpenClPictureRenderer() override;  // waits for the pictures on their way

  std::string deviceName() const override { return ctx_.info().name; }
  bool onGpu() const override { return ctx_.info().type == "GPU"; }
  void start(const SlicePicture& picture, std::shared_ptr<const SliceSet> slices, std::shared_ptr<const SliceSet> velocity,
             std::vector<PictureLayer> layers, PicturePixels pixels) override;
  int inFlight() const override { return int(flight_.size()); }
  void collect(const std::function<void(std::span<const std::uint8_t> bytes)>& use) override;
  Times times() const override { return times_; }

 private:
  struct Flight {
    int slot = 0;
    std::size_t bytes = 0;
    std::shared_ptr<const SliceSet> slices, velocity;
    std::vector<PictureLayer> layers;  // their pixels, until the device has them
    Event planesSent, kernel, read;
  };
  // Page-locked host memory the driver allocates (a buffer mapped for the renderer's life): copies to and
  // from it are DMA transfers that return at once, where pageable memory is first copied by the driver.
  struct PinnedMemory {
    Buffer<std::uint8_t> buffer;
    std::uint8_t* memory = nullptr;
    std::size_t bytes = 0;
  };
  // The program with its kernel and the buffers whose sizes do not depend on the picture.
  struct BuiltProgram {
    Program program;
    Kernel kernel;
    Buffer<std::uint32_t> colormap;
    Buffer<int> layerTable;
  };
  static BuiltProgram build(const ClContext& ctx);
  void ensureBuilt();  // waits for the build on its way, or builds
  // Non-blocking write of `bytes` from `from` into `to` at byte `offset`.
  Event send(cl_mem to, std::size_t offset, std::size_t bytes, const void* from) const;
  Event sendPlanes(const SliceSet& slices, const std::shared_ptr<const SliceSet>& velocity, bool tints);  // the planes' write
  // Lets go of the slices of pictures whose planes the device has: their memory (a slot of the studio's
  // ring, which the solver writes the next frames into) is free again before the picture comes back.
  void releaseSentSlices();
  void sendColormap(const SlicePicture& picture);
  void sendLayers(const std::vector<PictureLayer>& layers);  // those whose pixels changed
  // `pinned` holding at least `bytes` (mapped again when it grows).
  std::uint8_t* ensure(PinnedMemory& pinned, std::size_t bytes, const char* what);
  void unmap(PinnedMemory& pinned);

  ClContext ctx_;
  bool built_ = false;
  std::future<BuiltProgram> building_;  // the build on its way (Build::InBackground)
  Program program_;
  Kernel kernel_;
  Buffer<float> planes_, velocity_;
  std::shared_ptr<const SliceSet> velocitySent_;
  Buffer<std::uint32_t> colormap_;
  std::optional<std::array<std::uint32_t, kColourTableEntries>> colormapSent_;
  Buffer<int> layerTable_;
  Buffer<std::uint32_t> layerWords_;
  std::vector<std::array<int, 5>> layerPlaces_;   // x, y, width, height, first word: as the table holds them
  std::vector<std::uint64_t> layerGenerations_;   // of the pixels the device holds per place
  Buffer<std::uint8_t> out_;
  std::array<PinnedMemory, kSlots> readBack_;  // each picture on its way is read into its slot's
  int nextSlot_ = 0;
  std::deque<Flight> flight_;
  Times times_;
};

}  // namespace iso
