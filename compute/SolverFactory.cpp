#include "compute/SolverFactory.h"

#include <algorithm>
#include <climits>
#include <map>
#include <stdexcept>
#include <string>
#include <utility>

#include "compute/Bandwidth.h"
#include "compute/ClError.h"
#include "compute/OpenClSolver.h"
#include "compute/StageParams.h"
#include "core/DecomposedSolver.h"
#include "core/Format.h"

namespace iso {

namespace {

// Every rank's entries (each rank as many), in rank order; `mine` itself without ranks.
std::vector<std::string> gatherAll(Communicator* ranks, const std::vector<std::string>& mine) {
  if (!ranks || ranks->size() == 1) return mine;
  std::string joined;
  for (const std::string& m : mine) joined += m + "\n";
  std::vector<std::string> all;
  for (const std::string& text : ranks->allGather(joined))
    for (std::size_t at = 0, end; (end = text.find('\n', at)) != std::string::npos; at = end + 1) all.push_back(text.substr(at, end - at));
  return all;
}

// The devices' shares, every rank's devices in rank order: even on alike devices, else by copy bandwidth
// (measured once per device and cached).
std::vector<double> slabWeights(const std::vector<DeviceInfo>& devices, bool openCl, Communicator* ranks) {
  std::vector<std::string> names;
  for (const DeviceInfo& d : devices) names.push_back(openCl ? deviceKey(d) : "host");
  names = gatherAll(ranks, names);
  if (std::all_of(names.begin(), names.end(), [&](const std::string& n) { return n == names.front(); }))
    return std::vector<double>(names.size(), 1.0);
  std::vector<std::string> mine(devices.size());
  onEveryRank(ranks, [&] {
    for (std::size_t s = 0; s < devices.size(); ++s) mine[s] = std::to_string(copyBandwidthGBs(devices[s]));
  });
  std::vector<double> weights;
  for (const std::string& text : gatherAll(ranks, mine)) weights.push_back(std::stod(text));
  return weights;
}

// OpenCL kernels index their buffers with 32-bit ints (checkGridFitsDevice): a grid past that runs as
// several slabs per device, each with buffers of its own.
constexpr std::size_t kKernelIndexCells = std::size_t(INT_MAX);

}  // namespace

std::unique_ptr<WaveSolver> createSolver(Problem problem, const ExecutionConfig& config) {
  if (const auto ranks = processRanks(); ranks && ranks->size() > 1) return createSolver(std::move(problem), config, ranks);
  return createSolver(std::move(problem), config, resolveStage(config.stage).device(config.device));
}

std::unique_ptr<WaveSolver> createSolver(Problem problem, const ExecutionConfig& config,
                                         const std::optional<DeviceInfo>& device) {
  if (const auto ranks = processRanks(); ranks && ranks->size() > 1) return createSolver(std::move(problem), config, ranks);
  const Stage& stage = resolveStage(config.stage);
  if (stage.openCl() && (namesSeveralDevices(config.device) || problem.grid.paddedSize() > kKernelIndexCells))
    return createSolver(std::move(problem), config, std::shared_ptr<Communicator>());
  return stage.createSolver(std::move(problem), config.params, device);
}

std::unique_ptr<WaveSolver> createSolver(Problem problem, const ExecutionConfig& config,
                                         std::shared_ptr<Communicator> ranks) {
  const Stage& stage = resolveStage(config.stage);
  const bool openCl = stage.openCl() != nullptr;
  const int rankCount = ranks ? ranks->size() : 1;
  // This process's devices: all of them without ranks, the rank's share of them with ranks.
  std::vector<DeviceInfo> devices(1);
  onEveryRank(ranks.get(), [&] {
    if (openCl) devices = slabDevices(config, ranks.get());
  });
  const int perRank = int(devices.size()), deviceCount = rankCount * perRank, rank = ranks ? ranks->rank() : 0;
  const std::vector<double> deviceWeights =
      deviceCount > 1 ? slabWeights(devices, openCl, ranks.get()) : std::vector<double>{1.0};
  const int perDevice = openCl ? slabsPerDevice(problem.grid, deviceWeights, kKernelIndexCells) : 1;
  if (deviceCount * perDevice == 1)
    return stage.createSolver(std::move(problem), config.params, openCl ? std::optional(devices[0]) : std::nullopt);
  std::vector<double> weights;
  std::vector<int> owners;  // with ranks, each rank's slabs follow each other
  for (int d = 0; d < deviceCount; ++d)
    for (int k = 0; k < perDevice; ++k) {
      weights.push_back(deviceWeights[std::size_t(d)]);
      owners.push_back(d / perRank);
    }
  std::vector<Slab> slabs;
  onEveryRank(ranks.get(), [&] {
    try {
      slabs = cutAlongZ(problem.grid.n3, weights);
    } catch (const std::invalid_argument& e) {
      throw ComputeError(ComputeStatus::InvalidParameter, e.what());
    }
    if (!openCl) return;
    std::vector<const DeviceInfo*> deviceOf;
    for (std::size_t s = 0; s < slabs.size(); ++s)
      deviceOf.push_back(owners[s] == rank ? &devices[s / std::size_t(perDevice) % devices.size()] : nullptr);
    const StageParamMap params = resolveStageParams(*stage.openCl(), devices[0], problem.grid, config.params, true);
    checkSlabsFitDevices(problem.grid, slabs, deviceOf, fieldBuffersOf(*stage.openCl(), params),
                         stage.openCl()->fieldStorage(params));
  });
  const Grid whole = problem.grid;
  const auto build = [&](Problem slab, int s) -> std::unique_ptr<WaveSolver> {
    if (!openCl) return stage.createSolver(std::move(slab), config.params, std::nullopt);
    const DeviceInfo& device = devices[std::size_t(s / perDevice) % devices.size()];  // of this rank's
    const StageParamMap params = resolveStageParams(*stage.openCl(), device, whole, config.params, true);
    return stage.createSolver(std::move(slab), params, device);
  };
  return std::make_unique<DecomposedSolver>(std::move(problem), std::move(slabs), std::move(owners), std::move(ranks), build);
}

void checkSlabsFitDevices(const Grid& g, const std::vector<Slab>& slabs, const std::vector<const DeviceInfo*>& deviceOf,
                          int fieldBuffers, const FieldStorage& storage) {
  std::map<std::string, std::size_t> bytes;
  for (std::size_t s = 0; s < slabs.size(); ++s)
    if (deviceOf[s]) bytes[deviceOf[s]->selector()] += openClSolverBytes(Grid(g.n1, g.n2, slabs[s].planes), fieldBuffers, storage);
  for (std::size_t s = 0; s < slabs.size(); ++s) {
    if (!deviceOf[s] || bytes[deviceOf[s]->selector()] <= deviceOf[s]->globalMemBytes) continue;
    throw ComputeError(ComputeStatus::OutOfMemory,
                       "grid " + std::to_string(g.n1) + "x" + std::to_string(g.n2) + "x" + std::to_string(g.n3) + " needs " +
                           byteSize(double(bytes[deviceOf[s]->selector()])) + " of device memory on " + deviceOf[s]->name +
                           " for its slabs there, which has " + byteSize(double(deviceOf[s]->globalMemBytes)) +
                           "; use more devices or a smaller grid");
  }
}

std::vector<DeviceInfo> slabDevices(const ExecutionConfig& config, const Communicator* ranks) {
  const std::vector<DeviceInfo> devices = selectDevices(config.device);
  const int rankCount = ranks ? ranks->size() : 1;
  if (rankCount == 1) return devices;
  if (devices.size() == 1) return devices;
  if (devices.size() % std::size_t(rankCount) != 0)
    throw ComputeError(ComputeStatus::UnknownDevice,
                       "--device names " + std::to_string(devices.size()) + " devices for " + std::to_string(rankCount) +
                           " ranks: name one for all, local-rank (each rank's GPU on its host), or as many for each rank "
                           "(each takes its share of the list in order)");
  const std::size_t each = devices.size() / std::size_t(rankCount), first = each * std::size_t(ranks->rank());
  return {devices.begin() + std::ptrdiff_t(first), devices.begin() + std::ptrdiff_t(first + each)};
}

}  // namespace iso
