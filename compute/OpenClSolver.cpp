#include "OpenClSolver.h"

#include <algorithm>
#include <climits>
#include <cmath>
#include <cstdio>

#include "Format.h"
#include "KernelSources.h"

namespace iso {

namespace {

constexpr int kTraceRowsPerFlush = 256;  // receiver rows kept on the device before a read-back

std::string stageKernelFile(const std::string& stage, const StageParamMap& p) {
  if (stage == "gpu-basic") return "basic.cl";
  if (stage == "gpu-linear") return "linear.cl";
  if (stage == "gpu-private-z") return "private_z.cl";
  if (stage == "gpu-private-x") return "private_x.cl";
  if (stage == "gpu-slm") return "slm.cl";
  if (stage == "gpu-optimized") return usesCpuOptimizedKernel(stage, p) ? "optimized_cpu.cl" : "optimized_gpu.cl";
  throw ComputeError(ComputeStatus::InvalidParameter, "'" + stage + "' is not an OpenCL stage");
}

std::size_t roundUp(std::size_t n, std::size_t m) { return (n + m - 1) / m * m; }
std::size_t ceilDiv(std::size_t n, std::size_t m) { return (n + m - 1) / m; }


}  // namespace

std::string stageBuildOptions(const std::string& stage, const StageParamMap& p, bool damping, const Grid& grid) {
  std::string o = "-DDAMPING=" + std::string(damping ? "1" : "0");
  auto def = [&](const char* name, const char* key) { o += " -D" + std::string(name) + "=" + std::to_string(p.at(key)); };
  if (stage == "gpu-slm") {
    def("TILE_X", "tile_x");
    def("TILE_Y", "tile_y");
  } else if (stage == "gpu-optimized") {
    if (usesCpuOptimizedKernel(stage, p)) {
      def("VEC", "vec");
    } else {
      def("TX", "tile_x");
      def("TY", "tile_y");
      def("XV", "x_per_item");
      def("YB", "y_per_item");
      def("PREFETCH", "prefetch");
      def("Z_UNROLL", "z_unroll");
      def("ASYNC", "async_copy");
      // Rows that start on a vector boundary let every global access be one aligned vector.
      o += std::string(" -DALIGNED=") + (grid.nx() % p.at("x_per_item") == 0 ? "1" : "0");
    }
  }
  return o;
}

std::size_t openClSolverBytes(const Grid& g) { return 3 * g.paddedSize() * sizeof(float); }

void checkGridFitsDevice(const Grid& g, const DeviceInfo& d) {
  const std::string dims = std::to_string(g.n1) + "x" + std::to_string(g.n2) + "x" + std::to_string(g.n3);
  if (g.n1 < 1 || g.n2 < 1 || g.n3 < 1)
    throw ComputeError(ComputeStatus::InvalidParameter, "grid " + dims + " is empty: every size must be >= 1");
  if (g.paddedSize() > std::size_t(INT_MAX))
    throw ComputeError(ComputeStatus::OutOfMemory,
                       "grid " + dims + " has " + std::to_string(g.paddedSize()) +
                           " padded cells; the OpenCL kernels index with 32-bit ints, limit " + std::to_string(INT_MAX));
  const std::uint64_t one = g.paddedSize() * sizeof(float);
  if (one > d.maxAllocBytes)
    throw ComputeError(ComputeStatus::OutOfMemory, "grid " + dims + " needs buffers of " + gibibytes(double(one)) + " each, but " +
                                                       d.name + " allows at most " + gibibytes(double(d.maxAllocBytes)) +
                                                       " per allocation; choose a smaller grid");
  if (openClSolverBytes(g) > d.globalMemBytes)
    throw ComputeError(ComputeStatus::OutOfMemory, "grid " + dims + " needs " + gibibytes(double(openClSolverBytes(g))) +
                                                       " of device memory (3 buffers of " + gibibytes(double(one)) + "), but " +
                                                       d.name + " has " + gibibytes(double(d.globalMemBytes)) +
                                                       "; choose a smaller grid");
}

struct OpenClSolver::Impl {
  ClContext ctx;
  Program program;
  Kernel stencil, inject, record, slices, decimate;
  NDRange stencilRange;
  int chunkArg = -1;  // the z_chunk / x_chunk argument, or -1 when the kernel takes none

  std::size_t guard = 0;
  Buffer<float> parents[3];  // with guards: the full allocations
  Buffer<float> field[2], vel;
  Buffer<float> coef, gx, gy, gz;
  int cur = 0;  // field[cur] holds u^n

