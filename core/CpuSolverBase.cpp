#include "core/CpuSolverBase.h"

#include <algorithm>
#include <chrono>
#include <stdexcept>
#include <string>
#include <utility>

#include "core/Allocation.h"
#include "core/FlushDenormals.h"

namespace iso {

namespace {
void requireSize(const char* what, std::size_t actual, std::size_t expected) {
  if (actual != expected)
    throw std::invalid_argument(std::string("CPU solver: ") + what + " has " + std::to_string(actual) +
                                " elements, the grid needs " + std::to_string(expected));
}
}  // namespace

CpuSolverBase::CpuSolverBase(Problem problem) : problem_(std::move(problem)) {
  const Grid& g = problem_.grid;
  if (g.n1 < 1 || g.n2 < 1 || g.n3 < 1)
    throw std::invalid_argument("CPU solver: interior sizes must be >= 1 (got " + std::to_string(g.n1) + "x" +
                                std::to_string(g.n2) + "x" + std::to_string(g.n3) + ")");
  const std::size_t padded = g.paddedSize();
  requireSize("the velocity array", problem_.vel.size(), padded);
  if (!problem_.initialPrev.empty()) requireSize("the initial field", problem_.initialPrev.size(), padded);
  if (problem_.damping.enabled()) {
    requireSize("the damping profile gx", problem_.damping.gx.size(), std::size_t(g.nx()));
    requireSize("the damping profile gy", problem_.damping.gy.size(), std::size_t(g.ny()));
    requireSize("the damping profile gz", problem_.damping.gz.size(), std::size_t(g.nz()));
  }
  if (problem_.source && problem_.source->index >= padded)
    throw std::invalid_argument("CPU solver: source index " + std::to_string(problem_.source->index) +
                                " is outside the padded grid of " + std::to_string(padded) + " cells");
  for (std::size_t r : problem_.receivers)
    if (r >= padded)
      throw std::invalid_argument("CPU solver: receiver index " + std::to_string(r) +
                                  " is outside the padded grid of " + std::to_string(padded) + " cells");

  // One Problem array freed before the next solver array is allocated: never more than three at a time.
  const std::size_t bytes = padded * sizeof(float);
  withAllocationContext("the CPU solver's velocity array", bytes,
                        [&] { vel_.assign(problem_.vel.begin(), problem_.vel.end()); });
  std::vector<float>().swap(problem_.vel);  // frees it (assigning {} would keep the capacity)
  withAllocationContext("the CPU solver's field u^n", bytes, [&] {
    if (problem_.initialPrev.empty())
      prev_.assign(padded, 0.0f);
    else
      prev_.assign(problem_.initialPrev.begin(), problem_.initialPrev.end());
  });
  std::vector<float>().swap(problem_.initialPrev);
  // u^-1 = 0, as in the reference.
  withAllocationContext("the CPU solver's field u^(n+1)", bytes, [&] { next_.assign(padded, 0.0f); });
  if (problem_.pml.enabled()) pml_.emplace(g, problem_.pml);
}

double CpuSolverBase::advance(int steps) {
  if (steps < 0) throw std::invalid_argument("advance: steps must be >= 0 (got " + std::to_string(steps) + ")");
  const auto& receivers = problem_.receivers;
  traces_.reserve(traces_.size() + std::size_t(steps) * receivers.size());
  if (inStep_) throw std::logic_error("advance: a slab's step is under way (finishStep first)");
  const FlushDenormals flush;  // this thread's share of the steps (core/FlushDenormals.h says why)
  const auto start = std::chrono::steady_clock::now();
  for (int s = 0; s < steps; ++s) {
    psiAdvanced_ = false;
    computePlanes({0, problem_.grid.n3});
    finishLevel();
  }
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

void CpuSolverBase::computePlanes(PlaneRange planes) {
  // ψ^n reads only u^n, complete before a step begins (a slab's ghost planes included), so the whole
  // pass runs once, before the first planes; each cell's correction then reads only u^n, ψ^n and its own
  // ζ, so planes computed in any ranges get the bits of the whole grid at once.
  if (pml_ && !psiAdvanced_) {
    const PsiPass pass = psiPass(planes);
    pml_->advancePsi(prev_.data(), [this](int count, const std::function<void(int, int)>& body) { runRanges(count, body); },
                     !pass.x, pass.across);
    psiAdvanced_ = true;
  }
  computeStencil(planes.begin + kHalfLength, planes.end + kHalfLength);  // with the layer's corrections
  const auto& source = problem_.source;
  if (source && planes.contains(int(source->index / problem_.grid.planeSize()) - kHalfLength))
    next_[source->index] += source->valueForStep(step_);
}

void CpuSolverBase::finishLevel() {
  for (std::size_t r : problem_.receivers) traces_.push_back(next_[r]);
  std::swap(prev_, next_);  // prev_ is now u^(n+1): the current field is always prev_
  ++step_;
}

void CpuSolverBase::beginStep(std::span<const PlaneRange> first) {
  if (inStep_) throw std::logic_error("beginStep: the previous step is not finished");
  const int n3 = problem_.grid.n3;
  for (std::size_t r = 0; r < first.size(); ++r)
    if (first[r].begin < 0 || first[r].end > n3 || first[r].empty() || (r > 0 && first[r].begin < first[r - 1].end))
      throw std::out_of_range("beginStep: plane ranges must be ascending, disjoint and inside the " +
                              std::to_string(n3) + " interior planes");
  const FlushDenormals flush;
  begun_.assign(first.begin(), first.end());
  psiAdvanced_ = false;
  inStep_ = true;
  for (const PlaneRange& planes : begun_) computePlanes(planes);
}

void CpuSolverBase::finishStep() {
  if (!inStep_) throw std::logic_error("finishStep: no step was begun");
  const FlushDenormals flush;
  int k = 0;
  for (const PlaneRange& done : begun_) {  // the planes between the ranges beginStep computed
    if (done.begin > k) computePlanes({k, done.begin});
    k = done.end;
  }
  if (k < problem_.grid.n3) computePlanes({k, problem_.grid.n3});
  finishLevel();
  inStep_ = false;
}

std::span<float> CpuSolverBase::planesOf(FieldArray& field, int plane, int count) {
  const Grid& g = problem_.grid;
  if (count < 0 || plane < -kHalfLength || plane + count > g.n3 + kHalfLength)
    throw std::out_of_range("planes [" + std::to_string(plane) + ", " + std::to_string(plane + count) +
                            ") are outside the padded grid's planes [" + std::to_string(-kHalfLength) + ", " +
                            std::to_string(g.n3 + kHalfLength) + ")");
  return {field.data() + std::size_t(plane + kHalfLength) * g.planeSize(), std::size_t(count) * g.planeSize()};
}

void CpuSolverBase::startPlaneRead(int plane, int count, std::span<float> out) {
  if (!inStep_) throw std::logic_error("startPlaneRead: the planes of u^(n+1) are read between beginStep and finishStep");
  const std::span<float> from = planesOf(next_, plane, count);
  if (out.size() < from.size()) throw std::out_of_range("startPlaneRead: the memory is too small for the planes");
  std::copy(from.begin(), from.end(), out.begin());
}

void CpuSolverBase::startPlaneWrite(int plane, int count, std::span<const float> in) {
  if (inStep_) throw std::logic_error("startPlaneWrite: planes of the current field are written after finishStep");
  const std::span<float> to = planesOf(prev_, plane, count);
  if (in.size() < to.size()) throw std::out_of_range("startPlaneWrite: the memory holds fewer floats than the planes");
  std::copy_n(in.begin(), to.size(), to.begin());
}

SolverState CpuSolverBase::saveState() {
  // After the role swap in advance(), prev_ holds u^n and next_ u^(n−1).
  SolverState state;
  state.step = step_;
  state.current.assign(prev_.begin(), prev_.end());
  state.previous.assign(next_.begin(), next_.end());
  state.traces = traces_;
  if (pml_) state.boundaryMemory = pml_->save();
  return state;
}

void CpuSolverBase::restoreState(const SolverState& state) {
  const std::size_t padded = problem_.grid.paddedSize();
  requireSize("the saved field u^n", state.current.size(), padded);
  requireSize("the saved field u^(n-1)", state.previous.size(), padded);
  requireSize("the saved traces", state.traces.size(), std::size_t(state.step) * problem_.receivers.size());
  requireSize("the saved absorbing-layer memory", state.boundaryMemory.size(), problem_.pml.memoryFloats());
  std::copy(state.current.begin(), state.current.end(), prev_.begin());
  std::copy(state.previous.begin(), state.previous.end(), next_.begin());
  if (pml_) pml_->restore(state.boundaryMemory);
  traces_ = state.traces;
  step_ = state.step;
}

void CpuSolverBase::readField(std::vector<float>& interior) {
  const Grid& g = problem_.grid;
  interior.resize(g.interiorSize());
  float* out = interior.data();
  for (int k = 0; k < g.n3; ++k)
    for (int j = 0; j < g.n2; ++j) {
      const float* row = prev_.data() + g.interiorIndex(0, j, k);
      out = std::copy(row, row + g.n1, out);
    }
}

bool CpuSolverBase::startSlices(int i, int j, int k, std::span<float> planes) {
  const Grid& g = problem_.grid;
  if (i < 0 || i >= g.n1 || j < 0 || j >= g.n2 || k < 0 || k >= g.n3)
    throw std::out_of_range("slice point (" + std::to_string(i) + ", " + std::to_string(j) + ", " +
                            std::to_string(k) + ") is outside the interior " + std::to_string(g.n1) + "x" +
                            std::to_string(g.n2) + "x" + std::to_string(g.n3));
  if (planes.size() < SliceSet::planeFloats(g.n1, g.n2, g.n3))
    throw std::out_of_range(std::to_string(planes.size()) + " floats cannot hold the slices of " +
                            std::to_string(g.n1) + "x" + std::to_string(g.n2) + "x" + std::to_string(g.n3));
  float* xy = planes.data();
  float* xz = xy + std::size_t(g.n1) * g.n2;
  float* yz = xz + std::size_t(g.n1) * g.n3;
  const float* u = prev_.data();
  for (int jj = 0; jj < g.n2; ++jj)
    for (int ii = 0; ii < g.n1; ++ii) xy[std::size_t(jj) * g.n1 + ii] = u[g.interiorIndex(ii, jj, k)];
  for (int kk = 0; kk < g.n3; ++kk)
    for (int ii = 0; ii < g.n1; ++ii) xz[std::size_t(kk) * g.n1 + ii] = u[g.interiorIndex(ii, j, kk)];
  for (int kk = 0; kk < g.n3; ++kk)
    for (int jj = 0; jj < g.n2; ++jj) yz[std::size_t(kk) * g.n2 + jj] = u[g.interiorIndex(i, jj, kk)];
  return true;
}

bool CpuSolverBase::startVolume(const VolumeView& view, std::span<std::uint32_t> rgba, double* seconds) {
  const double took = volume_.render(view, problem_.grid, prev_.data(), vel_.data(), rgba,
                                     [this](int count, const std::function<void(int, int)>& body) { runRanges(count, body); });
  if (seconds) *seconds = took;
  return true;
}

}  // namespace iso
