// gpu-optimized: two kernels behind one stage, picked by cpu_form (by default the device type's).
//  - GPU form (resources/kernels/optimized_gpu.cl): 2.5D blocking, tile_x x tile_y work-items each
//    updating x_per_item x y_per_item points, planes loaded once into a local-memory ring (through
//    registers, or cp.async on NVIDIA 8.0+), the output trailing R planes.
//  - CPU form (resources/kernels/optimized_cpu.cl): each work-item updates vec consecutive x cells with
//    OpenCL vector loads and walks z_chunk planes, so the compiler emits SIMD code directly.
// The absorbing layer's terms come from the layer's own passes after the stencil (pml.cl), or with the
// GPU form and fold_layer = 1 from the stencil's pass itself (foldsLayer).
#include "compute/stages/GpuOptimizedStage.h"

namespace iso {

using namespace stage_parts;

namespace {

constexpr int kMaxYPerItem = 8;  // each row costs 2(R+1) registers of queues per vector
constexpr int kMaxPrefetch = 3;  // planes loaded ahead of the arithmetic
constexpr int kMaxZUnroll = 8;   // copies of the z loop's body

struct Defaults {
  int cpuForm, tileX, tileY, xPerItem, yPerItem, prefetch, asyncCopy, zChunk, maxRegisters;
};

// The built-in defaults, for devices the tuning databases know nothing of (resources/tuning/ ships the
// values measured on NVIDIA GPUs of compute capability 8.0+: cp.async copies, 64 x 32 tiles, 128 registers).
Defaults defaultsFor(const DeviceInfo& device) {
  if (device.type == "CPU") return {1, 16, 8, 2, 1, 2, 0, 8, 0};
  // GPUs: loads through registers three planes ahead, 64 x 8 tiles of float2 vectors, 256 work-items
  // (every vendor's default limit allows that).
  return {0, 32, 8, 2, 1, 3, 0, 64, 0};
}

}  // namespace

GpuOptimizedStage::GpuOptimizedStage()
    : OpenClStage({.id = "gpu-optimized",
                   .title = "GPU optimized",
                   .description =
                       "Our best kernel for the device at hand (register blocking, prefetch of the next plane, "
                       "vector loads), with parameters from the tuning database.",
                   .bytesPerPointStep = 16,
                   .preferred = true,
                   .previous = "gpu-slm",
                   .sourceFiles = {"resources/kernels/optimized_gpu.cl", "resources/kernels/optimized_cpu.cl"}}) {}

GpuOptimizedStage::GpuOptimizedStage(StageInfo info) : OpenClStage(std::move(info)) {}

bool GpuOptimizedStage::cpuForm(const StageParamMap& p) const { return p.at("cpu_form") != 0; }
int GpuOptimizedStage::asyncCopies(const StageParamMap& p, const Grid&) const { return p.at("async_copy"); }
std::size_t GpuOptimizedStage::tileElementBytes(const StageParamMap&) const { return sizeof(float); }

std::vector<StageParamSpec> GpuOptimizedStage::parameters(const DeviceInfo& device) const {
  std::vector<StageParamSpec> out = gpuFormParameters(device);
  out.insert(out.begin(), {"cpu_form", defaultsFor(device).cpuForm, 0, 1,
                           "1: the CPU form (OpenCL vectors along x), 0: the GPU form (2.5D blocking)"});
  out.insert(out.end() - 2, {"vec", 8, 2, 16, "CPU form: x cells per work-item, an OpenCL vector width"});
  out.push_back(foldLayerParameter());
  return out;
}

// Folding is the design that costs the fewest bytes, but on an H100 its terms, computed where the tile meets
// the layer, stall the whole tile's pipeline: slower than the layer's own passes (docs/GPU_NOTES.md).
StageParamSpec GpuOptimizedStage::foldLayerParameter() {
  return {"fold_layer", 0, 0, 1,
          "GPU form: 1 adds the absorbing layer's terms in the stencil's own pass, 0 runs the layer's own passes "
          "after it"};
}

std::vector<StageParamSpec> GpuOptimizedStage::gpuFormParameters(const DeviceInfo& device) {
  const Defaults d = defaultsFor(device);
  return {
      {"tile_x", d.tileX, 1, kMaxTile, "GPU form: work-group width along x in work-items"},
      {"tile_y", d.tileY, 1, kMaxTile, "GPU form: work-group height along y in work-items"},
      {"x_per_item", d.xPerItem, 1, 4, "GPU form: consecutive x points of a work-item, one OpenCL vector"},
      {"y_per_item", d.yPerItem, 1, kMaxYPerItem,
       "GPU form: rows of a work-item (register blocking along y); each row holds 18 registers of queues per x point"},
      {"prefetch", d.prefetch, 1, kMaxPrefetch,
       "GPU form: planes loaded ahead of the arithmetic; each costs 3 registers per row plus the halo cells"},
      {"z_unroll", 4, 1, kMaxZUnroll,
       "GPU form: copies of the z loop's body (made by NVIDIA's compiler; PoCL's keeps the loop as written)"},
      {"async_copy", d.asyncCopy, 0, 2,
       "GPU form, NVIDIA 8.0+: 0 loads through registers, 1 copies the tile with cp.async, 2 also vel and next"},
      chunk("z_chunk", 'z', d.zChunk),
      maxRegisters(d.maxRegisters),
  };
}

void GpuOptimizedStage::checkGpuForm(const StageParamMap& p, const DeviceInfo& device) const {
  checkMaxRegisters(id(), p, device);
  if (p.at("async_copy") != 0 && !isNvidiaAmpereOrNewer(device))
    throw stageParamError(id(), "async_copy needs an NVIDIA GPU of compute capability 8.0 or newer (PTX cp.async); " +
                                    device.name + " is not one: use async_copy=0");
  requireOneOf(id(), p, "x_per_item", {1, 2, 4}, "consecutive x points of a work-item, one OpenCL vector");
}

void GpuOptimizedStage::checkParameters(const StageParamMap& p, const DeviceInfo& device) const {
  checkGpuForm(p, device);
  requireOneOf(id(), p, "vec", {2, 4, 8, 16}, "OpenCL vector widths");
}

std::string GpuOptimizedStage::kernelFile(const StageParamMap& p) const {
  return cpuForm(p) ? "optimized_cpu.cl" : "optimized_gpu.cl";
}

std::string GpuOptimizedStage::buildOptions(const StageParamMap& p, const Grid& grid) const {
  std::string o;
  const auto def = [&](const char* name, const char* key) {
    o += (o.empty() ? "-D" : " -D") + std::string(name) + "=" + std::to_string(p.at(key));
  };
  if (cpuForm(p)) {
    def("VEC", "vec");
    return o;
  }
  def("TX", "tile_x");
  def("TY", "tile_y");
  def("XV", "x_per_item");
  def("YB", "y_per_item");
  def("PREFETCH", "prefetch");
  def("Z_UNROLL", "z_unroll");
  o += " -DASYNC=" + std::to_string(asyncCopies(p, grid));
  // Rows that start on a vector boundary let every global access be one aligned vector.
  o += std::string(" -DALIGNED=") + (grid.nx() % p.at("x_per_item") == 0 ? "1" : "0");
  return o;
}

std::array<std::size_t, 2> GpuOptimizedStage::workGroup(const StageParamMap& p) const {
  if (cpuForm(p)) return {0, 0};  // the driver chooses
  return {std::size_t(p.at("tile_x")), std::size_t(p.at("tile_y"))};
  }

// A ring of planes (2, or prefetch + 1 with async copies) of the tile with its halo; with
// async_copy 2 also vel and next of the work-items' own points for each plane of the ring.
std::size_t GpuOptimizedStage::localMemoryBytes(const StageParamMap& p) const {
  if (cpuForm(p)) return 0;
  const std::size_t width = std::size_t(p.at("tile_x") * p.at("x_per_item"));
  const std::size_t rows = std::size_t(p.at("tile_y") * p.at("y_per_item"));
  const int async = p.at("async_copy");
  const std::size_t planes = async ? std::size_t(p.at("prefetch")) + 1 : 2, ownArrays = async == 2 ? 2 : 0;
  const std::size_t pad = tileRowPad(p);
  return planes * ((width + 2 * kHalfLength + pad) * (rows + 2 * kHalfLength) + ownArrays * (width + pad) * rows) *
         tileElementBytes(p);
}

StageLaunch GpuOptimizedStage::launch(const StageParamMap& p, const Grid& g) const {
  const int zc = chunkLength(p.at("z_chunk"), g.n3);
  StageLaunch l;
  if (cpuForm(p)) {
    l.global = {ceilDiv(g.n1, p.at("vec")), std::size_t(g.n2), ceilDiv(g.n3, zc)};
  } else {
    const std::size_t tx = p.at("tile_x"), ty = p.at("tile_y"), rows = ty * p.at("y_per_item");
    l.global = {ceilDiv(g.n1, tx * p.at("x_per_item")) * tx, ceilDiv(g.n2, rows) * ty, ceilDiv(g.n3, zc)};
    l.local = {tx, ty, 1};
  }
  l.extraArgs = {zc};
  return l;
}

// NVIDIA's driver (580) reports 256 for every kernel, whatever its registers (65536 / 255); for a
// kernel with reqd_work_group_size its compiler keeps the registers low enough for one group (ptxas:
// 64-128 registers at 512 work-items), so the GPU form trusts the launch there, whose status is
// checked like every other.
bool GpuOptimizedStage::kernelLimitIsReliable(const StageParamMap& p, const DeviceInfo& device) const {
  return cpuForm(p) || !isNvidia(device);
}

std::vector<StageParamMap> GpuOptimizedStage::proposedCandidates(const DeviceInfo& device) const {
  std::vector<StageParamMap> out;
  if (device.type == "CPU") {
    for (int v : {4, 8, 16})
      for (int zc : {4, 8, 32}) out.push_back({{"cpu_form", 1}, {"vec", v}, {"z_chunk", zc}});
    return out;
  }
  // The leaders of the H100 sweeps (docs/GPU_NOTES.md). With async copies (NVIDIA 8.0+; refused
  // elsewhere, so not candidates there): 64 x 32 and 64 x 16 tiles with 128 registers; through
  // registers: 64 x 8 tiles. Small z chunks give small grids enough work-groups (a 128³ grid has 8 tiles
  // of 64 x 32 points: 16-plane chunks make 64 work-groups of them, 8-plane ones 128).
  const int asyncTiles[][4] = {{32, 16, 2, 2}, {16, 32, 4, 1}, {16, 16, 4, 1}};  // tile_x, tile_y, x/y per item
  for (const auto& [tx, ty, xv, yb] : asyncTiles)
    for (int zc : {8, 16, 32, 64, 128, 256})
      out.push_back({{"cpu_form", 0}, {"tile_x", tx}, {"tile_y", ty}, {"x_per_item", xv}, {"y_per_item", yb},
                     {"prefetch", 2}, {"z_unroll", 4}, {"async_copy", 1}, {"max_registers", 128}, {"z_chunk", zc}});
  const int registerTiles[][4] = {{32, 8, 2, 1}, {16, 8, 4, 1}, {64, 8, 1, 2}};
  for (const auto& [tx, ty, xv, yb] : registerTiles)
    for (int zc : {16, 64, 128})
      out.push_back({{"cpu_form", 0}, {"tile_x", tx}, {"tile_y", ty}, {"x_per_item", xv}, {"y_per_item", yb},
                     {"prefetch", 3}, {"z_unroll", 4}, {"async_copy", 0}, {"max_registers", 0}, {"z_chunk", zc}});
  return out;
}

const OpenClStage& gpuOptimizedStage() {
  static const GpuOptimizedStage stage;
  return stage;
}

}  // namespace iso
