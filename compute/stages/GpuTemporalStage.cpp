// gpu-temporal: temporal blocking, two steps per pass (resources/kernels/temporal.cl). A work-group owns
// a tile_x x tile_y tile of the x/y plane and streams it through z; it computes the intermediate level
// u^(n+1) on the tile plus an R-wide halo and u^(n+2) on the tile, both on chip, in blocks of
// x_per_item x y_per_item points (one block per work-item, the first work-items on the intermediate
// level), and writes both out of place into the two free buffers of four. Planes of u^n are loaded
// `prefetch` planes ahead, through registers or (NVIDIA 8.0+, async_copy) by cp.async into a ring.
#include "compute/stages/OpenClStage.h"

namespace iso {
namespace {

using namespace stage_parts;

// Points of a work-item's block: each holds 2(R+1) registers of queues.
constexpr int kMaxPointsPerItem = 8;
constexpr int kMaxPrefetch = 3;  // planes of u^n loaded ahead of the arithmetic
constexpr int kMaxZUnroll = 8;   // copies of the z loop's body

struct Shape {
  std::size_t x, y, xb, yb;  // tile and block, points
  std::size_t u0Planes;      // planes of u^n in local memory: 2, or prefetch + 1 with async copies
  std::size_t level1Items() const { return (x + 2 * kHalfLength) / xb * ((y + 2 * kHalfLength) / yb); }
  std::size_t level2Items() const { return x / xb * (y / yb); }
  std::size_t items() const { return level1Items() + level2Items(); }
  // Planes of u^n on the tile + 2R halo, and two (double-buffered) of u^(n+1) on the tile + R halo.
  std::size_t localFloats() const {
    const std::size_t h = kHalfLength;
    return u0Planes * (x + 4 * h) * (y + 4 * h) + 2 * (x + 2 * h) * (y + 2 * h);
  }
};

Shape shapeOf(const StageParamMap& p) {
  return {std::size_t(p.at("tile_x")), std::size_t(p.at("tile_y")), std::size_t(p.at("x_per_item")),
          std::size_t(p.at("y_per_item")), p.at("async_copy") ? std::size_t(p.at("prefetch")) + 1 : 2};
}

struct Defaults {
  int tileX, tileY, xPerItem, yPerItem, prefetch, zUnroll, asyncCopy, zChunk, maxRegisters;
};

// The built-in defaults, for devices the tuning databases know nothing of (resources/tuning/ ships the
// H100's measured best for NVIDIA GPUs of compute capability 8.0+: 32 x 16 tiles of 1 x 4 blocks, cp.async
// one plane ahead, whole z columns, 128 registers). GPUs: 16 x 16 tiles of 4 x 2 blocks, 128 + 32
// work-items (every vendor's default limit allows 256), 26 KiB. CPU devices: the same tiles (the fastest
// of the candidates through PoCL) and whole z columns (each chunk loads 4R extra planes).
Defaults defaultsFor(const DeviceInfo& device) {
  if (device.type == "CPU") return {16, 16, 4, 2, 1, 1, 0, 0, 0};
  return {16, 16, 4, 2, 1, 1, 0, 128, 0};
}

class GpuTemporalStage final : public OpenClStage {
 public:
  GpuTemporalStage()
      : OpenClStage({.id = "gpu-temporal",
                     .title = "GPU temporal",
                     .description =
                         "Temporal blocking: two time steps per pass over memory. The intermediate field is computed "
                         "on the tile and its halo and stays on chip, so memory moves 10 instead of 16 bytes per point "
                         "and step.",
                     .bytesPerPointStep = 10,
                     .previous = "gpu-optimized",
                     .sourceFiles = {"resources/kernels/temporal.cl"}}) {}

  std::vector<StageParamSpec> parameters(const DeviceInfo& device) const override {
    const Defaults d = defaultsFor(device);
    return {
        {"tile_x", d.tileX, 1, kMaxTile, "tile width along x in points (the work-group follows from tile and block)"},
        {"tile_y", d.tileY, 1, kMaxTile, "tile height along y in points"},
        {"x_per_item", d.xPerItem, 1, 4, "consecutive x points of a work-item's block (1, 2 or 4; divides tile_x)"},
        {"y_per_item", d.yPerItem, 1, 4, "rows of a work-item's block (1, 2 or 4; divides tile_y)"},
        {"prefetch", d.prefetch, 1, kMaxPrefetch,
         "planes of u^n loaded ahead of the arithmetic (vel and u^(n-1) one fewer); through registers each "
         "costs the work-item's share of a plane plus 2 registers per point"},
        {"z_unroll", d.zUnroll, 1, kMaxZUnroll, "copies of the z loop's body (the queues' shifts become renaming)"},
        {"async_copy", d.asyncCopy, 0, 1,
         "NVIDIA 8.0+: 1 copies the planes of u^n by cp.async into a ring of prefetch + 1 local planes, 0 loads "
         "them through registers"},
        chunk("z_chunk", 'z', d.zChunk),
        maxRegisters(d.maxRegisters),
    };
  }

