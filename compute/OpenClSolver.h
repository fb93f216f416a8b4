#pragma once
// The OpenCL stages (gpu-basic ... gpu-temporal) behind the WaveSolver interface. Everything per step
// runs on the device: the stencil kernel of the stage, source injection, the absorbing layer (compiled
// in only when enabled) and receiver recording; the field buffers never leave the device. A stage
// advances one step per launch in place (two buffers) or, with temporal blocking, several steps per
// launch out of place (four buffers, stages/OpenClStage.h); callers see no difference.
#include <array>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "compute/DeviceRegistry.h"
#include "compute/stages/OpenClStage.h"
#include "core/Problem.h"
#include "compute/StageParams.h"
#include "core/WaveSolver.h"

namespace iso {

class OpenClStage;

// Live counters (docs/METRICS.md) of the steps this solver has run.
struct SolverCounters {
  long steps = 0;               // steps advanced since construction
  double kernelSeconds = 0.0;   // every kernel (stencil, absorbing layer, source, receivers), from profiling events
  double stencilSeconds = 0.0;  // the stencil kernels alone
  // The absorbing layer's passes (resources/kernels/pml.cl): ψ of z, then the corrections of x, y and z
  // (x's and y's advance their ψ themselves); 0 where the layer is folded into the stencil or absent.
  std::array<double, 4> layerSeconds{};
  double lastAdvanceSeconds = 0.0;
  int lastAdvanceSteps = 0;
  double planeCopySeconds = 0.0;  // a slab's plane copies (profiled on their own queue)
  std::size_t planeCopyBytes = 0;
  double planeWaitSeconds = 0.0;  // a slab's kernels done, its ghost planes not yet written (OpenClPlaneCopies)
};

struct OpenClSolverOptions {
  // Test hook: surround each grid buffer with this many guard elements on both sides (rounded up to
  // the device's sub-buffer alignment) filled with guardValue; kernels run on sub-buffers.
  std::size_t guardElements = 0;
  float guardValue = 0.0f;
  bool useTuningDatabase = true;  // false: built-in defaults (+ the given params) only
  // Consecutive cells of its axis that each work-item of the absorbing layer's corrections takes (pml.cl,
  // PML_CELLS); 0: the device's choice, layerCellsFor().
  int layerCells = 0;
};

// The absorbing layer's cells per work-item on `device` when not given (OpenClSolverOptions::layerCells):
// 3 on a GPU, the fastest of 1 to 8 on an H200 (docs/GPU_NOTES.md); 1 elsewhere, so that a CPU driver
// vectorizes the corrections across consecutive cells.
int layerCellsFor(const DeviceInfo& device);
inline constexpr int kMaxLayerCells = 8;

class OpenClSolver : public WaveSolver {
 public:
  // Runs the stage `stage` describes with `params` (merged over the defaults) on `device`. Uploads the
  // problem's arrays and keeps no reference to it, so that one Problem can serve many solvers (the
  // tuner) uncopied. Throws ComputeError: unknown/invalid stage parameters, arrays that do not fit the
  // grid, grid too large for the device, build failure.
  OpenClSolver(const Problem& problem, const OpenClStage& stage, const StageParamMap& params,
               const DeviceInfo& device, const OpenClSolverOptions& options = {});
  ~OpenClSolver() override;

  std::string stage() const override { return stage_; }
  std::string deviceName() const override;
  const Grid& grid() const override { return grid_; }
  double advance(int steps) override;
  long currentStep() const override { return step_; }
  void readField(std::vector<float>& interior) override;
  bool startSlices(int i, int j, int k, std::span<float> planes) override;
  void finishSlices() override;  // the planes and the volume image on their way
  // Rendered on the device from the current field buffer (compute/OpenClVolumeRenderer.h).
  bool startVolume(const VolumeView& view, std::span<std::uint32_t> rgba, double* seconds) override;
  // In queues of its own over this solver's context (compute/OpenClPictureRenderer.h).
  std::unique_ptr<PictureRenderer> makePictureRenderer() override;
  std::vector<float> traces() override;
  SolverState saveState() override;
  void restoreState(const SolverState& state) override;

