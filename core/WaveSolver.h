#pragma once
// The one interface every stage implements (CPU and OpenCL), so that the CLI, the compute thread and
// the compare view drive any stage the same way.
#include <cstdint>
#include <span>
#include <stdexcept>
#include <string>
#include <vector>

#include "core/Grid.h"
#include "core/SliceSet.h"
#include "core/StageRegistry.h"

namespace iso {

struct VolumeView;  // core/VolumeView.h

// Everything a run continues from bit for bit (the rest is rebuilt from its scenario): u^n and u^(n−1)
// on the padded grid, halo included, the step n, the receiver samples recorded so far and the absorbing
// layer's memory variables.
struct SolverState {
  long step = 0;
  std::vector<float> current, previous;  // Grid::paddedSize() floats each
  std::vector<float> traces;             // WaveSolver::traces()'s layout
  std::vector<float> boundaryMemory;     // PmlProfile::memoryFloats() (empty without the absorbing layer)
};

class WaveSolver {
 public:
  virtual ~WaveSolver() = default;

  virtual std::string stage() const = 0;       // the StageRegistry id, e.g. "gpu-slm"
  virtual std::string deviceName() const = 0;  // human-readable device that runs the stage
  virtual const Grid& grid() const = 0;
  // The stage parameters it runs with, every default and tuning resolved (none for a stage without).
  virtual StageParamMap parameters() const { return {}; }

  // Advances `steps` time steps (source injection, damping and receivers included) and returns the
  // compute time in seconds: OpenCL profiling events on devices, steady_clock on the CPU.
  virtual double advance(int steps) = 0;
  virtual long currentStep() const = 0;  // n, so that the current field is u^n at t = n·dt

  // The current field u^n, interior only, C order (n3, n2, n1) — whatever the ping-pong parity.
  virtual void readField(std::vector<float>& interior) = 0;

  // The three orthogonal interior planes through interior cell (i, j, k) of u^n, in memory of `out`'s own
  // (SliceSet::ownPlanes: its memory again when it has the size), with their sizes, cell and step.
  // Throws as startSlices does (`out` is then unspecified).
  void extractSlices(int i, int j, int k, SliceSet& out) {
    const Grid& g = grid();
    out.n1 = g.n1, out.n2 = g.n2, out.n3 = g.n3;
    out.i = i, out.j = j, out.k = k;
    out.step = currentStep();
    startSlices(i, j, k, {out.ownPlanes(), out.planeFloats()});
    finishSlices();
  }

  // The same planes into caller memory, one after the other as SliceSet lays them out (xy, xz, yz:
  // SliceSet::planeFloats of the grid, at most planes.size()). True when they are written on return (CPU
  // stages); false when they are on their way (OpenCL stages read their slice buffer through a second
  // queue, so that the next advance() runs while the planes cross to the host), complete when
  // finishSlices() returns; the memory must stay valid and unread until then. Throws when the cell is
  // outside the interior or the memory too small.
  virtual bool startSlices(int i, int j, int k, std::span<float> planes) = 0;
  virtual void finishSlices() {}

  // An image of the whole field u^n, ray-marched where the field lies (core/VolumeView.h says what it
  // shows), into caller memory: view.width × view.height RGBA8 pixels, premultiplied alpha, red in the
  // low byte, rows top to bottom. As startSlices: true when written on return (CPU stages, on their own
  // threads), false when on its way (OpenCL stages render on their device and read the image through the
  // second queue), complete when finishSlices() returns; `*seconds`, if given, then holds the renderer's
  // time (profiling events on devices). Throws std::invalid_argument for a view that cannot be rendered
  // or too little memory; a solver without a renderer throws std::logic_error.
  virtual bool startVolume(const VolumeView& view, std::span<std::uint32_t> rgba, double* seconds) {
    (void)view, (void)rgba, (void)seconds;
    throw std::logic_error("stage '" + stage() + "' cannot render the volume");
  }

  // Receiver samples since the start: traces()[n*R + r] = u at receiver r at time (n+1)·dt.
  virtual std::vector<float> traces() = 0;

  virtual SolverState saveState() = 0;
  // Continues from `state`, taken from a solver of the same problem (any stage). Throws
  // std::invalid_argument when its sizes do not fit this solver's grid and receivers.
  virtual void restoreState(const SolverState& state) = 0;
};

}  // namespace iso