  void checkParameters(const StageParamMap& p, const DeviceInfo& device) const override {
    checkMaxRegisters(id(), p, device);
    if (p.at("async_copy") != 0 && !isNvidiaAmpereOrNewer(device))
      throw stageParamError(id(), "async_copy needs an NVIDIA GPU of compute capability 8.0 or newer (PTX cp.async); " +
                                      device.name + " is not one: use async_copy=0");
    requireOneOf(id(), p, "x_per_item", {1, 2, 4}, "the block must divide the halo's 2R = 16 points");
    requireOneOf(id(), p, "y_per_item", {1, 2, 4}, "the block must divide the halo's 2R = 16 rows");
    const Shape s = shapeOf(p);
    if (s.x % s.xb != 0 || s.y % s.yb != 0)
      throw stageParamError(id(), "a " + std::to_string(s.xb) + " x " + std::to_string(s.yb) + " block does not divide the " +
                                      std::to_string(s.x) + " x " + std::to_string(s.y) +
                                      " tile: tile_x must be a multiple of x_per_item, tile_y of y_per_item");
    if (s.xb * s.yb > std::size_t(kMaxPointsPerItem))
      throw stageParamError(id(), "a block of " + std::to_string(s.xb) + " x " + std::to_string(s.yb) + " points holds " +
                                      std::to_string(s.xb * s.yb * 2 * (kHalfLength + 1)) +
                                      " registers of queues; at most " + std::to_string(kMaxPointsPerItem) +
                                      " points per work-item fit");
  }

  std::string kernelFile(const StageParamMap&) const override { return "temporal.cl"; }

  std::string buildOptions(const StageParamMap& p, const Grid&) const override {
    return "-DTX=" + std::to_string(p.at("tile_x")) + " -DTY=" + std::to_string(p.at("tile_y")) +
           " -DXB=" + std::to_string(p.at("x_per_item")) + " -DYB=" + std::to_string(p.at("y_per_item")) +
           " -DPREFETCH=" + std::to_string(p.at("prefetch")) + " -DZ_UNROLL=" + std::to_string(p.at("z_unroll")) +
           " -DASYNC=" + std::to_string(p.at("async_copy"));
  }

  // One-dimensional: the intermediate level's blocks, then the tile's.
  std::array<std::size_t, 2> workGroup(const StageParamMap& p) const override { return {shapeOf(p).items(), 1}; }

  std::size_t localMemoryBytes(const StageParamMap& p) const override { return shapeOf(p).localFloats() * sizeof(float); }

  StageLaunch launch(const StageParamMap& p, const Grid& g) const override {
    const Shape s = shapeOf(p);
    const int zc = chunkLength(p.at("z_chunk"), g.n3);
    StageLaunch l;
    l.global = {ceilDiv(g.n1, s.x) * s.items(), ceilDiv(g.n2, s.y), ceilDiv(g.n3, zc)};
    l.local = {s.items(), 1, 1};
    l.extraArgs = {zc};
    return l;
  }

  // As for gpu-optimized: NVIDIA's driver reports 256 work-items for every kernel.
  bool kernelLimitIsReliable(const StageParamMap&, const DeviceInfo& device) const override {
    return !isNvidia(device);
  }

  std::vector<StageParamMap> proposedCandidates(const DeviceInfo& device) const override {
    std::vector<StageParamMap> out;
    const auto add = [&](int tx, int ty, int xb, int yb, int prefetch, int unroll, int async, int zc, int regs) {
      out.push_back({{"tile_x", tx}, {"tile_y", ty}, {"x_per_item", xb}, {"y_per_item", yb}, {"prefetch", prefetch},
                     {"z_unroll", unroll}, {"async_copy", async}, {"z_chunk", zc}, {"max_registers", regs}});
    };
    if (device.type == "CPU") {
      for (int zc : {0, 32}) {
        add(16, 16, 4, 2, 1, 1, 0, zc, 0);
        add(16, 8, 2, 2, 1, 1, 0, zc, 0);
      }
      return out;
    }
    if (!isNvidiaAmpereOrNewer(device)) {
      // Through registers, the driver's own register allocation, at most 256 work-items (160 and 224).
      for (int prefetch : {1, 2})
        for (int zc : {0, 128}) {
          add(16, 16, 4, 2, prefetch, 1, 0, zc, 0);
          add(16, 8, 2, 2, prefetch, 1, 0, zc, 0);
        }
      return out;
    }
    // NVIDIA 8.0+ (docs/GPU_NOTES.md, gpu-temporal). 512 work-items of 4 points at 128 registers (one
    // work-group per multiprocessor): cp.async one or two planes ahead, the z loop unrolled 1, 2 or 4
    // times, in the two block shapes that led the first sweep, whole z columns and chunks of 128.
    for (const auto& [xb, yb] : {std::pair{2, 2}, std::pair{1, 4}})
      for (int prefetch : {1, 2})
        for (int unroll : {1, 2, 4}) add(32, 16, xb, yb, prefetch, unroll, 1, 0, 128);
    for (int unroll : {1, 4}) {
      add(32, 16, 2, 2, 2, unroll, 1, 128, 128);
      add(16, 32, 2, 2, 2, unroll, 1, 0, 128);
    }
    // 1024 work-items of 2 points at 64 registers: twice the warps per multiprocessor.
    for (int prefetch : {1, 2}) {
      add(32, 16, 2, 1, prefetch, 1, 1, 0, 64);
      add(32, 16, 2, 1, prefetch, 4, 1, 0, 64);
      add(32, 16, 1, 2, prefetch, 1, 1, 0, 64);
    }
    // Through registers: the first form (the reference) and two planes ahead.
    add(32, 16, 2, 2, 1, 1, 0, 0, 128);
    add(32, 16, 2, 2, 2, 4, 0, 0, 128);
    add(32, 16, 1, 4, 1, 1, 0, 0, 128);
    return out;
  }

  int stepsPerPass(const StageParamMap&) const override { return 2; }
  int fieldBuffers(const StageParamMap&) const override { return 4; }
};

}  // namespace

const OpenClStage& gpuTemporalStage() {
  static const GpuTemporalStage stage;
  return stage;
}

}  // namespace iso