  std::optional<PointInjection> source;
  Buffer<int> receiverIndex;
  Buffer<float> traceRows;
  int receiverCount = 0, traceRowsOnDevice = 0;
  std::vector<float> traces;

  Buffer<float> sliceBuffer;
  std::vector<float> sliceHost;
  Event sliceDone;
  SliceSet pendingSlices;  // geometry of the request in flight
  bool slicePending = false;

  explicit Impl(const DeviceInfo& d) : ctx(d) {}

  void flushTraces() {
    if (traceRowsOnDevice == 0) return;
    const std::size_t n = std::size_t(traceRowsOnDevice) * receiverCount;
    const std::size_t old = traces.size();
    traces.resize(old + n);
    traceRows.read(ctx, traces.data() + old, n);
    traceRowsOnDevice = 0;
  }
};

OpenClSolver::OpenClSolver(Problem problem, const DeviceInfo& device, const OpenClSolverOptions& options)
    : stage_(problem.stage), grid_(problem.grid) {
  params_ = resolveStageParams(stage_, device, problem.stageParams, options.useTuningDatabase);
  checkGridFitsDevice(grid_, device);
  const Grid& g = grid_;
  if (problem.vel.size() != g.paddedSize())
    throw ComputeError(ComputeStatus::InvalidParameter, "problem.vel has " + std::to_string(problem.vel.size()) +
                                                            " values, expected the padded size " +
                                                            std::to_string(g.paddedSize()));
  impl_ = std::make_unique<Impl>(device);
  Impl& m = *impl_;
  const bool damping = problem.damping.enabled();

  // Program: the shared utilities plus the stage's kernel, parameters as defines.
  const std::string file = stageKernelFile(stage_, params_);
  m.program = Program(m.ctx, {kernelSource("common.cl") + "\n" + kernelSource(file),
                              stageBuildOptions(stage_, params_, damping, grid_), stage_ + " (" + file + ")",
                              params_.count("max_registers") ? params_.at("max_registers") : 0});
  m.stencil = m.program.kernel("stencil");
  m.inject = m.program.kernel("inject_source");
  m.record = m.program.kernel("record_receivers");
  m.slices = m.program.kernel("extract_slices");
  m.decimate = m.program.kernel("extract_decimated");

  // Registers can make a kernel's own work-group limit smaller than the device's. NVIDIA's driver
  // (580) reports 256 for every kernel, whatever its registers (65536 / 255); for a kernel with
  // reqd_work_group_size its compiler keeps the registers low enough for one group (ptxas: 64-128
  // registers at 512 work-items), so gpu-optimized's GPU form trusts the launch there, whose status
  // is checked like every other.
  const bool reportedLimitIsReal = !(stage_ == "gpu-optimized" && !usesCpuOptimizedKernel(stage_, params_) &&
                                     device.vendor.find("NVIDIA") != std::string::npos);
  if (const std::size_t wg = workGroupSize(stage_, params_); wg > 0 && reportedLimitIsReal) {
    const std::size_t kernelMax = m.stencil.maxWorkGroupSize(m.ctx);
    if (wg > kernelMax)
      throw ComputeError(ComputeStatus::InvalidParameter,
                         "stage '" + stage_ + "': work-group of " + std::to_string(wg) + " work-items (" +
                             formatStageParams(params_) + ") exceeds this kernel's limit of " +
                             std::to_string(kernelMax) + " on " + device.name + " (registers); choose a smaller tile");
  }

  // Launch geometry.
  const auto chunkOf = [&](const char* key, int n) { return params_.at(key) == 0 ? n : std::min(params_.at(key), n); };
  NDRange& r = m.stencilRange;
  r.dims = 3;
  if (stage_ == "gpu-basic" || stage_ == "gpu-linear" || stage_ == "gpu-private-z") {
    const std::size_t wx = params_.at("wg_x"), wy = params_.at("wg_y");
    const int zc = stage_ == "gpu-private-z" ? chunkOf("z_chunk", g.n3) : 1;
    r.global = {roundUp(g.n1, wx), roundUp(g.n2, wy), stage_ == "gpu-private-z" ? ceilDiv(g.n3, zc) : std::size_t(g.n3)};
    r.local = {wx, wy, 1};
    if (stage_ == "gpu-private-z") m.chunkArg = zc;
  } else if (stage_ == "gpu-private-x") {
    const std::size_t wx = params_.at("wg_x"), wy = params_.at("wg_y");
    const int xc = chunkOf("x_chunk", g.n1);
    r.global = {roundUp(g.n2, wx), roundUp(g.n3, wy), ceilDiv(g.n1, xc)};
    r.local = {wx, wy, 1};
    m.chunkArg = xc;
  } else if (stage_ == "gpu-slm") {
    const std::size_t tx = params_.at("tile_x"), ty = params_.at("tile_y");
    const int zc = chunkOf("z_chunk", g.n3);
    r.global = {roundUp(g.n1, tx), roundUp(g.n2, ty), ceilDiv(g.n3, zc)};
    r.local = {tx, ty, 1};
    m.chunkArg = zc;
  } else if (usesCpuOptimizedKernel(stage_, params_)) {
    const int zc = chunkOf("z_chunk", g.n3);
    r.global = {ceilDiv(g.n1, params_.at("vec")), std::size_t(g.n2), ceilDiv(g.n3, zc)};
    m.chunkArg = zc;
  } else {
    const std::size_t tx = params_.at("tile_x"), ty = params_.at("tile_y"), rows = ty * params_.at("y_per_item");
    const int zc = chunkOf("z_chunk", g.n3);
    r.global = {ceilDiv(g.n1, tx * params_.at("x_per_item")) * tx, ceilDiv(g.n2, rows) * ty, ceilDiv(g.n3, zc)};
    r.local = {tx, ty, 1};
    m.chunkArg = zc;
  }

  // Buffers: two ping-pong fields and vel, optionally inside guarded parents.
  const std::size_t n = g.paddedSize();
  const std::size_t align = m.ctx.baseAddressAlignBytes() / sizeof(float);
  m.guard = options.guardElements ? roundUp(options.guardElements, std::max<std::size_t>(align, 1)) : 0;
  for (int b = 0; b < 3; ++b) {
    Buffer<float>& target = b < 2 ? m.field[b] : m.vel;
    if (m.guard) {
      m.parents[b] = Buffer<float>(m.ctx, n + 2 * m.guard, CL_MEM_READ_WRITE, "guarded grid buffer");
      m.parents[b].fill(m.ctx, options.guardValue);
      target = Buffer<float>::subBuffer(m.parents[b], m.guard, n);
    } else {
      target = Buffer<float>(m.ctx, n, CL_MEM_READ_WRITE, b < 2 ? "wavefield buffer" : "velocity buffer");
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
  m.field[1].fill(m.ctx, 0.0f);  // u^-1 = 0
  problem.vel = {};
  problem.initialPrev = {};

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
  // Pending non-blocking reads target memory we own: let them land before it is freed.
  if (impl_) clFinish(impl_->ctx.queue());
}

std::string OpenClSolver::deviceName() const { return impl_->ctx.info().name; }
const DeviceInfo& OpenClSolver::device() const { return impl_->ctx.info(); }

double OpenClSolver::advance(int steps) {
  if (steps < 0) throw ComputeError(ComputeStatus::InvalidParameter, "advance: steps must be >= 0");
  Impl& m = *impl_;
  const Grid& g = grid_;
  std::vector<Event> stencilEvents, otherEvents;
  stencilEvents.reserve(steps);
  for (int s = 0; s < steps; ++s) {
    const Buffer<float>& prev = m.field[m.cur];
    const Buffer<float>& next = m.field[1 - m.cur];
    m.stencil.args(prev, next, m.vel, m.coef, m.gx, m.gy, m.gz, g.n1, g.n2, g.n3);
    if (m.chunkArg >= 0) m.stencil.setArg(10, m.chunkArg);
    stencilEvents.push_back(m.stencil.launch(m.ctx, m.stencilRange));
    if (m.source) {
      m.inject.args(next, int(m.source->index), m.source->valueForStep(step_));
      otherEvents.push_back(m.inject.launch(m.ctx, NDRange{1, {1, 1, 1}, {1, 1, 1}}));
    }
    if (m.receiverCount > 0) {
      if (m.traceRowsOnDevice == kTraceRowsPerFlush) m.flushTraces();
      m.record.args(next, m.receiverIndex, m.traceRows, m.receiverCount, m.traceRowsOnDevice);
      otherEvents.push_back(m.record.launch(m.ctx, NDRange{1, {std::size_t(m.receiverCount), 1, 1}, {0, 0, 0}}));
      ++m.traceRowsOnDevice;
    }
    m.cur = 1 - m.cur;
    ++step_;
  }
  m.ctx.finish();
  double stencil = 0.0, other = 0.0;
  for (const Event& e : stencilEvents) stencil += e.seconds();
  for (const Event& e : otherEvents) other += e.seconds();
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

void OpenClSolver::requestSlices(int i, int j, int k) {
  Impl& m = *impl_;
  const Grid& g = grid_;
  if (i < 0 || i >= g.n1 || j < 0 || j >= g.n2 || k < 0 || k >= g.n3)
    throw ComputeError(ComputeStatus::InvalidParameter,
                       "slice point (" + std::to_string(i) + ", " + std::to_string(j) + ", " + std::to_string(k) +
                           ") is outside the interior grid " + std::to_string(g.n1) + "x" + std::to_string(g.n2) +
                           "x" + std::to_string(g.n3));
  if (m.slicePending) m.sliceDone.wait();  // one request in flight: the host staging is reused
  m.slices.args(m.field[m.cur], m.sliceBuffer, g.n1, g.n2, g.n3, i, j, k);
  const std::size_t largest = std::max({std::size_t(g.n1) * g.n2, std::size_t(g.n1) * g.n3, std::size_t(g.n2) * g.n3});
  m.slices.launch(m.ctx, NDRange{1, {largest, 1, 1}, {0, 0, 0}});
  m.sliceHost.resize(m.sliceBuffer.size());
  m.sliceBuffer.read(m.ctx, m.sliceHost.data(), m.sliceHost.size(), 0, &m.sliceDone);
  checkCl(clFlush(m.ctx.queue()), "clFlush");
  m.pendingSlices = SliceSet{g.n1, g.n2, g.n3, i, j, k, step_, {}, {}, {}};
  m.slicePending = true;
}

bool OpenClSolver::slicesReady() const { return impl_->slicePending && impl_->sliceDone.complete(); }

void OpenClSolver::takeSlices(SliceSet& out) {
  Impl& m = *impl_;
  if (!m.slicePending)
    throw ComputeError(ComputeStatus::InvalidParameter, "takeSlices: no slice request is pending (call requestSlices)");
  m.sliceDone.wait();
  m.slicePending = false;
  out = m.pendingSlices;
  const std::size_t xy = std::size_t(out.n1) * out.n2, xz = std::size_t(out.n1) * out.n3;
  out.xy.assign(m.sliceHost.begin(), m.sliceHost.begin() + xy);
  out.xz.assign(m.sliceHost.begin() + xy, m.sliceHost.begin() + xy + xz);
  out.yz.assign(m.sliceHost.begin() + xy + xz, m.sliceHost.end());
}

void OpenClSolver::extractSlices(int i, int j, int k, SliceSet& out) {
  requestSlices(i, j, k);
  takeSlices(out);
}

void OpenClSolver::extractDecimatedVolume(int factor, std::vector<float>& out, int& m1, int& m2, int& m3) {
  if (factor < 1) throw ComputeError(ComputeStatus::InvalidParameter, "decimation factor must be >= 1");
  Impl& m = *impl_;
  const Grid& g = grid_;
  m1 = int(ceilDiv(g.n1, factor));
  m2 = int(ceilDiv(g.n2, factor));
  m3 = int(ceilDiv(g.n3, factor));
  const std::size_t count = std::size_t(m1) * m2 * m3;
  Buffer<float> dec(m.ctx, count, CL_MEM_WRITE_ONLY, "decimated volume");
  m.decimate.args(m.field[m.cur], dec, g.n1, g.n2, g.n3, factor, m1, m2, m3);
  m.decimate.launch(m.ctx, NDRange{3, {std::size_t(m1), std::size_t(m2), std::size_t(m3)}, {0, 0, 0}});
  out.resize(count);
  dec.read(m.ctx, out.data(), count);
}

std::vector<float> OpenClSolver::traces() {
  impl_->flushTraces();
  return impl_->traces;
}

std::size_t OpenClSolver::guardElements() const { return impl_->guard; }

std::vector<float> OpenClSolver::readRawBuffer(int which) {
  Impl& m = *impl_;
  if (which < 0 || which > 2) throw ComputeError(ComputeStatus::InvalidParameter, "readRawBuffer: which is 0, 1 or 2");
  const Buffer<float>& b = m.guard ? m.parents[which] : (which < 2 ? m.field[which] : m.vel);
  std::vector<float> out(b.size());
  b.read(m.ctx, out.data(), out.size());
  return out;
}

void OpenClSolver::buildForTest(const DeviceInfo& device, const std::string& source, const std::string& options) {
  ClContext ctx(device);
  Program p(ctx, {source, options, "test source"});
}

}  // namespace iso
