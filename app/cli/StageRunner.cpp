#include "StageRunner.h"

#include <algorithm>

#include "Bandwidth.h"
#include "DeviceRegistry.h"
#include "HostBandwidth.h"
#include "SolverFactory.h"
#include "StageRegistry.h"

namespace iso::cli {

StageRun runStage(Problem problem, const ExecutionConfig& config, int steps, int chunks, bool keepField) {
  StageRun r;
  r.stage = config.stage;
  const double points = double(problem.grid.interiorSize());
  const std::optional<DeviceInfo> device = resolveDevice(config);  // once, for the solver and the ceiling
  r.solver = createSolver(std::move(problem), config, device);
  r.device = r.solver->deviceName();

  int done = 0;
  if (steps >= 2) {  // warm-up: first launches, caches, page faults
    r.solver->advance(1);
    done = 1;
  }
  const int timed = steps - done;
  chunks = std::clamp(chunks, 1, std::max(1, timed));
  double total = 0.0;
  for (int c = 0; c < chunks && timed > 0; ++c) {
    const int n = timed * (c + 1) / chunks - timed * c / chunks;
    const double seconds = r.solver->advance(n);
    total += seconds;
    r.chunkSeconds.push_back(seconds / n);
  }
  r.timedSteps = timed;
  if (!r.chunkSeconds.empty()) {
    auto sorted = r.chunkSeconds;
    std::sort(sorted.begin(), sorted.end());
    const double ceiling = device ? copyBandwidthGBs(*device) : hostCopyBandwidthGBs();
    r.throughput = computeThroughput(points, 1.0, sorted[sorted.size() / 2], ceiling);
    r.throughput.seconds = total;  // what `run` prints as time; the rates come from the median chunk
  }
  if (keepField) r.solver->readField(r.field);
  return r;
}

double ceilingGBs(const std::string& stage, const std::string& deviceSelector) {
  if (!StageRegistry::get(stage).opencl) return hostCopyBandwidthGBs();
  return copyBandwidthGBs(selectDevice(deviceSelector));
}

}  // namespace iso::cli
