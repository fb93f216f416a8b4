#include "compute/OpenClSolver.h"

#include <algorithm>
#include <array>
#include <climits>
#include <cmath>
#include <cstdio>
#include <stdexcept>

#include "core/Format.h"
#include "compute/ClHost.h"
#include "compute/KernelSources.h"
#include "compute/OpenClVolumeRenderer.h"
#include "compute/stages/OpenClStage.h"

namespace iso {

namespace {

constexpr int kTraceRowsPerFlush = 256;  // receiver rows kept on the device before a read-back
constexpr int kStencilArgs = 10;         // STENCIL_ARGS in common.cl; a stage's extra arguments follow
constexpr int kMultiStepArgs = 15;       // a multi-step kernel's (stages/OpenClStage.h), then the extras
constexpr int kMaxFieldBuffers = 4;
// Profiling events held before their times are summed: bounded, so that memory stays flat however many
// steps one advance() runs.
constexpr std::size_t kEventsPerBatch = 256;

std::size_t roundUp(std::size_t n, std::size_t m) { return (n + m - 1) / m * m; }


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

std::string stageBuildOptions(const std::string& stage, const StageParamMap& p, bool damping, const Grid& grid) {
  // Subnormal floats may be flushed to zero, as the CPU stages do (core/FlushDenormals.h): on a CPU
  // device (PoCL) they would cost a microcode assist per operation; a GPU handles either way at full
  // speed, and the values are far below anything the solver shows.
  std::string o = "-cl-denorms-are-zero -DR=" + std::to_string(kHalfLength) +
                  " -DPML_M=" + std::to_string(kPmlHalfLength) + " -DDAMPING=" + (damping ? "1" : "0");
  if (const std::string own = openClStage(stage).buildOptions(p, grid); !own.empty()) o += " " + own;
  return o;
}

std::size_t openClSolverBytes(const Grid& g, int fieldBuffers) {
  return std::size_t(fieldBuffers + 1) * g.paddedSize() * sizeof(float);
}

void checkGridFitsDevice(const Grid& g, const DeviceInfo& d, int fieldBuffers) {
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
  if (const std::size_t all = openClSolverBytes(g, fieldBuffers); all > d.globalMemBytes)
    throw ComputeError(ComputeStatus::OutOfMemory, "grid " + dims + " needs " + byteSize(double(all)) +
                                                       " of device memory (" + std::to_string(fieldBuffers + 1) +
                                                       " buffers of " + byteSize(double(one)) + "), but " +
                                                       d.name + " has " + byteSize(double(d.globalMemBytes)) +
                                                       "; choose a smaller grid");
}

struct OpenClSolver::Impl {
  ClContext ctx;
  Program program;
  Kernel stencil, inject, record, slices;
  NDRange stencilRange;
  std::vector<int> stencilExtraArgs;  // after the kernel's own arguments (e.g. the z chunk)
  int stepsPerPass = 1;

  std::size_t guard = 0;
  int fieldCount = 2;
  Buffer<float> parents[kMaxFieldBuffers + 1];  // with guards: the full allocations (fields, then vel)
  Buffer<float> field[kMaxFieldBuffers], vel;
  Buffer<float> coef, gx, gy, gz;
  int cur = 0, old = 1;  // field[cur] holds u^n, field[old] u^(n-1)

  // The absorbing layer: per axis ψ, ζ and the recursion coefficients (none for an axis without a layer).
  PmlProfile pml;
  Kernel pmlMemory[3], pmlCorrect[3];  // per axis
  std::array<std::size_t, 2> layerGroup{32, 4};  // layerRange's work-group; {0, 0}: the driver's choice
  Buffer<float> pmlPsi[3], pmlZeta[3], pmlRecursion[3], pmlWeights;

  std::optional<PointInjection> source;
  Buffer<int> receiverIndex;
  Buffer<float> traceRows;
  int receiverCount = 0, traceRowsOnDevice = 0;
  std::vector<float> traces;

  Buffer<float> sliceBuffer;  // xy | xz | yz, read in one piece
  Event sliceRead;            // the read of startSlices, until finishSlices
  std::unique_ptr<OpenClVolumeRenderer> volume;  // built when first asked for an image

  explicit Impl(const DeviceInfo& d) : ctx(d) {}