  // As a slab (WaveSolver): the stencil and the layer's corrections run on ranges of planes, the
  // plane copies through a queue of their own (OpenClPlaneCopies) into and out of page-locked memory.
  // gpu-temporal runs one step per pass as a slab (its two-step pass would need u^(n+1) on R planes
  // beyond the cut, which its kernel computes only inside the grid; docs/SCALING.md). gpu-half's planes
  // travel as the halves it stores (in the first half of the floats given), and only U's with
  // incremental storage: its kernel reads D at a cell's own place, never in a ghost plane.
  bool runsAsSlab() const override { return true; }
  void beginStep(std::span<const PlaneRange> first) override;
  void finishStep() override;
  void startPlaneRead(int plane, int count, std::span<float> out) override;
  void startPlaneWrite(int plane, int count, std::span<const float> in) override;
  void waitPlaneRead(int read) override;
  void waitPlaneCopies() override;
  void synchronize() override;
  HostPlanes allocateHostPlanes(std::size_t floats) override;
  bool lockHostMemory(std::span<float> memory) override;
  void unlockHostMemory(std::span<float> memory) override;

  const DeviceInfo& device() const;
  StageParamMap parameters() const override { return params_; }
  const SolverCounters& counters() const { return counters_; }
  // Test hook: the whole allocation of field buffer 0 .. rawBuffers()-2 or of vel (rawBuffers()-1),
  // guards included, as floats (halves as the floats they are, unscaled); the grid starts guardElements()
  // elements into it.
  std::vector<float> readRawBuffer(int which);
  int rawBuffers() const;
  std::size_t guardElements() const;

  // Test hook: builds `source` for this solver's device the way stages are built (for build-log tests).
  static void buildForTest(const DeviceInfo& device, const std::string& source, const std::string& options);

 private:
  // The stencil kernel's arguments after STENCIL_ARGS from `first`: the stage's extra ones, then what the
  // storage and a folded layer add (stages/OpenClStage.h, fieldStorage).
  void setStorageArgs(int first, const std::vector<int>& extraArgs);
  // A slab's u^(n+1) on interior planes `planes`: the stage's kernel on them (its launch for that many
  // planes), the layer's corrections, the source when it lies there.
  void computePlanes(PlaneRange planes);
  // Bytes [offset, offset + size) of a field buffer holding `count` planes from plane `plane` (halves
  // where it stores halves), checked against the padded grid and the `memory` bytes given.
  std::pair<std::size_t, std::size_t> planeBytes(int plane, int count, std::size_t memory) const;

  struct Impl;
  std::unique_ptr<Impl> impl_;
  std::string stage_;
  Grid grid_;
  StageParamMap params_;
  long step_ = 0;
  SolverCounters counters_;
};

// The preprocessor options a stage's program is built with: the halo radius R (kHalfLength), the
// absorbing layer, and the stage's own (the parameters that size local memory or registers, ...).
// `layer`: the problem has the absorbing layer (a stage that folds it compiles it in).
std::string stageBuildOptions(const OpenClStage& stage, const StageParamMap& params, bool damping, const Grid& grid,
                              bool layer = false);

// The stage's program as the solver builds it: its source (the shared utilities, the absorbing layer's
// kernels and the stage's kernel) and its options, stageBuildOptions plus the layer's cells per work-item
// (PML_CELLS) and what the device's compiler allows (UNROLL_BARRIER_LOOPS where it unrolls a loop that
// holds a barrier and has a run-time trip count: NVIDIA's, which lists cl_nv_pragma_unroll; PoCL's cannot,
// and warns).
std::string stageProgramSource(const OpenClStage& stage, const StageParamMap& params);
std::string stageProgramOptions(const OpenClStage& stage, const StageParamMap& params, const DeviceInfo& device,
                                bool damping, const Grid& grid, bool layer, int layerCells);

// gpu-half's storage scale (FieldStorage) for a problem whose fields stay below amplitudeBound
// (Problem::amplitudeBound): the power of two that puts the bound at kHalfFieldPeak, 16 times under
// half's largest value (65504); 1 without a bound.
inline constexpr double kHalfFieldPeak = 4096.0;
float halfFieldScale(double amplitudeBound);

// Bytes the OpenCL solver allocates for a grid (the stage's field buffers and vel, padded grids, plus
// small buffers), and the check that it fits the device: throws ComputeError(OutOfMemory) naming the
// sizes when it does not.
std::size_t openClSolverBytes(const Grid& grid, int fieldBuffers = 2, const FieldStorage& storage = {});
// The grid-sized field buffers a stage rotates with these parameters: 2 for one step in place, 4 for two
// steps out of place, 3 for incremental storage.
int fieldBuffersOf(const OpenClStage& stage, const StageParamMap& params);
void checkGridFitsDevice(const Grid& grid, const DeviceInfo& device, int fieldBuffers = 2,
                         const FieldStorage& storage = {});

}  // namespace iso
