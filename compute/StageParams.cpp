#include "StageParams.h"

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>

#include "ClError.h"
#include "KernelCache.h"

namespace iso {

namespace {

constexpr int kMaxTile = 1024;     // any larger tile exceeds every device's work-group limit anyway
constexpr int kMaxYPerItem = 8;    // each row costs 2(R+1) registers of queues per vector
constexpr int kHalo = 8;           // R
constexpr int kMaxPrefetch = 3;    // gpu-optimized: planes loaded ahead of the arithmetic
constexpr int kMaxZUnroll = 8;     // gpu-optimized: copies of the z loop's body

ComputeError badParam(const std::string& stage, const std::string& what) {
  return ComputeError(ComputeStatus::InvalidParameter, "stage '" + stage + "': " + what);
}

std::string databasePath() {
  const std::string dir = cacheDirectory();
  return dir.empty() ? std::string() : dir + "/tuning.json";
}

nlohmann::json readDatabase() {
  const std::string path = databasePath();
  if (path.empty()) return nlohmann::json::object();
  std::ifstream f(path);
  if (!f) return nlohmann::json::object();
  // A corrupt database only loses the tuned values: fall back to the defaults.
  nlohmann::json j = nlohmann::json::parse(f, nullptr, /*allow_exceptions=*/false);
  return j.is_object() ? j : nlohmann::json::object();
}

}  // namespace

bool usesCpuOptimizedKernel(const std::string& stage, const StageParamMap& params) {
  const auto it = params.find("cpu_form");
  return stage == "gpu-optimized" && it != params.end() && it->second != 0;
}

std::vector<std::string> stageParamNames(const std::string& stage) {
  if (stage == "gpu-basic" || stage == "gpu-linear") return {"wg_x", "wg_y"};
  if (stage == "gpu-private-z") return {"wg_x", "wg_y", "z_chunk"};
  if (stage == "gpu-private-x") return {"wg_x", "wg_y", "x_chunk"};
  if (stage == "gpu-slm") return {"tile_x", "tile_y", "z_chunk", "max_registers"};
  if (stage == "gpu-optimized")
    return {"cpu_form", "tile_x",  "tile_y", "x_per_item", "y_per_item",   "prefetch",
            "z_unroll", "async_copy", "vec",  "z_chunk",    "max_registers"};
  throw badParam(stage, "not an OpenCL stage (OpenCL stages: gpu-basic, gpu-linear, gpu-private-z, "
                        "gpu-private-x, gpu-slm, gpu-optimized)");
}

StageParamMap builtinStageDefaults(const std::string& stage, const DeviceInfo& device) {
  const bool cpu = device.type == "CPU";
  // z_chunk / x_chunk 0 = the whole axis in one chunk.
  if (stage == "gpu-basic" || stage == "gpu-linear") return {{"wg_x", 32}, {"wg_y", 4}};
  if (stage == "gpu-private-z") return {{"wg_x", 32}, {"wg_y", 4}, {"z_chunk", cpu ? 16 : 0}};
  if (stage == "gpu-private-x") return {{"wg_x", 32}, {"wg_y", 4}, {"x_chunk", 0}};
  // GPU tiles: the best of the H100 sweep (docs/GPU_NOTES.md); max_registers 0 = the compiler's choice.
  if (stage == "gpu-slm") return {{"tile_x", 32}, {"tile_y", 4}, {"z_chunk", cpu ? 16 : 64}, {"max_registers", 0}};
  if (stage == "gpu-optimized") {
    if (cpu) return {{"cpu_form", 1}, {"tile_x", 16}, {"tile_y", 8}, {"x_per_item", 2}, {"y_per_item", 1}, {"prefetch", 2},
                     {"z_unroll", 4}, {"async_copy", 0}, {"vec", 8}, {"z_chunk", 8}, {"max_registers", 0}};
    // NVIDIA compute capability 8.0+ (H100 sweeps, docs/GPU_NOTES.md): 64 x 32 tiles of 2 x 2 points per
    // work-item, planes copied by cp.async two ahead, registers capped at 128 so that the 512 work-items
    // fit one multiprocessor, z chunks of 64 planes (144 / 154 / 147 Gpts/s at 256^3 / 512^3 / 768^3 untuned).
    if (device.vendor.find("NVIDIA") != std::string::npos && device.nvComputeMajor >= 8)
      return {{"cpu_form", 0}, {"tile_x", 32}, {"tile_y", 16}, {"x_per_item", 2}, {"y_per_item", 2}, {"prefetch", 2},
              {"z_unroll", 4}, {"async_copy", 1}, {"vec", 8}, {"z_chunk", 64}, {"max_registers", 128}};
    // Other GPUs: loads through registers three planes ahead, 64 x 8 tiles of float2 vectors, 256
    // work-items (every vendor's default limit allows that).
    return {{"cpu_form", 0}, {"tile_x", 32}, {"tile_y", 8}, {"x_per_item", 2}, {"y_per_item", 1}, {"prefetch", 3},
            {"z_unroll", 4}, {"async_copy", 0}, {"vec", 8}, {"z_chunk", 64}, {"max_registers", 0}};
  }
  stageParamNames(stage);  // throws the "not an OpenCL stage" error
  return {};
}

StageParamMap defaultStageParams(const std::string& stage, const DeviceInfo& device) {
  StageParamMap p = builtinStageDefaults(stage, device);
  StageParamMap tuned;
  if (lookupTunedParams(stage, device, tuned))
    for (const auto& [k, v] : tuned)
      if (p.count(k)) p[k] = v;
  return p;
}

std::size_t workGroupSize(const std::string& stage, const StageParamMap& p) {
  if (usesCpuOptimizedKernel(stage, p)) return 0;  // the driver chooses
  if (p.count("wg_x")) return std::size_t(p.at("wg_x")) * std::size_t(p.at("wg_y"));
  return std::size_t(p.at("tile_x")) * std::size_t(p.at("tile_y"));
}

std::size_t localMemoryBytes(const std::string& stage, const StageParamMap& p) {
  if (stage == "gpu-slm")
    return std::size_t(p.at("tile_x") + 2 * kHalo) * std::size_t(p.at("tile_y") + 2 * kHalo) * sizeof(float);
  if (stage == "gpu-optimized" && !usesCpuOptimizedKernel(stage, p)) {
    // A ring of planes (2, or prefetch + 1 with async copies) of the tile with its halo; with
    // async_copy 2 also vel and next of the work-items' own points for each plane of the ring.
    const std::size_t width = std::size_t(p.at("tile_x") * p.at("x_per_item")), rows = std::size_t(p.at("tile_y") * p.at("y_per_item"));
    const int async = p.count("async_copy") ? p.at("async_copy") : 0;
    const std::size_t planes = async ? std::size_t(p.at("prefetch")) + 1 : 2, ownArrays = async == 2 ? 2 : 0;
    return planes * ((width + 2 * kHalo) * (rows + 2 * kHalo) + ownArrays * width * rows) * sizeof(float);
  }
  return 0;
}

StageParamMap resolveStageParams(const std::string& stage, const DeviceInfo& device,
                                 const StageParamMap& overrides, bool useDatabase) {
  StageParamMap p = useDatabase ? defaultStageParams(stage, device) : builtinStageDefaults(stage, device);
  const std::vector<std::string> names = stageParamNames(stage);
  for (const auto& [key, value] : overrides) {
    if (std::find(names.begin(), names.end(), key) == names.end()) {
      std::string known;
      for (const auto& n : names) known += (known.empty() ? "" : ", ") + n;
      throw badParam(stage, "unknown parameter '" + key + "' (this stage takes: " + known + ")");
    }
    p[key] = value;
  }
  for (const auto& [key, value] : p) {
    const bool zeroAllowed =
        key == "z_chunk" || key == "x_chunk" || key == "cpu_form" || key == "max_registers" || key == "async_copy";
    if (zeroAllowed ? value < 0 : value < 1)
      throw badParam(stage, key + " = " + std::to_string(value) + " must be " +
                                (zeroAllowed ? ">= 0" : ">= 1") + (key == "z_chunk" || key == "x_chunk" ? " (chunk 0 = the whole axis)" : ""));
    if ((key == "tile_x" || key == "tile_y" || key == "wg_x" || key == "wg_y") && value > kMaxTile)
      throw badParam(stage, key + " = " + std::to_string(value) + " exceeds " + std::to_string(kMaxTile));
  }
  if (p.count("y_per_item") && p["y_per_item"] > kMaxYPerItem)
    throw badParam(stage, "y_per_item = " + std::to_string(p["y_per_item"]) + " exceeds " +
                              std::to_string(kMaxYPerItem) + " (each row holds 18 registers of queues per x point)");
  const bool nvidia = device.vendor.find("NVIDIA") != std::string::npos;
  if (p.count("max_registers") && p["max_registers"] != 0) {
    if (!nvidia)
      throw badParam(stage, "max_registers caps registers through the PTX of NVIDIA's OpenCL; " + device.name +
                                " is not an NVIDIA device: use max_registers=0");
    if (p["max_registers"] < 32 || p["max_registers"] > 255)
      throw badParam(stage, "max_registers = " + std::to_string(p["max_registers"]) + " must be 0 or 32..255");
  }
  if (p.count("async_copy") && p["async_copy"] != 0) {
    if (p["async_copy"] > 2)
      throw badParam(stage, "async_copy = " + std::to_string(p["async_copy"]) +
                                " must be 0 (no), 1 (the tile) or 2 (also vel and next)");
    if (!nvidia || device.nvComputeMajor < 8)
      throw badParam(stage, "async_copy needs an NVIDIA GPU of compute capability 8.0 or newer (PTX cp.async); " +
                                device.name + " is not one: use async_copy=0");
  }
  if (p.count("cpu_form") && p["cpu_form"] > 1)
    throw badParam(stage, "cpu_form = " + std::to_string(p["cpu_form"]) + " must be 0 or 1");
  if (p.count("prefetch") && p["prefetch"] > kMaxPrefetch)
    throw badParam(stage, "prefetch = " + std::to_string(p["prefetch"]) + " exceeds " + std::to_string(kMaxPrefetch) +
                              " (planes loaded ahead; each costs 3 registers per row plus the halo cells)");
  if (p.count("z_unroll") && p["z_unroll"] > kMaxZUnroll)
    throw badParam(stage, "z_unroll = " + std::to_string(p["z_unroll"]) + " exceeds " + std::to_string(kMaxZUnroll) +
                              " (copies of the z loop's body)");
  if (p.count("x_per_item") && p["x_per_item"] != 1 && p["x_per_item"] != 2 && p["x_per_item"] != 4)
    throw badParam(stage, "x_per_item = " + std::to_string(p["x_per_item"]) +
                              " must be 1, 2 or 4 (consecutive x points of a work-item, one OpenCL vector)");
  if (p.count("vec") && p["vec"] != 2 && p["vec"] != 4 && p["vec"] != 8 && p["vec"] != 16)
    throw badParam(stage, "vec = " + std::to_string(p["vec"]) + " must be 2, 4, 8 or 16 (OpenCL vector widths)");

  if (const std::size_t wg = workGroupSize(stage, p); wg > 0) {
    const int wx = p.count("wg_x") ? p["wg_x"] : p["tile_x"];
    const int wy = p.count("wg_y") ? p["wg_y"] : p["tile_y"];
    if (wg > device.maxWorkGroupSize)
      throw badParam(stage, "work-group of " + std::to_string(wg) + " work-items (" + std::to_string(wx) + " x " +
                                std::to_string(wy) + ") exceeds the device's maximum work-group size of " +
                                std::to_string(device.maxWorkGroupSize) + " on " + device.name);
    if (device.maxWorkItemSizes.size() >= 2 &&
        (std::size_t(wx) > device.maxWorkItemSizes[0] || std::size_t(wy) > device.maxWorkItemSizes[1]))
      throw badParam(stage, "work-group " + std::to_string(wx) + " x " + std::to_string(wy) +
                                " exceeds the device's maximum work-item sizes " +
                                std::to_string(device.maxWorkItemSizes[0]) + " x " +
                                std::to_string(device.maxWorkItemSizes[1]));
  }
  if (const std::size_t local = localMemoryBytes(stage, p); local > device.localMemBytes)
    throw badParam(stage, "tile needs " + std::to_string(local) + " bytes of local memory (" + formatStageParams(p) +
                              ") but " + device.name + " has " + std::to_string(device.localMemBytes) +
                              " bytes; choose a smaller tile");
  return p;
}

std::vector<StageParamMap> tuningCandidates(const std::string& stage, const DeviceInfo& device, const Grid& grid) {
  std::vector<StageParamMap> raw;
  if (stage == "gpu-slm") {
    for (int tx : {16, 32, 64})
      for (int ty : {4, 8, 16})
        for (int zc : {0, 64}) raw.push_back({{"tile_x", tx}, {"tile_y", ty}, {"z_chunk", zc}});
  } else if (stage == "gpu-optimized" && device.type == "CPU") {
    for (int v : {4, 8, 16})
      for (int zc : {4, 8, 32}) raw.push_back({{"cpu_form", 1}, {"vec", v}, {"z_chunk", zc}});
  } else if (stage == "gpu-optimized") {
    // The leaders of the H100 sweeps (docs/GPU_NOTES.md). With async copies (NVIDIA 8.0+; refused
    // elsewhere, so not candidates there): 64 x 32 and 64 x 16 tiles with 128 registers; through
    // registers: 64 x 8 tiles. Small z chunks give small grids enough work-groups.
    const int asyncTiles[][4] = {{32, 16, 2, 2}, {16, 32, 4, 1}, {16, 16, 4, 1}};  // tile_x, tile_y, x/y per item
    for (const auto& [tx, ty, xv, yb] : asyncTiles)
      for (int zc : {32, 64, 128, 256})
        raw.push_back({{"cpu_form", 0}, {"tile_x", tx}, {"tile_y", ty}, {"x_per_item", xv}, {"y_per_item", yb},
                       {"prefetch", 2}, {"z_unroll", 4}, {"async_copy", 1}, {"max_registers", 128}, {"z_chunk", zc}});
    const int registerTiles[][4] = {{32, 8, 2, 1}, {16, 8, 4, 1}, {64, 8, 1, 2}};
    for (const auto& [tx, ty, xv, yb] : registerTiles)
      for (int zc : {64, 128})
        raw.push_back({{"cpu_form", 0}, {"tile_x", tx}, {"tile_y", ty}, {"x_per_item", xv}, {"y_per_item", yb},
                       {"prefetch", 3}, {"z_unroll", 4}, {"async_copy", 0}, {"max_registers", 0}, {"z_chunk", zc}});
  } else {
    raw.push_back(builtinStageDefaults(stage, device));
  }
  std::vector<StageParamMap> out;
  for (auto& p : raw) {
    // z chunks at least as tall as the grid are the same candidate as "whole axis".
    if (p.count("z_chunk") && p["z_chunk"] >= grid.n3) p["z_chunk"] = 0;
    if (std::find(out.begin(), out.end(), p) != out.end()) continue;
    try {
      // Candidates override the defaults, so every candidate is a complete parameter set.
      out.push_back(resolveStageParams(stage, device, p, /*useDatabase=*/false));
    } catch (const ComputeError&) {
      // Not runnable on this device (work-group or local memory limits): not a candidate.
    }
  }
  return out;
}

std::string formatStageParams(const StageParamMap& p) {
  std::string s;
  for (const auto& [k, v] : p) s += (s.empty() ? "" : " ") + k + "=" + std::to_string(v);
  return s;
}

std::string deviceKey(const DeviceInfo& device) {
  return device.name + " | " + device.platformName + " | " + device.driverVersion;
}

void storeTunedParams(const std::string& stage, const DeviceInfo& device, const StageParamMap& params,
                      const Grid& tunedOn, double mptsPerSecond) {
  const std::string path = databasePath();
  if (path.empty())
    throw ComputeError(ComputeStatus::DeviceError, "no writable cache directory for the tuning database "
                                                   "(set ISO3DFD_CACHE_DIR)");
  nlohmann::json db = readDatabase();
  nlohmann::json entry;
  entry["params"] = params;
  entry["grid"] = {tunedOn.n1, tunedOn.n2, tunedOn.n3};
  entry["mpts_per_s"] = mptsPerSecond;
  db[deviceKey(device)][stage] = entry;
  const std::string tmp = path + ".tmp";
  {
    std::ofstream f(tmp);
    f << db.dump(2) << "\n";
    if (!f) throw ComputeError(ComputeStatus::DeviceError, "cannot write the tuning database " + tmp);
  }
  std::error_code ec;
  std::filesystem::rename(tmp, path, ec);
  if (ec) throw ComputeError(ComputeStatus::DeviceError, "cannot replace " + path + ": " + ec.message());
}

bool lookupTunedParams(const std::string& stage, const DeviceInfo& device, StageParamMap& out) {
  const nlohmann::json db = readDatabase();
  const auto dev = db.find(deviceKey(device));
  if (dev == db.end() || !dev->is_object()) return false;
  const auto st = dev->find(stage);
  if (st == dev->end() || !st->contains("params") || !(*st)["params"].is_object()) return false;
  out.clear();
  for (const auto& [k, v] : (*st)["params"].items())
    if (v.is_number_integer()) out[k] = v.get<int>();
  return !out.empty();
}

}  // namespace iso
