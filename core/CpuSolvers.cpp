#include "core/CpuSolvers.h"

#include <stdexcept>
#include <utility>

#include "core/CpuParallelSolver.h"
#include "core/CpuSerialSolver.h"
#include "core/Format.h"
#include "core/ThreadPool.h"

namespace iso {
namespace {

constexpr int kMaxCpuThreads = 1024;  // far beyond any machine here; catches typos such as 80000

// One CPU stage: what the registry shows, the parameters it accepts, and how it is built.
struct CpuStage {
  StageInfo info;
  std::vector<StageParamSpec> (*parameters)();
  std::unique_ptr<WaveSolver> (*create)(Problem, const StageParamMap&);
};

const std::vector<CpuStage>& cpuStages() {
  static const std::vector<CpuStage> stages = {
      {{.id = "cpu-serial",
        .title = "CPU serial",
        .description = "Scalar triple loop over the padded grid: the reference every other stage is checked against.",
        .sampleName = "1_CPU_only",
        .sourceFiles = {"core/CpuSerialSolver.cpp"}},
       [] { return std::vector<StageParamSpec>{}; },
       [](Problem problem, const StageParamMap& params) -> std::unique_ptr<WaveSolver> {
         return std::make_unique<CpuSerialSolver>(std::move(problem), params);
       }},
      {{.id = "cpu-parallel",
        .title = "CPU parallel",
        .description = "All cores, SIMD over x, cache blocking in x/y and streaming along z: the fastest native "
                       "code here.",
        .previous = "cpu-serial",
        .sourceFiles = {"core/CpuParallelSolver.cpp", "core/CpuStencilKernel.inc"}},
       [] {
         return std::vector<StageParamSpec>{
             {"threads", ThreadPool::hardwareThreads(), 1, kMaxCpuThreads,
              "worker threads (default: one per hardware thread)"},
             {"block_x", 0, 0, kMaxAxisCells, "tile width along x in cells; 0 = the whole row"},
             {"block_y", 64, 1, kMaxAxisCells,
              "tile height along y in cells (by default fewer when the threads would have under two tiles each)"},
             {"block_z", 64, 0, kMaxAxisCells,
              "planes along z one tile streams through; 0 = the whole axis (by default fewer when the threads "
              "would have under two tiles each)"},
             {"simd_width", 0, 0, 16,
              "floats per SIMD vector: 0 = the widest this CPU runs, or 4, 8 (AVX2), 16 (AVX-512)"},
         };
       },
       [](Problem problem, const StageParamMap& params) -> std::unique_ptr<WaveSolver> {
         return std::make_unique<CpuParallelSolver>(std::move(problem), params);
       }},
  };
  return stages;
}

const CpuStage* findCpuStage(const std::string& stage) {
  for (const CpuStage& s : cpuStages())
    if (s.info.id == stage) return &s;
  return nullptr;
}

}  // namespace

std::unique_ptr<WaveSolver> createCpuSolver(Problem problem, const std::string& stage, const StageParamMap& params) {
  if (const CpuStage* s = findCpuStage(stage)) return s->create(std::move(problem), params);
  throw std::invalid_argument("createCpuSolver: stage '" + stage + "' is not a CPU stage (CPU stages: " +
                              commaList(cpuStages(), [](const CpuStage& s) { return s.info.id; }) + ")");
}

std::vector<StageParamSpec> cpuStageParameterSpecs(const std::string& stage) {
  const CpuStage* s = findCpuStage(stage);
  return s ? s->parameters() : std::vector<StageParamSpec>{};
}

std::vector<StageInfo> cpuStageInfos() {
  std::vector<StageInfo> out;
  for (const CpuStage& s : cpuStages()) out.push_back(s.info);
  return out;
}

}  // namespace iso
