#include "compute/OpenClSolver.h"

#include <algorithm>
#include <array>
#include <climits>
#include <cmath>
#include <cstdio>
#include <map>
#include <optional>
#include <stdexcept>

#include "core/Format.h"
#include "compute/ClHost.h"
#include "compute/DeviceArray.h"
#include "compute/KernelSources.h"
#include "compute/OpenClPlaneCopies.h"
#include "compute/OpenClPictureRenderer.h"
#include "compute/OpenClVolumeRenderer.h"
#include "compute/stages/OpenClStage.h"

namespace iso {

namespace {

constexpr int kTraceRowsPerFlush = 256;  // receiver rows kept on the device before a read-back
constexpr int kStencilArgs = 12;         // STENCIL_ARGS in common.cl; a stage's extra arguments follow
constexpr int kMultiStepArgs = 17;       // a multi-step kernel's (stages/OpenClStage.h), then the extras
constexpr int kMaxFieldBuffers = 4;
// Profiling events held before their times are summed: bounded, so that memory stays flat however many
// steps one advance() runs.
constexpr std::size_t kEventsPerBatch = 256;

// The summed profiling time of a stream of kernel launches. Events are kept until two batches are
// pending, then the older batch is waited for (it has normally finished by then, so the queue never
// drains) and folded into the sum.
class KernelTime {
 public:
  void add(Event e) {
    pending_.push_back(std::move(e));
    if (pending_.size() < 2 * kEventsPerBatch) return;
    for (std::size_t i = 0; i < kEventsPerBatch; ++i) seconds_ += pending_[i].seconds();
    pending_.erase(pending_.begin(), pending_.begin() + kEventsPerBatch);
  }
  // Every launch's time; call after the queue has finished.
  double total() {
    for (const Event& e : pending_) seconds_ += e.seconds();
    pending_.clear();
    return seconds_;
  }

 private:
  std::vector<Event> pending_;
  double seconds_ = 0.0;
};

}  // namespace

std::string stageBuildOptions(const OpenClStage& stage, const StageParamMap& p, bool damping, const Grid& grid,
                              bool layer) {
  // Subnormal floats may be flushed to zero, as the CPU stages do (core/FlushDenormals.h): on a CPU
  // device (PoCL) they would cost a microcode assist per operation; a GPU handles either way at full
  // speed, and the values are far below anything the solver shows.
  std::string o = "-cl-denorms-are-zero -DR=" + std::to_string(kHalfLength) +
                  " -DPML_M=" + std::to_string(kPmlHalfLength) + " -DDAMPING=" + (damping ? "1" : "0");
  const FieldStorage storage = stage.fieldStorage(p);
  if (storage.halfField) o += " -DFIELD_HALF=1";
  if (storage.halfVel) o += " -DVEL_HALF=1";
  if (storage.incremental) o += " -DINCREMENTAL=1";
  if (layer && stage.foldsLayer(p)) o += " -DPML_FOLD=1";
  if (const std::string own = stage.buildOptions(p, grid); !own.empty()) o += " " + own;
  return o;
}

std::string stageProgramSource(const OpenClStage& stage, const StageParamMap& p) {
  return kernelSource("common.cl") + "\n" + kernelSource("pml.cl") + "\n" + kernelSource(stage.kernelFile(p));
}

std::string stageProgramOptions(const OpenClStage& stage, const StageParamMap& p, const DeviceInfo& device,
                                bool damping, const Grid& grid, bool layer, int layerCells) {
  std::string o = stageBuildOptions(stage, p, damping, grid, layer) + " -DPML_CELLS=" + std::to_string(layerCells);
  if (device.hasExtension("cl_nv_pragma_unroll")) o += " -DUNROLL_BARRIER_LOOPS=1";
  return o;
}

int layerCellsFor(const DeviceInfo& device) { return device.type == "GPU" ? 3 : 1; }

float halfFieldScale(double amplitudeBound) {
  if (!(amplitudeBound > 0.0)) return 1.0f;
  const int e = int(std::floor(std::log2(kHalfFieldPeak / amplitudeBound)));
  return std::ldexp(1.0f, std::clamp(e, -100, 100));
}

std::size_t openClSolverBytes(const Grid& g, int fieldBuffers, const FieldStorage& storage) {
  return (std::size_t(fieldBuffers) * (storage.halfField ? 2 : 4) + (storage.halfVel ? 2 : 4)) * g.paddedSize();
}

void checkGridFitsDevice(const Grid& g, const DeviceInfo& d, int fieldBuffers, const FieldStorage& storage) {
  const std::string dims = std::to_string(g.n1) + "x" + std::to_string(g.n2) + "x" + std::to_string(g.n3);
  if (g.n1 < 1 || g.n2 < 1 || g.n3 < 1)
    throw ComputeError(ComputeStatus::InvalidParameter, "grid " + dims + " is empty: every size must be >= 1");
  if (g.paddedSize() > std::size_t(INT_MAX))
    throw ComputeError(ComputeStatus::OutOfMemory,
                       "grid " + dims + " has " + std::to_string(g.paddedSize()) +
                           " padded cells; the OpenCL kernels index with 32-bit ints, limit " + std::to_string(INT_MAX));
  const std::uint64_t one = g.paddedSize() * sizeof(float);
  if (one > d.maxAllocBytes)
    throw ComputeError(ComputeStatus::OutOfMemory, "grid " + dims + " needs buffers of " + byteSize(double(one)) + " each, but " +
                                                       d.name + " allows at most " + byteSize(double(d.maxAllocBytes)) +
                                                       " per allocation; choose a smaller grid");
  if (const std::size_t all = openClSolverBytes(g, fieldBuffers, storage); all > d.globalMemBytes)
    throw ComputeError(ComputeStatus::OutOfMemory, "grid " + dims + " needs " + byteSize(double(all)) +
                                                       " of device memory (" + std::to_string(fieldBuffers + 1) +
                                                       " buffers of " + byteSize(double(one)) + "), but " +
                                                       d.name + " has " + byteSize(double(d.globalMemBytes)) +
                                                       "; choose a smaller grid");
}

namespace {

// Every check of the problem's arrays against its grid, before anything is allocated on the device.
void checkProblemFitsGrid(const Problem& problem) {
  const Grid& g = problem.grid;
  const std::size_t n = g.paddedSize();
  const auto refuse = [](const std::string& what) { throw ComputeError(ComputeStatus::InvalidParameter, what); };
  if (problem.vel.size() != n)
    refuse("problem.vel has " + std::to_string(problem.vel.size()) + " values, expected the padded size " +
           std::to_string(n));
  if (!problem.initialPrev.empty() && problem.initialPrev.size() != n)
    refuse("problem.initialPrev has " + std::to_string(problem.initialPrev.size()) + " values, expected " +
           std::to_string(n));
  const DampingProfile& dp = problem.damping;
  if (dp.enabled() && (dp.gx.size() != std::size_t(g.nx()) || dp.gy.size() != std::size_t(g.ny()) ||
                       dp.gz.size() != std::size_t(g.nz())))
    refuse("damping profile sizes do not match the padded grid");
  if (problem.source && problem.source->index >= n)
    refuse("source index " + std::to_string(problem.source->index) + " is outside the padded grid of " +
           std::to_string(n));
  for (std::size_t i : problem.receivers)
    if (i >= n) refuse("receiver index " + std::to_string(i) + " is outside the padded grid of " + std::to_string(n));
}

}  // namespace

int fieldBuffersOf(const OpenClStage& stage, const StageParamMap& p) {
  const int stepsPerPass = stage.stepsPerPass(p), fieldCount = stage.fieldBuffers(p);
  const FieldStorage storage = stage.fieldStorage(p);
  // In place needs two buffers; out of place, u^(n-1), u^n and one for each new level; incremental
  // storage U^n, U^(n+1) and D, one step per pass.
  const bool incremental = storage.incremental && stepsPerPass == 1 && fieldCount == 3;
  if (!incremental && (storage.incremental || stepsPerPass < 1 || stepsPerPass > 2 || fieldCount != 2 * stepsPerPass))
    throw std::logic_error("stage '" + stage.id() + "': " + std::to_string(stepsPerPass) + " steps per pass with " +
                           std::to_string(fieldCount) + " field buffers is not a form this solver runs");
  return fieldCount;
}

namespace {

// The stage's program (the shared utilities, the absorbing layer's kernels and the stage's kernel, its
// parameters as defines) and how its stencil is launched.
struct StencilProgram {
  Program program;
  Kernel stencil, inject, slices;
  NDRange range;
  std::vector<int> extraArgs;  // after the kernel's own arguments (e.g. the z chunk)
  int stepsPerPass = 1;