  // The field buffers that hold neither u^n nor u^(n-1), in order.
  std::array<int, 2> freeFields() const {
    std::array<int, 2> out{-1, -1};
    for (int b = 0, n = 0; b < fieldCount && n < 2; ++b)
      if (b != cur && b != old) out[n++] = b;
    return out;
  }

  void flushTraces() {
    if (traceRowsOnDevice == 0) return;
    const std::size_t n = std::size_t(traceRowsOnDevice) * receiverCount;
    const std::size_t old = traces.size();
    traces.resize(old + n);
    traceRows.read(ctx, traces.data() + old, n);
    traceRowsOnDevice = 0;
  }

  // The layer's kernels in work-groups of 32 along dimension 0 (x, or for axis x the layer's cells along
  // it) by 4 rows (layerGroup): whole warps over contiguous memory. The global size is rounded up to
  // whole groups; the kernels skip the work-items past the ends.
  NDRange layerRange(const std::array<std::size_t, 3>& cells) const {
    if (layerGroup[0] == 0) return {3, cells, {0, 0, 0}};
    NDRange r{3, cells, {layerGroup[0], layerGroup[1], 1}};
    for (int d = 0; d < 2; ++d) r.global[d] = (cells[d] + r.local[d] - 1) / r.local[d] * r.local[d];
    return r;
  }

  // Adds the layer's terms of step n to u^(n+1) in `next`, u^n being `prev` (after the stencil).
  void correctForLayer(const Buffer<float>& prev, const Buffer<float>& next, const Grid& g, KernelTime& time) {
    for (int a = 0; a < 3; ++a) {
      const PmlAxis& axis = pml.axes[a];
      if (axis.width == 0) continue;
      const auto dims = pml.memoryDims(a);
      pmlMemory[a].args(prev, pmlPsi[a], pmlRecursion[a], pmlWeights, g.n1, g.n2, g.n3, axis.width);
      time.add(pmlMemory[a].launch(ctx, layerRange({std::size_t(dims[0]), std::size_t(dims[1]), std::size_t(dims[2])})));
      std::array<std::size_t, 3> reach{std::size_t(g.n1), std::size_t(g.n2), std::size_t(g.n3)};
      reach[a] = std::size_t(axis.reachCells());
      pmlCorrect[a].args(prev, next, vel, coef, pmlPsi[a], pmlZeta[a], pmlRecursion[a], pmlWeights, g.n1, g.n2, g.n3,
                      axis.width);
      time.add(pmlCorrect[a].launch(ctx, layerRange(reach)));
    }
  }

