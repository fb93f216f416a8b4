// gpu-half: gpu-optimized's GPU form (2.5D blocking; the absorbing layer in passes of its own, or folded) with its
// fields stored as IEEE half, 16 bits, and the arithmetic in float: fewer bytes per point-step for a
// stage whose speed is the memory's. resources/stages/gpu-half.md explains it for learners;
// docs/NUMERICS.md ("Half-precision storage") gives its accuracy.
//  - storage = 0 (the default): incremental, (U^n, D^n = U^n − U^(n−1)) in half, vel in half: 10 B per
//    point-step (read U, D and vel, write D and U^(n+1)); 1: the same with vel in float: 12 B.
//  - storage = 2: plain, u^n and u^(n−1) in half as gpu-optimized keeps them in float, vel in half: 8 B;
//    3: vel in float: 10 B. Plain rounding enters each step as an error of the field's velocity and drifts.
//  - mma = 1 (NVIDIA 8.0+): the x and y sums on the tensor cores, products of halves exact and sums in float
//    (optimized_gpu.cl, "The x and y sums on the tensor cores"): the CUDA cores keep z and the update.
// The field's scale (a power of two) comes from the problem's amplitude bound (OpenClSolver.h,
// halfFieldScale), vel's from its largest value: both exact, so the kernel computes on scaled values and
// only what enters or leaves the device is converted.
#include <array>

#include "compute/stages/GpuOptimizedStage.h"

namespace iso {

using namespace stage_parts;

namespace {

// storage = 0 .. 3: incremental or plain, vel half or float.
bool incremental(const StageParamMap& p) { return p.at("storage") < 2; }
bool halfVel(const StageParamMap& p) { return p.at("storage") % 2 == 0; }

constexpr int kMaxHalfPrefetch = 6;  // planes in flight ahead of the arithmetic

class GpuHalfStage final : public GpuOptimizedStage {
 public:
  GpuHalfStage()
      : GpuOptimizedStage({.id = "gpu-half",
                           .title = "GPU half storage",
                           .description =
                               "gpu-optimized's kernel with the wavefield (and v²dt²) stored as 16-bit IEEE half "
                               "and the arithmetic in float: fewer bytes per point-step, at a measured cost in "
                               "accuracy.",
                           .bytesPerPointStep = 10,
                           .previous = "gpu-optimized",
                           .sourceFiles = {"resources/kernels/optimized_gpu.cl", "resources/kernels/common.cl"},
                           .agreementTolerance = 5e-3}) {}  // docs/NUMERICS.md, "Half-precision storage"

  std::vector<StageParamSpec> parameters(const DeviceInfo& device) const override {
    std::vector<StageParamSpec> out = gpuFormParameters(device);
    for (StageParamSpec& spec : out) {
      // A plane of halves takes half a float plane's local memory, so cp.async's ring may hold more planes.
      if (spec.name == "prefetch") spec.maxValue = kMaxHalfPrefetch;
      if (spec.name == "async_copy")
        spec.meaning = "NVIDIA 8.0+: 0 loads through registers (the tile holds floats), 1 copies the tile's halves with "
                       "cp.async (2 or 4 x points per work-item; rows on a vector boundary, else through registers), 2 "
                       "also vel and D (storage 0 or 2: vel in half), freeing their register queues";
    }
    StageParamSpec fold = foldLayerParameter();
    fold.meaning += " (plain storage, 2 and 3, always folds)";
    out.push_back(fold);
    out.push_back({"mma", 0, 0, 1,
                   "NVIDIA 8.0+: 1 sums the x and y neighbours on the tensor cores (mma.sync: halves multiplied exactly, "
                   "sums in float); needs async_copy=2, storage=0, fold_layer=0, 2 x 2 points a work-item, tile_x a "
                   "multiple of 4 and tile_y of 8"});
    out.push_back({"storage", 0, 0, 3,
                   "0: incremental (U and D = U^n - U^(n-1)) and vel in half, 10 B/pt; 1: the same with vel in float, "
                   "12 B/pt; 2: plain (u^n, u^(n-1)) and vel in half, 8 B/pt; 3: plain with vel in float, 10 B/pt"});
    return out;
  }

  void checkParameters(const StageParamMap& p, const DeviceInfo& device) const override {
    checkGpuForm(p, device);
    if (p.at("async_copy") != 0 && p.at("x_per_item") == 1)
      throw stageParamError(id(), "async_copy copies half vectors of at least 4 bytes: use x_per_item=2 or 4, or "
                                  "async_copy=0");
    if (p.at("async_copy") == 2 && !halfVel(p))
      throw stageParamError(id(), "async_copy=2 copies vel as the fields are stored, in half: use storage 0 or 2, or "
                                  "async_copy=1");
    if (p.at("mma") != 0) checkTensorCoreForm(p, device);
  }

  std::string buildOptions(const StageParamMap& p, const Grid& grid) const override {
    std::string o = GpuOptimizedStage::buildOptions(p, grid);
    // On rows that do not start on a vector boundary the tile goes through registers as floats: no tensor cores.
    if (p.at("mma") != 0 && asyncCopies(p, grid) == 2) o += " -DMMA=1";
    return o;
  }

  FieldStorage fieldStorage(const StageParamMap& p) const override { return {true, halfVel(p), incremental(p)}; }
  // Plain storage always folds the layer: a pass of its own would round u^(n+1) to half a second time in the
  // layer's cells, and that storage's rounding already drifts (with incremental storage the pass rounds D,
  // whose rounding error is the increment's, small).
  bool foldsLayer(const StageParamMap& p) const override { return p.at("fold_layer") != 0 || !incremental(p); }
  int fieldBuffers(const StageParamMap& p) const override { return incremental(p) ? 3 : 2; }