  StencilProgram() = default;
  StencilProgram(const ClContext& ctx, const OpenClStage& stage, const StageParamMap& p, bool damping, bool layer,
                 const Grid& g, int layerCells) {
    program = Program(ctx, {stageProgramSource(stage, p),
                            stageProgramOptions(stage, p, ctx.info(), damping, g, layer, layerCells),
                            stage.id() + " (" + stage.kernelFile(p) + ")",
                            p.count("max_registers") ? p.at("max_registers") : 0});
    stencil = program.kernel("stencil");
    inject = program.kernel("inject_source");
    slices = program.kernel("extract_slices");
    // Registers can make a kernel's own work-group limit smaller than the device's.
    if (const std::size_t wg = workGroupSize(stage, p); wg > 0 && stage.kernelLimitIsReliable(p, ctx.info())) {
      const std::size_t kernelMax = stencil.maxWorkGroupSize(ctx);
      if (wg > kernelMax)
        throw ComputeError(ComputeStatus::InvalidParameter,
                           "stage '" + stage.id() + "': work-group of " + std::to_string(wg) + " work-items (" +
                               formatStageParams(p) + ") exceeds this kernel's limit of " + std::to_string(kernelMax) +
                               " on " + ctx.info().name + " (registers); choose a smaller tile");
    }
    const StageLaunch launch = stage.launch(p, g);
    range = NDRange{3, launch.global, launch.local};
    extraArgs = launch.extraArgs;
    stepsPerPass = stage.stepsPerPass(p);
  }

  // The launch's int arguments after the kernel's own, from `first`; returns the index after them.
  cl_uint setExtraArgs(int first, const std::vector<int>& args) {
    for (std::size_t a = 0; a < args.size(); ++a) stencil.setArg(cl_uint(first + int(a)), args[a]);
    return cl_uint(first + int(args.size()));
  }
};

// The fields the stage rotates and vel, each optionally inside guard regions (OpenClSolverOptions) and
// stored as the stage says (FieldStorage: half arrays hold u · fieldScale and vel / velScale), with
// u^0 = the problem's initial field and every other level 0.
struct FieldBuffers {
  FieldStorage storage;
  float fieldScale = 1.0f, velScale = 1.0f;  // powers of two; 1 for float arrays
  int count = 2;
  DeviceArray field[kMaxFieldBuffers], vel;
  // field[cur] holds u^n, field[old] u^(n-1); with incremental storage U^n and the buffer U^(n+1) goes
  // to, and field[kIncrement] D^n.
  int cur = 0, old = 1;
  static constexpr int kIncrement = 2;

  FieldBuffers() = default;
  FieldBuffers(const ClContext& ctx, const Problem& problem, int fieldCount, const FieldStorage& kept,
               const OpenClSolverOptions& options)
      : storage(kept), count(fieldCount) {
    const std::size_t n = problem.grid.paddedSize();
    if (storage.halfField) fieldScale = halfFieldScale(problem.amplitudeBound);
    if (storage.halfVel) {
      // vel / velScale at most 1: the largest v²dt² of any model sits in half's range.
      const float largest = velPeakOf(problem);
      velScale = std::ldexp(1.0f, std::clamp(int(std::ceil(std::log2(std::max(largest, 1e-30f)))), -100, 100));
    }
    for (int b = 0; b < count; ++b)
      field[b] = DeviceArray(ctx, n, storage.halfField, options.guardElements, options.guardValue, "wavefield buffer");
    vel = DeviceArray(ctx, n, storage.halfVel, options.guardElements, options.guardValue, "velocity buffer");
    vel.write(ctx, problem.vel, 1.0f / velScale);
    // u^-1 = 0, so an incremental D^0 = u^0; the buffers a multi-step pass writes start at 0 too, since
    // no kernel writes a halo.
    for (int b = 0; b < count; ++b) {
      const bool initial = b == 0 || (storage.incremental && b == kIncrement);
      if (initial && !problem.initialPrev.empty())
        field[b].write(ctx, problem.initialPrev, fieldScale);
      else
        field[b].fillZero(ctx);
    }
  }

  // The field buffers that hold neither u^n nor u^(n-1), in order.
  std::array<int, 2> freeFields() const {
    std::array<int, 2> out{-1, -1};
    for (int b = 0, n = 0; b < count && n < 2; ++b)
      if (b != cur && b != old) out[n++] = b;
    return out;
  }
  // Field buffer `which`, or vel (which == count).
  const DeviceArray& array(int which) const { return which < count ? field[which] : vel; }
};

// The stencil's scaled coefficients and the sponge's damping profiles.
struct StencilConstants {
  Buffer<float> coef, gx, gy, gz;