  // Calls copy(buffer, offset) for ψ then ζ of x, y and z: their places in PmlProfile::memoryFloats order.
  template <class Copy>
  void forEachLayerBuffer(Copy copy) const {
    std::size_t offset = 0;
    for (int a = 0; a < 3; ++a)
      for (const Buffer<float>* b : {&pmlPsi[a], &pmlZeta[a]}) {
        if (b->size() == 0) continue;  // an axis without a layer
        copy(*b, offset);
        offset += b->size();
      }
  }
};

OpenClSolver::OpenClSolver(const Problem& problem, const std::string& stage, const StageParamMap& params,
                           const DeviceInfo& device, const OpenClSolverOptions& options)
    : stage_(stage), grid_(problem.grid) {
  const OpenClStage& descriptor = openClStage(stage_);
  params_ = resolveStageParams(stage_, device, problem.grid, params, options.useTuningDatabase);
  const int stepsPerPass = descriptor.stepsPerPass(params_), fieldCount = descriptor.fieldBuffers(params_);
  // In place needs two buffers; out of place, u^(n-1), u^n and one for each new level.
  if (stepsPerPass < 1 || stepsPerPass > 2 || fieldCount != 2 * stepsPerPass)
    throw std::logic_error("stage '" + stage_ + "': " + std::to_string(stepsPerPass) + " steps per pass with " +
                           std::to_string(fieldCount) + " field buffers is not a form this solver runs");
  checkGridFitsDevice(grid_, device, fieldCount);
  const Grid& g = grid_;
  if (problem.vel.size() != g.paddedSize())
    throw ComputeError(ComputeStatus::InvalidParameter, "problem.vel has " + std::to_string(problem.vel.size()) +
                                                            " values, expected the padded size " +
                                                            std::to_string(g.paddedSize()));
  impl_ = std::make_unique<Impl>(device);
  Impl& m = *impl_;
  const bool damping = problem.damping.enabled();

  // Program: the shared utilities plus the stage's kernel, parameters as defines.
  const std::string file = descriptor.kernelFile(params_);
  m.program = Program(m.ctx, {kernelSource("common.cl") + "\n" + kernelSource("pml.cl") + "\n" + kernelSource(file),
                              stageBuildOptions(stage_, params_, damping, grid_), stage_ + " (" + file + ")",
                              params_.count("max_registers") ? params_.at("max_registers") : 0});
  m.stencil = m.program.kernel("stencil");
  m.inject = m.program.kernel("inject_source");
  m.record = m.program.kernel("record_receivers");
  m.slices = m.program.kernel("extract_slices");

  // Registers can make a kernel's own work-group limit smaller than the device's.
  if (const std::size_t wg = workGroupSize(stage_, params_); wg > 0 && descriptor.kernelLimitIsReliable(params_, device)) {
    const std::size_t kernelMax = m.stencil.maxWorkGroupSize(m.ctx);
    if (wg > kernelMax)
      throw ComputeError(ComputeStatus::InvalidParameter,
                         "stage '" + stage_ + "': work-group of " + std::to_string(wg) + " work-items (" +
                             formatStageParams(params_) + ") exceeds this kernel's limit of " +
                             std::to_string(kernelMax) + " on " + device.name + " (registers); choose a smaller tile");
  }

  const StageLaunch launch = descriptor.launch(params_, g);
  m.stencilRange = NDRange{3, launch.global, launch.local};
  m.stencilExtraArgs = launch.extraArgs;
  m.stepsPerPass = stepsPerPass;
  m.fieldCount = fieldCount;

  // Buffers: the fields and vel, optionally inside guarded parents.
  const std::size_t n = g.paddedSize();
  const std::size_t align = m.ctx.baseAddressAlignBytes() / sizeof(float);
  m.guard = options.guardElements ? roundUp(options.guardElements, std::max<std::size_t>(align, 1)) : 0;
  for (int b = 0; b <= m.fieldCount; ++b) {
    const bool isField = b < m.fieldCount;
    Buffer<float>& target = isField ? m.field[b] : m.vel;
    if (m.guard) {
      m.parents[b] = Buffer<float>(m.ctx, n + 2 * m.guard, CL_MEM_READ_WRITE, "guarded grid buffer");
      m.parents[b].fill(m.ctx, options.guardValue);
      target = Buffer<float>::subBuffer(m.parents[b], m.guard, n);
    } else {
      target = Buffer<float>(m.ctx, n, CL_MEM_READ_WRITE, isField ? "wavefield buffer" : "velocity buffer");
    }
  }
  m.vel.write(m.ctx, problem.vel);
  if (problem.initialPrev.empty()) {
    m.field[0].fill(m.ctx, 0.0f);
  } else {
    if (problem.initialPrev.size() != n)
      throw ComputeError(ComputeStatus::InvalidParameter, "problem.initialPrev has " +
                                                              std::to_string(problem.initialPrev.size()) +
                                                              " values, expected " + std::to_string(n));
    m.field[0].write(m.ctx, problem.initialPrev);
  }
  // u^-1 = 0; the buffers a multi-step pass writes start at 0 too, since no kernel writes a halo.
  for (int b = 1; b < m.fieldCount; ++b) m.field[b].fill(m.ctx, 0.0f);

  m.coef = Buffer<float>(m.ctx, problem.coeffs.size(), CL_MEM_READ_ONLY, "coefficients");
  m.coef.write(m.ctx, problem.coeffs.data(), problem.coeffs.size());
  if (damping) {
    const DampingProfile& dp = problem.damping;
    if (dp.gx.size() != std::size_t(g.nx()) || dp.gy.size() != std::size_t(g.ny()) || dp.gz.size() != std::size_t(g.nz()))
      throw ComputeError(ComputeStatus::InvalidParameter, "damping profile sizes do not match the padded grid");
    m.gx = Buffer<float>(m.ctx, dp.gx.size(), CL_MEM_READ_ONLY, "damping gx");
    m.gy = Buffer<float>(m.ctx, dp.gy.size(), CL_MEM_READ_ONLY, "damping gy");
    m.gz = Buffer<float>(m.ctx, dp.gz.size(), CL_MEM_READ_ONLY, "damping gz");
    m.gx.write(m.ctx, dp.gx);
    m.gy.write(m.ctx, dp.gy);
    m.gz.write(m.ctx, dp.gz);
  } else {
    // The kernels take the arguments but never read them without DAMPING.
    for (Buffer<float>* b : {&m.gx, &m.gy, &m.gz}) *b = Buffer<float>(m.ctx, 1, CL_MEM_READ_ONLY, "damping placeholder");
  }

  m.pml = problem.pml;
  if (m.pml.enabled()) {
    for (int a = 0; a < 3; ++a) {
      const std::string axis(1, "xyz"[a]);
      m.pmlMemory[a] = m.program.kernel("pml_memory_" + axis);
      m.pmlCorrect[a] = m.program.kernel("pml_correct_" + axis);
      // Fewer rows where a kernel allows fewer work-items (registers, a small device), or the driver's
      // choice below one warp's width.
      for (const Kernel* k : {&m.pmlMemory[a], &m.pmlCorrect[a]}) {
        const std::size_t limit = k->maxWorkGroupSize(m.ctx);
        if (limit < m.layerGroup[0] * m.layerGroup[1])
          m.layerGroup = limit < m.layerGroup[0] ? std::array<std::size_t, 2>{0, 0}
                                                 : std::array<std::size_t, 2>{m.layerGroup[0], limit / m.layerGroup[0]};
      }
    }
    m.pmlWeights = Buffer<float>(m.ctx, kPmlHalfLength, CL_MEM_READ_ONLY, "absorbing-layer weights");
    m.pmlWeights.write(m.ctx, m.pml.firstDerivative.data(), kPmlHalfLength);
    for (int a = 0; a < 3; ++a) {
      const PmlAxis& axis = m.pml.axes[a];
      if (axis.width == 0) continue;
      const std::size_t floats = m.pml.axisMemoryFloats(a) / 2;
      m.pmlPsi[a] = Buffer<float>(m.ctx, floats, CL_MEM_READ_WRITE, "absorbing-layer memory");
      m.pmlZeta[a] = Buffer<float>(m.ctx, floats, CL_MEM_READ_WRITE, "absorbing-layer memory");
      m.pmlPsi[a].fill(m.ctx, 0.0f);
      m.pmlZeta[a].fill(m.ctx, 0.0f);
      std::vector<float> recursion;
      for (const auto* v : {&axis.psiDecay, &axis.psiGain, &axis.zetaDecay, &axis.zetaGain})
        recursion.insert(recursion.end(), v->begin(), v->end());
      m.pmlRecursion[a] = Buffer<float>(m.ctx, recursion.size(), CL_MEM_READ_ONLY, "absorbing-layer coefficients");
      m.pmlRecursion[a].write(m.ctx, recursion);
    }
  }

  m.source = problem.source;
  if (m.source && m.source->index >= n)
    throw ComputeError(ComputeStatus::InvalidParameter, "source index " + std::to_string(m.source->index) +
                                                            " is outside the padded grid of " + std::to_string(n));
  m.receiverCount = int(problem.receivers.size());
  if (m.receiverCount > 0) {
    std::vector<int> idx;
    for (std::size_t i : problem.receivers) {
      if (i >= n)
        throw ComputeError(ComputeStatus::InvalidParameter, "receiver index " + std::to_string(i) +
                                                                " is outside the padded grid of " + std::to_string(n));
      idx.push_back(int(i));
    }
    m.receiverIndex = Buffer<int>(m.ctx, idx.size(), CL_MEM_READ_ONLY, "receiver indices");
    m.receiverIndex.write(m.ctx, idx);
    m.traceRows = Buffer<float>(m.ctx, std::size_t(kTraceRowsPerFlush) * m.receiverCount, CL_MEM_READ_WRITE, "traces");
  }
  const std::size_t sliceCount = std::size_t(g.n1) * g.n2 + std::size_t(g.n1) * g.n3 + std::size_t(g.n2) * g.n3;
  m.sliceBuffer = Buffer<float>(m.ctx, sliceCount, CL_MEM_READ_WRITE, "slices");
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
  const Grid& g = grid_;
  KernelTime stencilTime, otherTime;
  // The source term of `step` into u^(step+1), and the receivers' samples of a new level.
  const auto inject = [&](const Buffer<float>& level, long step) {
    m.inject.args(level, int(m.source->index), m.source->valueForStep(step));
    otherTime.add(m.inject.launch(m.ctx, NDRange{1, {1, 1, 1}, {1, 1, 1}}));
  };
  const auto record = [&](const Buffer<float>& level) {
    if (m.receiverCount == 0) return;
    if (m.traceRowsOnDevice == kTraceRowsPerFlush) m.flushTraces();
    m.record.args(level, m.receiverIndex, m.traceRows, m.receiverCount, m.traceRowsOnDevice);
    otherTime.add(m.record.launch(m.ctx, NDRange{1, {std::size_t(m.receiverCount), 1, 1}, {0, 0, 0}}));
    ++m.traceRowsOnDevice;
  };
  const auto setExtraArgs = [&](int first) {
    for (std::size_t a = 0; a < m.stencilExtraArgs.size(); ++a) m.stencil.setArg(cl_uint(first + a), m.stencilExtraArgs[a]);
  };
  for (int s = 0; s < steps;) {
    if (m.stepsPerPass == 1) {
      // In place: u^(n+1) over u^(n-1).
      const Buffer<float>& next = m.field[m.old];
      m.stencil.args(m.field[m.cur], next, m.vel, m.coef, m.gx, m.gy, m.gz, g.n1, g.n2, g.n3);
      setExtraArgs(kStencilArgs);
      stencilTime.add(m.stencil.launch(m.ctx, m.stencilRange));
      if (m.pml.enabled()) m.correctForLayer(m.field[m.cur], next, g, otherTime);
      if (m.source) inject(next, step_);
      record(next);
      std::swap(m.cur, m.old);
      ++s;
      ++step_;
      continue;
    }
    // Out of place, up to two steps (fewer for the rest of the count): u^(n+1) and u^(n+2) into the free
    // buffers. The kernel adds step n's source term to u^(n+1) before it computes u^(n+2) from it. The
    // absorbing layer's pass must come between two steps, so with it every pass is one step.
    const int n = m.pml.enabled() ? 1 : std::min(m.stepsPerPass, steps - s);
    const auto [first, second] = m.freeFields();
    m.stencil.args(m.field[m.old], m.field[m.cur], m.field[first], m.field[second], m.vel, m.coef, m.gx, m.gy, m.gz,
                   g.n1, g.n2, g.n3, m.source ? int(m.source->index) : -1,
                   m.source ? m.source->valueForStep(step_) : 0.0f, n);
    setExtraArgs(kMultiStepArgs);
    stencilTime.add(m.stencil.launch(m.ctx, m.stencilRange));
    if (m.pml.enabled()) m.correctForLayer(m.field[m.cur], m.field[first], g, otherTime);
    record(m.field[first]);
    if (n == 2) {
      if (m.source) inject(m.field[second], step_ + 1);
      record(m.field[second]);
      m.old = first;
      m.cur = second;
    } else {
      m.old = m.cur;
      m.cur = first;
    }
    s += n;
    step_ += n;
  }
  m.ctx.finish();
  const double stencil = stencilTime.total(), other = otherTime.total();
  counters_.steps += steps;
  counters_.stencilSeconds += stencil;
  counters_.kernelSeconds += stencil + other;
  counters_.lastAdvanceSeconds = stencil + other;
  counters_.lastAdvanceSteps = steps;
  return stencil + other;
}

void OpenClSolver::readField(std::vector<float>& interior) {
  Impl& m = *impl_;
  const Grid& g = grid_;
  interior.resize(g.interiorSize());
  const std::size_t R = kHalfLength;
  const std::size_t bufferOrigin[3] = {R * sizeof(float), R, R}, hostOrigin[3] = {0, 0, 0};
  const std::size_t region[3] = {std::size_t(g.n1) * sizeof(float), std::size_t(g.n2), std::size_t(g.n3)};
  checkCl(clEnqueueReadBufferRect(m.ctx.queue(), m.field[m.cur].get(), CL_TRUE, bufferOrigin, hostOrigin, region,
                                  std::size_t(g.nx()) * sizeof(float), g.planeSize() * sizeof(float),
                                  std::size_t(g.n1) * sizeof(float), std::size_t(g.n1) * g.n2 * sizeof(float),
                                  interior.data(), 0, nullptr, nullptr),
          "clEnqueueReadBufferRect", "reading the field");
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
  m.slices.args(m.field[m.cur], m.sliceBuffer, g.n1, g.n2, g.n3, i, j, k);
  const std::size_t largest = std::max({std::size_t(g.n1) * g.n2, std::size_t(g.n1) * g.n3, std::size_t(g.n2) * g.n3});
  const Event extracted = m.slices.launch(m.ctx, NDRange{1, {largest, 1, 1}, {0, 0, 0}});
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
  if (!m.volume) m.volume = std::make_unique<OpenClVolumeRenderer>(m.ctx);
  m.volume->start(view, grid_, m.field[m.cur], m.vel, rgba, seconds);
  return false;
}

std::vector<float> OpenClSolver::traces() {
  impl_->flushTraces();
  return impl_->traces;
}

SolverState OpenClSolver::saveState() {
  Impl& m = *impl_;
  SolverState state;
  state.step = step_;
  state.current.resize(grid_.paddedSize());
  state.previous.resize(grid_.paddedSize());
  m.field[m.cur].read(m.ctx, state.current.data(), state.current.size());
  m.field[m.old].read(m.ctx, state.previous.data(), state.previous.size());
  state.traces = traces();
  state.boundaryMemory.resize(m.pml.memoryFloats());
  m.forEachLayerBuffer([&](const Buffer<float>& b, std::size_t at) { b.read(m.ctx, state.boundaryMemory.data() + at, b.size()); });
  return state;
}

void OpenClSolver::restoreState(const SolverState& state) {
  Impl& m = *impl_;
  const std::size_t padded = grid_.paddedSize();
  const std::size_t samples = std::size_t(state.step) * std::size_t(m.receiverCount);
  if (state.boundaryMemory.size() != m.pml.memoryFloats())
    throw std::invalid_argument("restoring stage '" + stage_ + "': the saved absorbing-layer memory has " +
                                std::to_string(state.boundaryMemory.size()) + " values; this grid's layer needs " +
                                std::to_string(m.pml.memoryFloats()));
  if (state.current.size() != padded || state.previous.size() != padded || state.traces.size() != samples)
    throw std::invalid_argument("restoring stage '" + stage_ + "': the saved state has " +
                                std::to_string(state.current.size()) + " + " + std::to_string(state.previous.size()) +
                                " field values and " + std::to_string(state.traces.size()) + " trace samples; this grid needs " +
                                std::to_string(padded) + " each and " + std::to_string(samples) + " samples");
  m.flushTraces();
  m.field[m.cur].write(m.ctx, state.current);
  m.field[m.old].write(m.ctx, state.previous);
  m.forEachLayerBuffer([&](const Buffer<float>& b, std::size_t at) { b.write(m.ctx, state.boundaryMemory.data() + at, b.size()); });
  m.ctx.finish();
  m.traces = state.traces;
  step_ = state.step;
}

std::size_t OpenClSolver::guardElements() const { return impl_->guard; }

int OpenClSolver::rawBuffers() const { return impl_->fieldCount + 1; }

std::vector<float> OpenClSolver::readRawBuffer(int which) {
  Impl& m = *impl_;
  if (which < 0 || which > m.fieldCount)
    throw ComputeError(ComputeStatus::InvalidParameter,
                       "readRawBuffer: which is 0 .. " + std::to_string(m.fieldCount) + " (the last: vel)");
  const Buffer<float>& b = m.guard ? m.parents[which] : (which < m.fieldCount ? m.field[which] : m.vel);
  std::vector<float> out(b.size());
  b.read(m.ctx, out.data(), out.size());
  return out;
}

void OpenClSolver::buildForTest(const DeviceInfo& device, const std::string& source, const std::string& options) {
  ClContext ctx(device);
  Program p(ctx, {source, options, "test source"});
}

}  // namespace iso
