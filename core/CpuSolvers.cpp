#include "core/CpuSolvers.h"

#include <stdexcept>
#include <utility>

#include "core/CpuParallelSolver.h"
#include "core/CpuSerialSolver.h"
#include "core/ThreadPool.h"

namespace iso {

constexpr int kMaxCpuThreads = 1024;  // far beyond any machine here; catches typos such as 80000

std::unique_ptr<WaveSolver> createCpuSolver(Problem problem, const std::string& stage, const StageParamMap& params) {
  if (stage == "cpu-serial") return std::make_unique<CpuSerialSolver>(std::move(problem), params);
  if (stage == "cpu-parallel") return std::make_unique<CpuParallelSolver>(std::move(problem), params);
  throw std::invalid_argument("createCpuSolver: stage '" + stage +
                              "' is not a CPU stage (expected 'cpu-serial' or 'cpu-parallel')");
}

std::vector<StageParamSpec> cpuStageParameterSpecs(const std::string& stage) {
  if (stage != "cpu-parallel") return {};
  return {
      {"threads", ThreadPool::hardwareThreads(), 1, kMaxCpuThreads, "worker threads (default: one per hardware thread)"},
      {"block_x", 0, 0, kMaxAxisCells, "tile width along x in cells; 0 = the whole row"},
      {"block_y", 16, 1, kMaxAxisCells, "tile height along y in cells"},
      {"block_z", 0, 0, kMaxAxisCells, "planes along z one tile streams through; 0 = the whole axis"},
      {"simd_width", 0, 0, 16, "floats per SIMD vector: 0 = the widest this CPU runs, or 4, 8 (AVX2), 16 (AVX-512)"},
  };
}

}  // namespace iso