  StencilConstants() = default;
  StencilConstants(const ClContext& ctx, const Problem& problem) {
    coef = Buffer<float>(ctx, problem.coeffs.size(), CL_MEM_READ_ONLY, "coefficients");
    coef.write(ctx, problem.coeffs.data(), problem.coeffs.size());
    const DampingProfile& dp = problem.damping;
    const char* names[] = {"damping gx", "damping gy", "damping gz"};
    const std::vector<float>* profiles[] = {&dp.gx, &dp.gy, &dp.gz};
    Buffer<float>* buffers[] = {&gx, &gy, &gz};
    for (int a = 0; a < 3; ++a) {
      // Without the sponge the kernels take the arguments but never read them (no DAMPING).
      *buffers[a] = Buffer<float>(ctx, dp.enabled() ? profiles[a]->size() : 1, CL_MEM_READ_ONLY,
                                  dp.enabled() ? names[a] : "damping placeholder");
      if (dp.enabled()) buffers[a]->write(ctx, *profiles[a]);
    }
  }
};

// The absorbing layer on the device (resources/kernels/pml.cl): per axis ψ, ζ and the recursion
// coefficients (none for an axis without a layer), and the kernels that update them and correct a new
// level; disabled when the problem has no layer. x's and y's corrections advance their ψ themselves
// (pml_correct_advancing_*), so ψ of x and y is kept twice, ψ^(n−1) and ψ^n, swapped after each step; z's
// has a pass of its own before the corrections (a slab of a cut grid needs its ghost planes' half points).
// Folded into a stage's kernel (PML_FOLD), every axis's ψ is kept twice and the layer has no kernels.
class AbsorbingLayer {
 public:
  AbsorbingLayer() = default;
  AbsorbingLayer(const ClContext& ctx, const Program& program, const PmlProfile& pml, bool folded, int cells)
      : pml_(pml), folded_(folded), cells_(cells) {
    if (!pml_.enabled()) return;
    weights_ = Buffer<float>(ctx, kPmlHalfLength, CL_MEM_READ_ONLY, "absorbing-layer weights");
    weights_.write(ctx, pml_.firstDerivative.data(), kPmlHalfLength);
    for (int a = 0; a < 3; ++a) allocateAxis(ctx, a);
    if (folded_) return;
    memoryZ_ = program.kernel("pml_memory_z");
    correct_[0] = program.kernel("pml_correct_advancing_x");
    correct_[1] = program.kernel("pml_correct_advancing_y");
    correct_[2] = program.kernel("pml_correct_z");
    // Fewer rows where a kernel allows fewer work-items (registers, a small device), or the driver's
    // choice below one warp's width.
    for (const Kernel* k : {&memoryZ_, &correct_[0], &correct_[1], &correct_[2]}) {
      const std::size_t limit = k->maxWorkGroupSize(ctx);
      if (limit < group_[0] * group_[1])
        group_ = limit < group_[0] ? std::array<std::size_t, 2>{0, 0} : std::array<std::size_t, 2>{group_[0], limit / group_[0]};
    }
  }

  bool enabled() const { return pml_.enabled(); }
  bool folded() const { return enabled() && folded_; }
  std::size_t memoryFloats() const { return pml_.memoryFloats(); }

  // The folded layer's arguments of a stencil kernel from `first` (pml.cl, PML_FOLD_ARGS): per axis ψ^(n−1),
  // ψ^n, ζ, the recursion, then the weights and the widths.
  void setFoldArgs(Kernel& kernel, cl_uint first) const {
    for (int a = 0; a < 3; ++a)
      for (const Buffer<float>* b : {&psi_[a], &psiNext_[a], &zeta_[a], &recursion_[a]}) kernel.setArg(first++, *b);
    kernel.setArg(first++, weights_);
    for (int a = 0; a < 3; ++a) kernel.setArg(first++, pml_.axes[a].width);
    kernel.setArg(first++, pml_.axes[2].n);
    kernel.setArg(first++, pml_.zFirst);
  }
  // After a step: ψ^n becomes the older level where it is kept twice.
  void finishStep() {
    if (!enabled()) return;
    for (int a = 0; a < 3; ++a)
      if (folded() || advancesInCorrection(a)) std::swap(psi_[a], psiNext_[a]);
  }

  // How the corrected level is stored (pml.cl): with incremental storage the terms go into D^(n+1), and
  // U^(n+1) (unew) is formed again; v²dt² in half is velScale times its stored value.
  struct Level {
    cl_mem next = nullptr;
    cl_mem unew = nullptr;  // incremental storage only
    std::optional<float> velScale;  // half v²dt² only
  };

  // Adds the layer's terms of step n to u^(n+1), u^n being `prev` (after the stencil).
  void correct(const ClContext& ctx, cl_mem prev, const Level& level, cl_mem vel, const Buffer<float>& coef,
               const Grid& g) {
    advanceMemory(ctx, prev, g);
    correctPlanes(ctx, prev, level, vel, coef, g, {0, g.n3});
  }

  // Once the queue has finished: the time of each pass since the last call (SolverCounters::layerSeconds's
  // order) added to `perPass`; returns their sum.
  double collectSeconds(std::array<double, 4>& perPass) {
    double sum = 0.0;
    KernelTime* passes[4] = {&memoryZTime_, &correctTime_[0], &correctTime_[1], &correctTime_[2]};
    for (std::size_t pass = 0; pass < 4; ++pass) {
      const double seconds = passes[pass]->total();
      *passes[pass] = {};
      perPass[pass] += seconds;
      sum += seconds;
    }
    return sum;
  }

  // Advances ψ of z to step n (from u^n alone): before any correction of the step, on the slots the
  // planes held need (all of them on a whole grid: PmlProfile::zPsiSlots). x's and y's advance in their
  // corrections.
  void advanceMemory(const ClContext& ctx, cl_mem prev, const Grid& g) {
    const PmlAxis& z = pml_.axes[2];
    const auto [first, end] = pml_.zPsiSlots();
    if (z.width == 0 || first >= end) return;
    const auto dims = pml_.memoryDims(2);
    memoryZ_.args(prev, psi_[2], recursion_[2], weights_, g.n1, g.n2, z.width, z.n, pml_.zFirst, first);
    memoryZTime_.add(memoryZ_.launch(ctx, range({std::size_t(dims[0]), std::size_t(dims[1]), std::size_t(end - first)})));
  }

  // Adds the layer's terms to u^(n+1) on the interior planes `planes` (after advanceMemory).
  void correctPlanes(const ClContext& ctx, cl_mem prev, const Level& level, cl_mem vel, const Buffer<float>& coef,
                     const Grid& g, PlaneRange planes) {
    for (int a = 0; a < 3; ++a) {
      const PmlAxis& axis = pml_.axes[a];
      if (axis.width == 0) continue;
      // Dimension 2: the planes (x and y), or the blocks of z's reach indices whose cells are the planes.
      const auto [first, end] = a == 2 ? pml_.zReach(planes.begin, planes.end) : std::pair{planes.begin, planes.end};
      if (first >= end) continue;
      // Along the axis, blocks of cells_ cells of its reach (pml.cl).
      std::array<std::size_t, 3> reach{std::size_t(g.n1), std::size_t(g.n2), std::size_t(end - first)};
      reach[a] = std::size_t(a == 2 ? zBlocks(first, end) : blocksOf(axis));
      cl_uint extra = kCorrectArgs;
      if (advancesInCorrection(a)) {
        correct_[a].args(prev, level.next, vel, coef, psi_[a], psiNext_[a], zeta_[a], recursion_[a], weights_, g.n1,
                         g.n2, g.n3, axis.width, first);
        extra = kAdvancingArgs;
      } else {
        correct_[a].args(prev, level.next, vel, coef, psi_[a], zeta_[a], recursion_[a], weights_, g.n1, g.n2,
                         axis.width, pml_.axes[2].n, pml_.zFirst, first, end);
      }
      if (level.unew) correct_[a].setArg(extra++, level.unew);
      if (level.velScale) correct_[a].setArg(extra++, *level.velScale);
      const Shape shape = a == 0 ? Shape::NarrowX : a == 1 ? Shape::Rows : Shape::RowsAlongZ;
      correctTime_[a].add(correct_[a].launch(ctx, range(reach, shape)));
    }
  }

