// gpu-temporal: temporal blocking, two steps per pass (resources/kernels/temporal.cl). A tile_x x tile_y
// work-group owns as many points of the x/y plane and streams them through z; it computes the
// intermediate level u^(n+1) on the tile plus an R-wide halo and u^(n+2) on the tile, both on chip,
// and writes both out of place into the two free buffers of four.
#include "compute/stages/OpenClStage.h"

namespace iso {
namespace {

using namespace stage_parts;

// Level-1 columns per work-item: each holds 2(R+1) registers of queues, so a small tile whose halo
// region dwarfs it (8 x 8: 9 columns) would spill.
constexpr int kMaxColumnsPerItem = 8;

struct Tile {
  std::size_t x, y;
  std::size_t items() const { return x * y; }
  std::size_t level0() const { return (x + 4 * kHalfLength) * (y + 4 * kHalfLength); }  // tile + 2R halo
  std::size_t level1() const { return (x + 2 * kHalfLength) * (y + 2 * kHalfLength); }  // tile + R halo
  std::size_t columnsPerItem() const { return ceilDiv(level1(), items()); }
};

Tile tileOf(const StageParamMap& p) { return {std::size_t(p.at("tile_x")), std::size_t(p.at("tile_y"))}; }

struct Defaults {
  int tileX, tileY, zChunk, maxRegisters;
};

// NVIDIA 8.0+: 32 x 16 work-items, exactly 3 level-1 columns each (48 x 32 = 3 x 512), 18 KiB of
// local memory, registers capped at 128 so that the 512 work-items fit one multiprocessor. Other
// GPUs: 16 x 16 (every vendor's default work-group limit allows 256). CPU devices: 16 x 8 tiles and
// whole z columns (each chunk loads 4R extra planes).
Defaults defaultsFor(const DeviceInfo& device) {
  if (device.type == "CPU") return {16, 8, 0, 0};
  if (isNvidia(device) && device.nvComputeMajor >= 8) return {32, 16, 128, 128};
  return {16, 16, 128, 0};
}

class GpuTemporalStage final : public OpenClStage {
 public:
  std::string id() const override { return "gpu-temporal"; }

  std::vector<StageParamSpec> parameters(const DeviceInfo& device) const override {
    const Defaults d = defaultsFor(device);
    return {
        {"tile_x", d.tileX, 1, kMaxTile, "work-group width along x in work-items, one point of the tile each"},
        {"tile_y", d.tileY, 1, kMaxTile, "work-group height along y in work-items, one point of the tile each"},
        chunk("z_chunk", 'z', d.zChunk),
        maxRegisters(d.maxRegisters),
    };
  }

  void checkParameters(const StageParamMap& p, const DeviceInfo& device) const override {
    checkMaxRegisters(id(), p, device);
    const Tile t = tileOf(p);
    if (t.columnsPerItem() > std::size_t(kMaxColumnsPerItem))
      throw stageParamError(id(), "a " + std::to_string(t.x) + " x " + std::to_string(t.y) + " tile gives each work-item " +
                                      std::to_string(t.columnsPerItem()) + " columns of the intermediate level (" +
                                      std::to_string(t.x + 2 * kHalfLength) + " x " +
                                      std::to_string(t.y + 2 * kHalfLength) + " over " + std::to_string(t.items()) +
                                      " work-items), more than " + std::to_string(kMaxColumnsPerItem) +
                                      " fit in registers: choose a larger tile");
  }

  std::string kernelFile(const StageParamMap&) const override { return "temporal.cl"; }

  std::string buildOptions(const StageParamMap& p, const Grid&) const override {
    return "-DTX=" + std::to_string(p.at("tile_x")) + " -DTY=" + std::to_string(p.at("tile_y"));
  }

  std::array<std::size_t, 2> workGroup(const StageParamMap& p) const override {
    return {std::size_t(p.at("tile_x")), std::size_t(p.at("tile_y"))};
  }

  // One plane of u^n with a 2R halo and one of u^(n+1) with an R halo.
  std::size_t localMemoryBytes(const StageParamMap& p) const override {
    const Tile t = tileOf(p);
    return (t.level0() + t.level1()) * sizeof(float);
  }

  StageLaunch launch(const StageParamMap& p, const Grid& g) const override {
    const int zc = chunkLength(p.at("z_chunk"), g.n3);
    StageLaunch l = workGroupGrid(p.at("tile_x"), p.at("tile_y"), g.n1, g.n2, ceilDiv(g.n3, zc));
    l.extraArgs = {zc};
    return l;
  }

  // As for gpu-optimized: NVIDIA's driver reports 256 work-items for every kernel.
  bool kernelLimitIsReliable(const StageParamMap&, const DeviceInfo& device) const override {
    return !isNvidia(device);
  }

  std::vector<StageParamMap> tuningCandidates(const DeviceInfo& device) const override {
    std::vector<StageParamMap> out;
    if (device.type == "CPU") {
      for (const auto& [tx, ty] : {std::pair{16, 8}, std::pair{32, 8}})
        for (int zc : {0, 32}) out.push_back({{"tile_x", tx}, {"tile_y", ty}, {"z_chunk", zc}});
      return out;
    }
    // Halo work against registers: 32 x 16 (level 1 on 3.0x the tile's points), 64 x 8 (3.75x),
    // 16 x 16 (4x), 64 x 16 and 32 x 32 (2.5x and 2.25x, 1024 work-items: 64 registers each).
    const bool cap = isNvidia(device) && device.nvComputeMajor >= 8;
    for (const auto& [tx, ty] : {std::pair{32, 16}, std::pair{64, 8}, std::pair{16, 16}, std::pair{64, 16},
                                 std::pair{32, 32}})
      for (int zc : {64, 128, 0})
        out.push_back({{"tile_x", tx}, {"tile_y", ty}, {"z_chunk", zc},
                       {"max_registers", cap ? (tx * ty > 512 ? 64 : 128) : 0}});
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
