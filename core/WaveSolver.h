#pragma once
// The one interface every stage implements (CPU and OpenCL), so that the CLI, the compute thread and
// the compare view drive any stage the same way.
#include <memory>
#include <cstdint>
#include <span>
#include <stdexcept>
#include <string>
#include <vector>

#include "core/Grid.h"
#include "core/PlaneRange.h"
#include "core/SliceSet.h"
#include "core/SlicePicture.h"
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

// Host memory for planes of a field, as fast to copy to and from the solver's device as it can be made
// (page-locked on OpenCL devices); `owner` keeps it alive.
struct HostPlanes {
  std::span<float> floats;
  std::shared_ptr<void> owner;
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

  // A maker of the 3D slice view's pictures on this solver's device, beside its steps (core/SlicePicture.h),
  // independent of the solver from then on (it may outlive it); null where the solver has none (the CPU
  // stages, whose pictures OpenGL draws as well as anything on their cores). Call on the solver's thread.
  virtual std::unique_ptr<PictureRenderer> makePictureRenderer() { return nullptr; }

  // Receiver samples since the start: traces()[n*R + r] = u at receiver r at time (n+1)·dt.
  virtual std::vector<float> traces() = 0;

  virtual SolverState saveState() = 0;
  // Continues from `state`, taken from a solver of the same problem (any stage). Throws
  // std::invalid_argument when its sizes do not fit this solver's grid and receivers.
  virtual void restoreState(const SolverState& state) = 0;

  // ---- As a slab of a grid cut along z (core/DecomposedSolver.h) ----
  // Planes are numbered as in grid(): interior planes 0 .. n3-1 and the R halo planes on each side,
  // -R .. -1 and n3 .. n3+R-1, which on a cut side hold the neighbour's planes (ghost planes). A step
  // is split so that the planes the neighbours read are computed first and copied out while the rest
  // is computed; the arithmetic of every cell is advance()'s:
  //   beginStep(first)    u^(n+1) on the interior planes `first` (stencil, absorbing layer, source);
  //   startPlaneRead      copies of those planes into host memory begin (waitPlaneRead(i): the i-th of
  //                       the step has landed);
  //   finishStep()        the other interior planes, then the receivers: u^(n+1) is the current field;
  //   startPlaneWrite     copies from host memory into planes of the current field (its ghost planes)
  //                       begin; the next step's computation waits for them;
  //   waitPlaneCopies()   every copy begun has completed and its host memory may be reused;
  //   synchronize()       every step begun has completed too (its time is known).
  // Stages that cannot run as a slab (runsAsSlab() false) throw std::logic_error from these calls.
  virtual bool runsAsSlab() const { return false; }
  virtual void beginStep(std::span<const PlaneRange> first) {
    (void)first;
    throw notASlab();
  }
  virtual void finishStep() { throw notASlab(); }
  // `count` planes from `plane` into out (count planes of grid().planeSize() floats, halo included).
  virtual void startPlaneRead(int plane, int count, std::span<float> out) {
    (void)plane, (void)count, (void)out;
    throw notASlab();
  }
  virtual void startPlaneWrite(int plane, int count, std::span<const float> in) {
    (void)plane, (void)count, (void)in;
    throw notASlab();
  }
  virtual void waitPlaneRead(int read) { (void)read; }
  virtual void waitPlaneCopies() {}
  // Returns when every step and copy begun has completed (a device's queues have drained).
  virtual void synchronize() {}
  // Memory for the planes that startPlaneRead and startPlaneWrite copy.
  virtual HostPlanes allocateHostPlanes(std::size_t floats) {
    auto memory = std::make_shared_for_overwrite<float[]>(floats);
    return {{memory.get(), floats}, memory};
  }
  // Host memory not allocated by allocateHostPlanes (the window the ranks of a host share) that the plane
  // copies will read and write every step: a device's driver may page-lock it while the solver lives, so
  // that they run at the link's speed. False where a device's driver did not (they still work, at
  // pageable memory's speed); a solver in host memory copies any memory alike (true).
  virtual bool lockHostMemory(std::span<float> memory) {
    (void)memory;
    return true;
  }
  // Lets go of what lockHostMemory(memory) locked, the same span, before that memory is freed (nothing
  // where nothing was locked). The copies into it then run at pageable memory's speed again.
  virtual void unlockHostMemory(std::span<float> memory) { (void)memory; }

 private:
  std::logic_error notASlab() const { return std::logic_error("stage '" + stage() + "' cannot run as a slab of a decomposed grid"); }
};

}  // namespace iso