  // Calls copy(buffer, offset) for ψ (ψ^n) then ζ of x, y and z: their places in PmlProfile::memoryFloats
  // order.
  template <class Copy>
  void forEachBuffer(Copy copy) const {
    std::size_t offset = 0;
    for (int a = 0; a < 3; ++a) {
      if (pml_.axes[a].width == 0) continue;  // an axis without a layer
      for (const Buffer<float>* b : {&psi_[a], &zeta_[a]}) {
        copy(*b, offset);
        offset += b->size();
      }
    }
  }

 private:
  // Whether axis a's correction kernel advances its ψ too (x and y, unless folded).
  bool advancesInCorrection(int a) const { return !folded_ && a < 2; }
  // The blocks of cells_ cells that cover x's or y's reach: each end's, or the whole axis's where they meet
  // (pml.cl, pml_blocks); of z's reach indices [first, end): those of each end's part (pml_z_split).
  int blocks(int cells) const { return (cells + cells_ - 1) / cells_; }
  int blocksOf(const PmlAxis& axis) const {
    return axis.reachesAcross() ? blocks(axis.n) : 2 * blocks(axis.width + kPmlHalfLength);
  }
  int zBlocks(int first, int end) const {
    const PmlAxis& z = pml_.axes[2];
    const int split = std::max(first, std::min(end, z.reachesAcross() ? end : z.width + kPmlHalfLength));
    return blocks(split - first) + blocks(end - split);
  }

  // An axis without a layer gets one-float placeholders, which the folded kernel takes and never reads.
  void allocateAxis(const ClContext& ctx, int a) {
    const PmlAxis& axis = pml_.axes[a];
    const std::size_t floats = axis.width > 0 ? pml_.axisMemoryFloats(a) / 2 : 1;
    for (Buffer<float>* b : {&psi_[a], &psiNext_[a], &zeta_[a]}) {
      if (b == &psiNext_[a] && !folded_ && !advancesInCorrection(a)) continue;
      *b = Buffer<float>(ctx, floats, CL_MEM_READ_WRITE, "absorbing-layer memory");
      b->fill(ctx, 0.0f);
    }
    std::vector<float> recursion;
    for (const auto* v : {&axis.psiDecay, &axis.psiGain, &axis.zetaDecay, &axis.zetaGain})
      recursion.insert(recursion.end(), v->begin(), v->end());
    if (recursion.empty()) recursion.push_back(0.0f);
    recursion_[a] = Buffer<float>(ctx, recursion.size(), CL_MEM_READ_ONLY, "absorbing-layer coefficients");
    recursion_[a].write(ctx, recursion);
  }

  // The layer's kernels in work-groups of group_[0] × group_[1] work-items (32 × 4 unless the device
  // allows fewer), shaped per pass: Rows, 32 along dimension 0 (x) by rows along dimension 1, whole warps
  // over contiguous memory; RowsAlongZ, the rows along dimension 2, for z's correction, whose work-items
  // then share the planes of their 17-point z derivatives in cache (at 1024³ on an H200 0.42 instead of
  // 0.68 ms a step); NarrowX, at most kNarrowX along dimension 0, for x's correction, whose few blocks along
  // x (2·(width + PML_M) = 24 cells: 8 blocks of 3 on a GPU) would leave lanes of 32 idle (one cell a
  // work-item at 512³: 0.143 instead of 0.161 ms with 8 of 24 cells). The global size is rounded up to whole
  // groups; the kernels skip the work-items past the ends.
  enum class Shape { Rows, RowsAlongZ, NarrowX };
  static constexpr std::size_t kNarrowX = 8;
  NDRange range(const std::array<std::size_t, 3>& cells, Shape shape = Shape::Rows) const {
    if (group_[0] == 0) return {3, cells, {0, 0, 0}};
    std::array<std::size_t, 3> local{group_[0], group_[1], 1};
    if (shape == Shape::RowsAlongZ) local = {group_[0], 1, group_[1]};
    if (shape == Shape::NarrowX) {
      const std::size_t across = std::min(cells[0], kNarrowX);
      local = {across, group_[0] * group_[1] / across, 1};
    }
    NDRange r{3, cells, local};
    for (int d = 0; d < 3; ++d) r.global[d] = (cells[d] + r.local[d] - 1) / r.local[d] * r.local[d];
    return r;
  }

  static constexpr cl_uint kCorrectArgs = 15;    // pml_correct_z's arguments before the storage's
  static constexpr cl_uint kAdvancingArgs = 14;  // pml_correct_advancing_*'s
  PmlProfile pml_;
  bool folded_ = false;
  int cells_ = 1;  // cells of its axis per work-item of each correction (PML_CELLS)
  Kernel memoryZ_, correct_[3];  // ψ of z; the corrections per axis
  KernelTime memoryZTime_, correctTime_[3];  // their launches since collectSeconds
  std::array<std::size_t, 2> group_{32, 4};  // {0, 0}: the driver's choice
  Buffer<float> psi_[3], psiNext_[3], zeta_[3], recursion_[3], weights_;
};

// The new level that the layer corrects: `next` (D^(n+1) with incremental storage, whose U^(n+1) is the
// old level's buffer), and half v²dt²'s scale.
AbsorbingLayer::Level layerLevel(const FieldBuffers& f, cl_mem next) {
  AbsorbingLayer::Level level;
  level.next = next;
  if (f.storage.incremental) level.unew = f.field[f.old].get();
  if (f.storage.halfVel) level.velScale = f.velScale;
  return level;
}

// The receivers' samples: recorded on the device after each step, read back kTraceRowsPerFlush rows at
// a time (and whenever they are asked for).
class ReceiverRecord {
 public:
  ReceiverRecord() = default;
  ReceiverRecord(const ClContext& ctx, const Program& program, const std::vector<std::size_t>& receivers)
      : count_(int(receivers.size())) {
    if (count_ == 0) return;
    kernel_ = program.kernel("record_receivers");
    const std::vector<int> indices(receivers.begin(), receivers.end());  // inside the padded grid: checked
    index_ = Buffer<int>(ctx, indices.size(), CL_MEM_READ_ONLY, "receiver indices");
    index_.write(ctx, indices);
    rows_ = Buffer<float>(ctx, std::size_t(kTraceRowsPerFlush) * count_, CL_MEM_READ_WRITE, "traces");
  }

