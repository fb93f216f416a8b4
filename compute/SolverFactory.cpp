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

// The slabs' shares: even on alike devices, else by copy bandwidth (measured once per device and cached);
// with ranks, every rank learns every rank's.
std::vector<double> slabWeights(const std::vector<DeviceInfo>& devices, bool openCl, Communicator* ranks, int slabs) {
  const bool ranked = ranks && ranks->size() > 1;
  std::vector<std::string> names;
  for (const DeviceInfo& d : devices) names.push_back(openCl ? deviceKey(d) : "host");
  if (ranked) names = ranks->allGather(names.front());
  std::vector<double> weights(std::size_t(slabs), 1.0);
  if (std::all_of(names.begin(), names.end(), [&](const std::string& n) { return n == names.front(); })) return weights;
  std::vector<double> mine(devices.size(), 1.0);
  onEveryRank(ranks, [&] {
    for (std::size_t s = 0; s < devices.size(); ++s) mine[s] = copyBandwidthGBs(devices[s]);
  });
  if (!ranked) return mine;
  for (std::size_t r = 0; const std::string& text : ranks->allGather(std::to_string(mine.front()))) weights[r++] = std::stod(text);
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
  // This process's devices: all of them without ranks, the rank's one with ranks.
  std::vector<DeviceInfo> devices(1);
  onEveryRank(ranks.get(), [&] {
    if (openCl) devices = slabDevices(config, ranks.get());
  });
  const int deviceCount = rankCount > 1 ? rankCount : int(devices.size());
  const std::vector<double> deviceWeights =
      deviceCount > 1 ? slabWeights(devices, openCl, ranks.get(), deviceCount) : std::vector<double>{1.0};
  const int perDevice = openCl ? slabsPerDevice(problem.grid, deviceWeights, kKernelIndexCells) : 1;
  if (deviceCount * perDevice == 1)
    return stage.createSolver(std::move(problem), config.params, openCl ? std::optional(devices[0]) : std::nullopt);
  std::vector<double> weights;
  std::vector<int> owners;  // with ranks, each rank's slabs follow each other
  for (int d = 0; d < deviceCount; ++d)
    for (int k = 0; k < perDevice; ++k) {
      weights.push_back(deviceWeights[std::size_t(d)]);
      owners.push_back(rankCount > 1 ? d : 0);
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
      deviceOf.push_back(rankCount == 1 ? &devices[s / std::size_t(perDevice)]
                                        : owners[s] == ranks->rank() ? &devices[0] : nullptr);
    checkSlabsFitDevices(problem.grid, slabs, deviceOf);
  });
  const Grid whole = problem.grid;
  const auto build = [&](Problem slab, int s) -> std::unique_ptr<WaveSolver> {
    if (!openCl) return stage.createSolver(std::move(slab), config.params, std::nullopt);
    const DeviceInfo& device = devices[rankCount > 1 ? 0 : std::size_t(s / perDevice)];
    const StageParamMap params = resolveStageParams(*stage.openCl(), device, whole, config.params, true);
    return stage.createSolver(std::move(slab), params, device);
  };
  return std::make_unique<DecomposedSolver>(std::move(problem), std::move(slabs), std::move(owners), std::move(ranks), build);
}

void checkSlabsFitDevices(const Grid& g, const std::vector<Slab>& slabs, const std::vector<const DeviceInfo*>& deviceOf) {
  std::map<std::string, std::size_t> bytes;
  for (std::size_t s = 0; s < slabs.size(); ++s)
    if (deviceOf[s]) bytes[deviceOf[s]->selector()] += openClSolverBytes(Grid(g.n1, g.n2, slabs[s].planes));
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
  if (devices.size() != 1 && int(devices.size()) != rankCount)
    throw ComputeError(ComputeStatus::UnknownDevice,
                       "--device names " + std::to_string(devices.size()) + " devices for " + std::to_string(rankCount) +
                           " ranks: name one per rank, one for all, or local-rank (each rank's GPU on its host)");
  return {devices[devices.size() == 1 ? 0 : std::size_t(ranks->rank())]};
}

}  // namespace iso