  std::vector<StageParamMap> proposedCandidates(const DeviceInfo& device) const override {
    if (device.type == "CPU") return {};  // the GPU form is for GPUs; a CPU device runs it as it comes
    // gpu-optimized's leaders (docs/GPU_NOTES.md) and, with half the local memory per plane, up to six
    // planes in flight. With cp.async (NVIDIA 8.0+, refused elsewhere): 64 x 16 and 64 x 8 tiles at 128
    // registers; through registers: 64 x 32 and 64 x 8.
    std::vector<StageParamMap> out;
    const int asyncTiles[][4] = {{32, 8, 2, 2}, {32, 16, 2, 1}, {32, 8, 2, 1}};  // tile_x, tile_y, x/y per item
    for (const auto& [tx, ty, xv, yb] : asyncTiles)
      for (int prefetch : {3, 4, 5, 6})
        for (int zc : {128, 256})
          out.push_back({{"tile_x", tx}, {"tile_y", ty}, {"x_per_item", xv}, {"y_per_item", yb}, {"prefetch", prefetch},
                         {"z_unroll", 4}, {"async_copy", 1}, {"max_registers", 128}, {"z_chunk", zc}});
    // vel and D copied too: two rows a work-item without their register queues (64 x 16 points, 256
    // work-items), or one row with more planes in flight. Short z chunks give a small grid's tiles enough
    // work-groups for every compute unit (a 128³ grid has 16 tiles of 64 x 16 points: 16-plane chunks make
    // 128 work-groups of them).
    for (const auto& [tx, ty, xv, yb] : {std::array{32, 8, 2, 2}, std::array{32, 16, 2, 1}})
      for (int prefetch : {3, 4})
        for (int zc : {16, 64, 256})
          out.push_back({{"tile_x", tx}, {"tile_y", ty}, {"x_per_item", xv}, {"y_per_item", yb}, {"prefetch", prefetch},
                         {"z_unroll", 4}, {"async_copy", 2}, {"max_registers", 128}, {"z_chunk", zc}});
    // The x and y sums on the tensor cores, 2 x 2 points a work-item: 32 x 16 points (4 warps, the H200's
    // leader), 64 x 16 and 32 x 32 (docs/GPU_NOTES.md).
    for (const auto& [tx, ty] : {std::array{16, 8}, std::array{32, 8}, std::array{16, 16}})
      for (int zc : {16, 64, 128, 256})
        out.push_back({{"tile_x", tx}, {"tile_y", ty}, {"x_per_item", 2}, {"y_per_item", 2}, {"prefetch", 3},
                       {"z_unroll", 4}, {"async_copy", 2}, {"mma", 1}, {"max_registers", 128}, {"z_chunk", zc}});
    const int registerTiles[][4] = {{32, 16, 2, 2}, {32, 8, 2, 1}};
    for (const auto& [tx, ty, xv, yb] : registerTiles)
      for (int zc : {64, 128})
        out.push_back({{"tile_x", tx}, {"tile_y", ty}, {"x_per_item", xv}, {"y_per_item", yb}, {"prefetch", 2},
                       {"z_unroll", 4}, {"async_copy", 0}, {"max_registers", tx * ty > 256 ? 128 : 0}, {"z_chunk", zc}});
    return out;
  }

 protected:
  bool cpuForm(const StageParamMap&) const override { return false; }
  // cp.async copies whole half vectors: on rows that do not start on one, the tile goes through registers.
  int asyncCopies(const StageParamMap& p, const Grid& grid) const override {
    return grid.nx() % p.at("x_per_item") == 0 ? p.at("async_copy") : 0;
  }
  std::size_t tileElementBytes(const StageParamMap& p) const override { return p.at("async_copy") ? 2 : sizeof(float); }
  // The tensor cores read 8 rows at once: one 16-byte chunk more a row puts them in different banks.
  std::size_t tileRowPad(const StageParamMap& p) const override { return p.at("mma") != 0 ? 8 : 0; }
  // With mma also the weights' fragments: 9 pairs of 32-bit registers for each of a warp's 32 lanes.
  std::size_t localMemoryBytes(const StageParamMap& p) const override {
    return GpuOptimizedStage::localMemoryBytes(p) + (p.at("mma") != 0 ? 9 * 32 * 8 : 0);
  }

 private:
  // The tensor cores take the tile of halves that cp.async copies with vel and D (the layer in its own passes),
  // in patches of 8 x 16 points, each work-item holding 2 x 2 of them.
  void checkTensorCoreForm(const StageParamMap& p, const DeviceInfo& device) const {
    if (!isNvidiaAmpereOrNewer(device))
      throw stageParamError(id(), "mma=1 needs an NVIDIA GPU of compute capability 8.0 or newer (PTX mma.sync, "
                                  "ldmatrix); " + device.name + " is not one: use mma=0");
    if (p.at("async_copy") != 2 || p.at("storage") != 0 || foldsLayer(p))
      throw stageParamError(id(), "mma=1 reads the tile of halves that async_copy=2 copies, with storage=0 and the layer "
                                  "in its own passes (fold_layer=0)");
    if (p.at("x_per_item") != 2 || p.at("y_per_item") != 2 || p.at("tile_x") % 4 != 0 || p.at("tile_y") % 8 != 0)
      throw stageParamError(id(), "mma=1 works in patches of 8 x 16 points of 2 x 2 a work-item: x_per_item=2, "
                                  "y_per_item=2, tile_x a multiple of 4, tile_y a multiple of 8");
  }
};

}  // namespace

const OpenClStage& gpuHalfStage() {
  static const GpuHalfStage stage;
  return stage;
}

}  // namespace iso