  int count() const { return count_; }

  // The samples of `level`, whose stored values are u · 1/scale.
  void record(const ClContext& ctx, cl_mem level, float scale, KernelTime& time) {
    if (count_ == 0) return;
    if (rowsOnDevice_ == kTraceRowsPerFlush) flush(ctx);
    kernel_.args(level, index_, rows_, count_, rowsOnDevice_, scale);
    time.add(kernel_.launch(ctx, NDRange{1, {std::size_t(count_), 1, 1}, {0, 0, 0}}));
    ++rowsOnDevice_;
  }

  // Every sample so far, after reading the rows still on the device.
  const std::vector<float>& samples(const ClContext& ctx) {
    flush(ctx);
    return samples_;
  }
  void restore(const ClContext& ctx, std::vector<float> samples) {
    flush(ctx);
    samples_ = std::move(samples);
  }

 private:
  void flush(const ClContext& ctx) {
    if (rowsOnDevice_ == 0) return;
    const std::size_t n = std::size_t(rowsOnDevice_) * count_, old = samples_.size();
    samples_.resize(old + n);
    rows_.read(ctx, samples_.data() + old, n);
    rowsOnDevice_ = 0;
  }

  int count_ = 0, rowsOnDevice_ = 0;
  Kernel kernel_;
  Buffer<int> index_;
  Buffer<float> rows_;
  std::vector<float> samples_;
};

}  // namespace

struct OpenClSolver::Impl {
  ClContext ctx;
  StencilProgram program;
  FieldBuffers fields;
  StencilConstants constants;
  AbsorbingLayer layer;
  std::optional<PointInjection> source;
  ReceiverRecord receivers;
  Buffer<float> sliceBuffer;  // xy | xz | yz, read in one piece
  Event sliceRead;            // the read of startSlices, until finishSlices
  std::unique_ptr<OpenClVolumeRenderer> volume;  // built when first asked for an image

  // As a slab (WaveSolver::beginStep .. synchronize): the copies, the step under way and its kernels' times.
  std::unique_ptr<OpenClPlaneCopies> copies;
  bool stepOpen = false, layerMemoryAdvanced = false;
  int target = -1;                  // the buffer u^(n+1) is written into
  std::vector<PlaneRange> begun;    // the planes beginStep computed
  Event firstPlanesDone;            // a marker after them, which their reads wait for
  std::map<int, StageLaunch> rangeLaunches;  // the stage's launch per count of planes
  KernelTime slabStencilTime, slabOtherTime;
  int slabSteps = 0;                // since the last synchronize
  // lockHostMemory's buffers, by the memory they lie over (released before the context).
  std::vector<std::pair<std::span<float>, ClMemHandle>> lockedHostMemory;

  explicit Impl(const DeviceInfo& d) : ctx(d) {}

  // The source term of `step` into `level`, whose stored values are u · scale.
  void injectSource(cl_mem level, long step, float scale, KernelTime& time) {
    program.inject.args(level, int(source->index), source->valueForStep(step) * scale);
    time.add(program.inject.launch(ctx, NDRange{1, {1, 1, 1}, {1, 1, 1}}));
  }
};

OpenClSolver::OpenClSolver(const Problem& problem, const OpenClStage& stage, const StageParamMap& params,
                           const DeviceInfo& device, const OpenClSolverOptions& options)
    : stage_(stage.id()),
      grid_(problem.grid),
      params_(resolveStageParams(stage, device, problem.grid, params, options.useTuningDatabase)) {
  const int fieldCount = fieldBuffersOf(stage, params_);
  const FieldStorage storage = stage.fieldStorage(params_);
  checkGridFitsDevice(grid_, device, fieldCount, storage);
  checkProblemFitsGrid(problem);
  impl_ = std::make_unique<Impl>(device);
  Impl& m = *impl_;
  // A stage that folds the layer into its pass does so on a slab too (pml.cl: a slab's edge planes keep
  // the ψ its next step reads).
  const bool fold = problem.pml.enabled() && stage.foldsLayer(params_);
  if (options.layerCells < 0 || options.layerCells > kMaxLayerCells)
    throw ComputeError(ComputeStatus::InvalidParameter, "the absorbing layer's cells per work-item must be 1 to " +
                                                            std::to_string(kMaxLayerCells) + " (0: the device's choice)");
  const int layerCells = options.layerCells > 0 ? options.layerCells : layerCellsFor(device);
  m.program = StencilProgram(m.ctx, stage, params_, problem.damping.enabled(), fold, grid_, layerCells);
  m.fields = FieldBuffers(m.ctx, problem, fieldCount, storage, options);
  m.constants = StencilConstants(m.ctx, problem);
  m.layer = AbsorbingLayer(m.ctx, m.program.program, problem.pml, fold, layerCells);
  m.source = problem.source;
  m.receivers = ReceiverRecord(m.ctx, m.program.program, problem.receivers);
  m.sliceBuffer = Buffer<float>(m.ctx, SliceSet::planeFloats(grid_.n1, grid_.n2, grid_.n3), CL_MEM_READ_WRITE, "slices");
  m.ctx.finish();
}

OpenClSolver::~OpenClSolver() {
  // A slice read still on its way writes into memory that its caller may free once the solver is gone.
  try {
    if (impl_) finishSlices();
  } catch (const ComputeError&) {  // a failed read writes nothing more
  }
}

std::string OpenClSolver::deviceName() const { return impl_->ctx.info().name; }

const DeviceInfo& OpenClSolver::device() const { return impl_->ctx.info(); }

double OpenClSolver::advance(int steps) {
  if (steps < 0) throw ComputeError(ComputeStatus::InvalidParameter, "advance: steps must be >= 0");
  Impl& m = *impl_;
  FieldBuffers& f = m.fields;
  StencilProgram& p = m.program;
  const Grid& g = grid_;
  KernelTime stencilTime, otherTime;
  if (m.stepOpen) throw ComputeError(ComputeStatus::InvalidParameter, "advance: a slab's step is under way");
  const float readScale = 1.0f / f.fieldScale;
  // The source term of `step` into u^(step+1), in the stored units.
  const auto inject = [&](cl_mem level, long step) { m.injectSource(level, step, f.fieldScale, otherTime); };
  const auto correctForLayer = [&](cl_mem prev, cl_mem next) {
    if (m.layer.enabled() && !m.layer.folded())
      m.layer.correct(m.ctx, prev, layerLevel(f, next), f.vel.get(), m.constants.coef, g);
  };
  const StencilConstants& c = m.constants;
  for (int s = 0; s < steps;) {
    if (p.stepsPerPass == 1) {
      // In place: u^(n+1) over u^(n-1); with incremental storage D^(n+1) over D^n and U^(n+1) into the
      // other U buffer.
      const bool incremental = f.storage.incremental;
      const cl_mem next = f.field[incremental ? FieldBuffers::kIncrement : f.old].get();
      p.stencil.args(f.field[f.cur].get(), next, f.vel.get(), c.coef, c.gx, c.gy, c.gz, g.n1, g.n2, g.n3, kHalfLength,
                     g.n3 + kHalfLength);
      setStorageArgs(kStencilArgs, p.extraArgs);
      stencilTime.add(p.stencil.launch(m.ctx, p.range));
      correctForLayer(f.field[f.cur].get(), next);
      m.layer.finishStep();
      const cl_mem level = f.field[f.old].get();  // u^(n+1) (U^(n+1))
      if (m.source) {
        inject(level, step_);
        if (incremental) inject(next, step_);  // D^(n+1) = U^(n+1) − U^n
      }
      m.receivers.record(m.ctx, level, readScale, otherTime);
      std::swap(f.cur, f.old);
      ++s;
      ++step_;
      continue;
    }
    // Out of place, up to two steps (fewer for the rest of the count): u^(n+1) and u^(n+2) into the free
    // buffers. The kernel adds step n's source term to u^(n+1) before it computes u^(n+2) from it. The
    // absorbing layer's pass must come between two steps, so with it every pass is one step.
    const int n = m.layer.enabled() ? 1 : std::min(p.stepsPerPass, steps - s);
    const auto [first, second] = f.freeFields();
    p.stencil.args(f.field[f.old].get(), f.field[f.cur].get(), f.field[first].get(), f.field[second].get(), f.vel.get(),
                   c.coef, c.gx, c.gy, c.gz, g.n1, g.n2, g.n3, m.source ? int(m.source->index) : -1,
                   m.source ? m.source->valueForStep(step_) : 0.0f, n, kHalfLength, g.n3 + kHalfLength);
    p.setExtraArgs(kMultiStepArgs, p.extraArgs);
    stencilTime.add(p.stencil.launch(m.ctx, p.range));
    correctForLayer(f.field[f.cur].get(), f.field[first].get());
    m.layer.finishStep();
    m.receivers.record(m.ctx, f.field[first].get(), readScale, otherTime);
    if (n == 2) {
      if (m.source) inject(f.field[second].get(), step_ + 1);
      m.receivers.record(m.ctx, f.field[second].get(), readScale, otherTime);
      f.old = first;
      f.cur = second;
    } else {
      f.old = f.cur;
      f.cur = first;
    }
    s += n;
    step_ += n;
  }
  m.ctx.finish();
  const double stencil = stencilTime.total(), other = otherTime.total() + m.layer.collectSeconds(counters_.layerSeconds);
  counters_.steps += steps;
  counters_.stencilSeconds += stencil;
  counters_.kernelSeconds += stencil + other;
  counters_.lastAdvanceSeconds = stencil + other;
  counters_.lastAdvanceSteps = steps;
  return stencil + other;
}

void OpenClSolver::setStorageArgs(int first, const std::vector<int>& extraArgs) {
  Impl& m = *impl_;
  FieldBuffers& f = m.fields;
  StencilProgram& p = m.program;
  cl_uint next = p.setExtraArgs(first, extraArgs);
  if (f.storage.incremental) p.stencil.setArg(next++, f.field[f.old].get());
  if (f.storage.halfVel) p.stencil.setArg(next++, f.velScale);
  if (m.layer.folded()) m.layer.setFoldArgs(p.stencil, next);
}

void OpenClSolver::readField(std::vector<float>& interior) {
  Impl& m = *impl_;
  interior.resize(grid_.interiorSize());
  m.fields.field[m.fields.cur].readInterior(m.ctx, grid_, interior.data(), 1.0f / m.fields.fieldScale);
}

bool OpenClSolver::startSlices(int i, int j, int k, std::span<float> planes) {
  Impl& m = *impl_;
  const Grid& g = grid_;
  if (i < 0 || i >= g.n1 || j < 0 || j >= g.n2 || k < 0 || k >= g.n3)
    throw ComputeError(ComputeStatus::InvalidParameter,
                       "slice point (" + std::to_string(i) + ", " + std::to_string(j) + ", " + std::to_string(k) +
                           ") is outside the interior grid " + std::to_string(g.n1) + "x" + std::to_string(g.n2) +
                           "x" + std::to_string(g.n3));
  if (planes.size() < m.sliceBuffer.size())
    throw ComputeError(ComputeStatus::InvalidParameter, std::to_string(planes.size()) + " floats cannot hold the " +
                                                            std::to_string(m.sliceBuffer.size()) + " of the slices");
  finishSlices();  // one read at a time
  m.program.slices.args(m.fields.field[m.fields.cur].get(), m.sliceBuffer, g.n1, g.n2, g.n3, i, j, k,
                        1.0f / m.fields.fieldScale);
  const std::size_t largest = std::max({std::size_t(g.n1) * g.n2, std::size_t(g.n1) * g.n3, std::size_t(g.n2) * g.n3});
  const Event extracted = m.program.slices.launch(m.ctx, NDRange{1, {largest, 1, 1}, {0, 0, 0}});
  // The read goes through the transfer queue, so the next steps on the first queue run while the planes
  // cross to the host; only the slice buffer, untouched until finishSlices, is read.
  checkCl(clFlush(m.ctx.queue()), "clFlush", "submitting the slice extraction");
  const cl_event after = extracted.get();
  cl_event read = nullptr;
  checkCl(clEnqueueReadBuffer(m.ctx.transferQueue(), m.sliceBuffer.get(), CL_FALSE, 0,
                              m.sliceBuffer.size() * sizeof(float), planes.data(), 1, &after, &read),
          "clEnqueueReadBuffer", "reading the slices");
  m.sliceRead = Event(read);
  checkCl(clFlush(m.ctx.transferQueue()), "clFlush", "submitting the slice read");
  return false;
}

void OpenClSolver::finishSlices() {
  Event read = std::move(impl_->sliceRead);
  if (read) read.wait();
  if (impl_->volume) impl_->volume->finish();
}

bool OpenClSolver::startVolume(const VolumeView& view, std::span<std::uint32_t> rgba, double* seconds) {
  Impl& m = *impl_;
  // The renderer reads float arrays; half ones would need a kernel of their own.
  if (m.fields.storage.halfField || m.fields.storage.halfVel)
    throw std::logic_error("stage '" + stage_ + "' stores its fields as half and cannot render the volume");
  if (!m.volume) m.volume = std::make_unique<OpenClVolumeRenderer>(m.ctx);
  m.volume->start(view, grid_, m.fields.field[m.fields.cur].get(), m.fields.vel.get(), rgba, seconds);
  return false;
}

std::unique_ptr<PictureRenderer> OpenClSolver::makePictureRenderer() {
  const bool gpu = impl_->ctx.info().type == "GPU";
  return std::make_unique<OpenClPictureRenderer>(impl_->ctx, gpu ? OpenClPictureRenderer::Build::InBackground
                                                                 : OpenClPictureRenderer::Build::AtFirstPicture);
}

std::vector<float> OpenClSolver::traces() { return impl_->receivers.samples(impl_->ctx); }

SolverState OpenClSolver::saveState() {
  Impl& m = *impl_;
  SolverState state;
  state.step = step_;
  state.current.resize(grid_.paddedSize());
  state.previous.resize(grid_.paddedSize());
  const FieldBuffers& f = m.fields;
  const float readScale = 1.0f / f.fieldScale;
  f.field[f.cur].read(m.ctx, state.current.data(), 0, state.current.size(), readScale);
  if (f.storage.incremental) {  // u^(n-1) = U^n − D^n
    f.field[FieldBuffers::kIncrement].read(m.ctx, state.previous.data(), 0, state.previous.size(), readScale);
    for (std::size_t i = 0; i < state.previous.size(); ++i) state.previous[i] = state.current[i] - state.previous[i];
  } else {
    f.field[f.old].read(m.ctx, state.previous.data(), 0, state.previous.size(), readScale);
  }
  state.traces = traces();
  state.boundaryMemory.resize(m.layer.memoryFloats());
  m.layer.forEachBuffer([&](const Buffer<float>& b, std::size_t at) { b.read(m.ctx, state.boundaryMemory.data() + at, b.size()); });
  for (float& v : state.boundaryMemory) v *= readScale;  // ψ and ζ are linear in u: in the field's stored units
  return state;
}

void OpenClSolver::restoreState(const SolverState& state) {
  Impl& m = *impl_;
  const std::size_t padded = grid_.paddedSize();
  const std::size_t samples = std::size_t(state.step) * std::size_t(m.receivers.count());
  if (state.boundaryMemory.size() != m.layer.memoryFloats())
    throw std::invalid_argument("restoring stage '" + stage_ + "': the saved absorbing-layer memory has " +
                                std::to_string(state.boundaryMemory.size()) + " values; this grid's layer needs " +
                                std::to_string(m.layer.memoryFloats()));
  if (state.current.size() != padded || state.previous.size() != padded || state.traces.size() != samples)
    throw std::invalid_argument("restoring stage '" + stage_ + "': the saved state has " +
                                std::to_string(state.current.size()) + " + " + std::to_string(state.previous.size()) +
                                " field values and " + std::to_string(state.traces.size()) + " trace samples; this grid needs " +
                                std::to_string(padded) + " each and " + std::to_string(samples) + " samples");
  const FieldBuffers& f = m.fields;
  f.field[f.cur].write(m.ctx, state.current, f.fieldScale);
  if (f.storage.incremental) {
    std::vector<float> increment(padded);
    for (std::size_t i = 0; i < padded; ++i) increment[i] = float(double(state.current[i]) - double(state.previous[i]));
    f.field[FieldBuffers::kIncrement].write(m.ctx, increment, f.fieldScale);
  } else {
    f.field[f.old].write(m.ctx, state.previous, f.fieldScale);
  }
  std::vector<float> memory(state.boundaryMemory);
  for (float& v : memory) v *= f.fieldScale;
  m.layer.forEachBuffer([&](const Buffer<float>& b, std::size_t at) { b.write(m.ctx, memory.data() + at, b.size()); });
  m.ctx.finish();
  m.receivers.restore(m.ctx, state.traces);
  step_ = state.step;
}

std::size_t OpenClSolver::guardElements() const { return impl_->fields.field[0].guard(); }

int OpenClSolver::rawBuffers() const { return impl_->fields.count + 1; }

std::vector<float> OpenClSolver::readRawBuffer(int which) {
  Impl& m = *impl_;
  if (which < 0 || which > m.fields.count)
    throw ComputeError(ComputeStatus::InvalidParameter,
                       "readRawBuffer: which is 0 .. " + std::to_string(m.fields.count) + " (the last: vel)");
  return m.fields.array(which).readAllocation(m.ctx);
}

void OpenClSolver::computePlanes(PlaneRange planes) {
  Impl& m = *impl_;
  FieldBuffers& f = m.fields;
  StencilProgram& p = m.program;
  const StencilConstants& c = m.constants;
  const Grid& g = grid_;
  auto launch = m.rangeLaunches.find(planes.count());
  if (launch == m.rangeLaunches.end())
    launch = m.rangeLaunches.emplace(planes.count(), openClStage(stage_).launch(params_, Grid(g.n1, g.n2, planes.count()))).first;
  const StageLaunch& l = launch->second;
  const int zBegin = planes.begin + kHalfLength, zEnd = planes.end + kHalfLength;
  const bool source = m.source && planes.contains(int(m.source->index / g.planeSize()) - kHalfLength);
  const cl_mem cur = f.field[f.cur].get(), target = f.field[m.target].get();
  // The level the step writes: u^(n+1) into the target, or with incremental storage D^(n+1) in place (the
  // kernel writing U^(n+1) into the target: setStorageArgs).
  const bool incremental = f.storage.incremental;
  const cl_mem next = incremental ? f.field[FieldBuffers::kIncrement].get() : target;
  if (p.stepsPerPass == 1) {
    // A folded layer's terms come with the kernel (each cell's from u^n, ψ^(n−1) and its own ζ, so any
    // ranges of planes, and any slabs, give the whole grid's bits).
    p.stencil.args(cur, next, f.vel.get(), c.coef, c.gx, c.gy, c.gz, g.n1, g.n2, g.n3, zBegin, zEnd);
    setStorageArgs(kStencilArgs, l.extraArgs);
  } else {  // one step of the multi-step kernel, which adds the source term itself
    p.stencil.args(f.field[f.old].get(), cur, target, f.field[f.freeFields()[1]].get(), f.vel.get(), c.coef, c.gx,
                   c.gy, c.gz, g.n1, g.n2, g.n3, source ? int(m.source->index) : -1,
                   source ? m.source->valueForStep(step_) : 0.0f, 1, zBegin, zEnd);
    p.setExtraArgs(kMultiStepArgs, l.extraArgs);
  }
  m.slabStencilTime.add(p.stencil.launch(m.ctx, NDRange{3, l.global, l.local}));
  if (m.layer.enabled() && !m.layer.folded()) {
    if (!m.layerMemoryAdvanced) m.layer.advanceMemory(m.ctx, cur, g);
    m.layerMemoryAdvanced = true;
    m.layer.correctPlanes(m.ctx, cur, layerLevel(f, next), f.vel.get(), c.coef, g, planes);
  }
  if (source && p.stepsPerPass == 1) {
    m.injectSource(target, step_, f.fieldScale, m.slabOtherTime);
    if (incremental) m.injectSource(next, step_, f.fieldScale, m.slabOtherTime);
  }
}

void OpenClSolver::beginStep(std::span<const PlaneRange> first) {
  Impl& m = *impl_;
  if (m.stepOpen) throw ComputeError(ComputeStatus::InvalidParameter, "beginStep: the previous step is not finished");
  for (std::size_t r = 0; r < first.size(); ++r)
    if (first[r].begin < 0 || first[r].end > grid_.n3 || first[r].empty() || (r > 0 && first[r].begin < first[r - 1].end))
      throw ComputeError(ComputeStatus::InvalidParameter, "beginStep: plane ranges must be ascending, disjoint and inside "
                                                          "the " + std::to_string(grid_.n3) + " interior planes");
  if (!m.copies) m.copies = std::make_unique<OpenClPlaneCopies>(m.ctx);
  m.copies->makeWaitForWrites(m.ctx.queue());  // this step reads the ghost planes written after the last one
  m.copies->beginStep();
  m.target = m.program.stepsPerPass == 1 ? m.fields.old : m.fields.freeFields()[0];
  m.begun.assign(first.begin(), first.end());
  m.layerMemoryAdvanced = false;
  m.stepOpen = true;
  for (const PlaneRange& planes : m.begun) computePlanes(planes);
  cl_event marker = nullptr;
  checkCl(clEnqueueMarkerWithWaitList(m.ctx.queue(), 0, nullptr, &marker), "clEnqueueMarkerWithWaitList");
  m.firstPlanesDone = Event(marker);
  checkCl(clFlush(m.ctx.queue()), "clFlush", "submitting a slab's first planes");
}

void OpenClSolver::finishStep() {
  Impl& m = *impl_;
  if (!m.stepOpen) throw ComputeError(ComputeStatus::InvalidParameter, "finishStep: no step was begun");
  int k = 0;
  for (const PlaneRange& done : m.begun) {  // the planes between the ranges beginStep computed
    if (done.begin > k) computePlanes({k, done.begin});
    k = done.end;
  }
  if (k < grid_.n3) computePlanes({k, grid_.n3});
  m.layer.finishStep();
  m.receivers.record(m.ctx, m.fields.field[m.target].get(), 1.0f / m.fields.fieldScale, m.slabOtherTime);
  m.copies->markStepComputed(m.ctx.queue());
  m.fields.old = m.fields.cur;
  m.fields.cur = m.target;
  m.stepOpen = false;
  ++step_;
  ++m.slabSteps;
  checkCl(clFlush(m.ctx.queue()), "clFlush", "submitting a slab's step");
}

std::pair<std::size_t, std::size_t> OpenClSolver::planeBytes(int plane, int count, std::size_t memory) const {
  const std::size_t element = impl_->fields.field[0].elementBytes();
  const std::size_t bytes = std::size_t(count) * grid_.planeSize() * element;
  if (count < 0 || plane < -kHalfLength || plane + count > grid_.n3 + kHalfLength || memory < bytes)
    throw ComputeError(ComputeStatus::InvalidParameter,
                       "planes [" + std::to_string(plane) + ", " + std::to_string(plane + count) + ") are outside the padded "
                       "grid's planes or larger than the " + std::to_string(memory) + " bytes given");
  return {std::size_t(plane + kHalfLength) * grid_.planeSize() * element, bytes};
}

void OpenClSolver::startPlaneRead(int plane, int count, std::span<float> out) {
  Impl& m = *impl_;
  if (!m.stepOpen) throw ComputeError(ComputeStatus::InvalidParameter, "startPlaneRead: planes of u^(n+1) are read "
                                                                       "between beginStep and finishStep");
  const auto [offset, bytes] = planeBytes(plane, count, out.size_bytes());
  m.copies->startRead(m.fields.field[m.target].get(), offset, bytes, out.data(), m.firstPlanesDone);
}

void OpenClSolver::startPlaneWrite(int plane, int count, std::span<const float> in) {
  Impl& m = *impl_;
  if (m.stepOpen) throw ComputeError(ComputeStatus::InvalidParameter, "startPlaneWrite: planes of the current field "
                                                                      "are written after finishStep");
  const auto [offset, bytes] = planeBytes(plane, count, in.size_bytes());
  if (!m.copies) m.copies = std::make_unique<OpenClPlaneCopies>(m.ctx);
  m.copies->startWrite(m.fields.field[m.fields.cur].get(), offset, bytes, in.data());
}

void OpenClSolver::waitPlaneRead(int read) {
  if (!impl_->copies) throw ComputeError(ComputeStatus::InvalidParameter, "waitPlaneRead: no plane was read");
  impl_->copies->waitRead(read);
}

void OpenClSolver::waitPlaneCopies() {
  Impl& m = *impl_;
  if (m.copies) m.copies->waitAll();
}

void OpenClSolver::synchronize() {
  Impl& m = *impl_;
  waitPlaneCopies();
  m.ctx.finish();
  if (m.copies) m.copies->settle();
  const double stencil = m.slabStencilTime.total(),
               other = m.slabOtherTime.total() + m.layer.collectSeconds(counters_.layerSeconds);
  m.slabStencilTime = {};
  m.slabOtherTime = {};
  counters_.steps += m.slabSteps;
  counters_.stencilSeconds += stencil;
  counters_.kernelSeconds += stencil + other;
  counters_.lastAdvanceSeconds = stencil + other;
  counters_.lastAdvanceSteps = m.slabSteps;
  counters_.planeCopySeconds = m.copies ? m.copies->seconds() : 0.0;
  counters_.planeCopyBytes = m.copies ? m.copies->bytes() : 0;
  counters_.planeWaitSeconds = m.copies ? m.copies->waitedSeconds() : 0.0;
  m.slabSteps = 0;
}

HostPlanes OpenClSolver::allocateHostPlanes(std::size_t floats) { return allocatePageLocked(impl_->ctx, floats); }

bool OpenClSolver::lockHostMemory(std::span<float> memory) {
  // A buffer over the memory (CL_MEM_USE_HOST_PTR): NVIDIA's driver page-locks it for the buffer's life,
  // and then copies to and from any pointer in it at the link's speed (docs/SCALING.md). A driver that
  // refuses the buffer leaves the copies at pageable memory's speed, which the caller reports.
  cl_int err = CL_SUCCESS;
  cl_mem buffer = clCreateBuffer(impl_->ctx.context(), CL_MEM_USE_HOST_PTR | CL_MEM_READ_WRITE, memory.size_bytes(),
                                 memory.data(), &err);
  if (err != CL_SUCCESS) return false;
  impl_->lockedHostMemory.emplace_back(memory, ClMemHandle(buffer));
  return true;
}

void OpenClSolver::unlockHostMemory(std::span<float> memory) {
  auto& locked = impl_->lockedHostMemory;
  std::erase_if(locked, [&](const auto& l) { return l.first.data() == memory.data() && l.first.size() == memory.size(); });
}

void OpenClSolver::buildForTest(const DeviceInfo& device, const std::string& source, const std::string& options) {
  ClContext ctx(device);
  Program p(ctx, {source, options, "test source"});
}

}  // namespace iso
