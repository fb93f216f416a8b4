#pragma once
// A WaveSolver made of slabs (core/SlabDecomposition.h): the grid is cut along z and every slab is an
// ordinary solver of any stage and device, built from its own Problem, in this process or on another
// MPI rank (core/Communicator.h). The decomposition knows nothing of stencils: it steps the slabs and
// moves R planes across every cut after each step, hidden behind computation:
//   1. every slab computes the planes next to its cuts (WaveSolver::beginStep) and starts copying them
//      into host memory (page-locked on OpenCL devices);
//   2. every slab computes the rest of its planes (finishStep), queued behind them on its device;
//   3. piece by piece, as soon as a copy has landed, it goes to the neighbour (the neighbour's copy in
//      from this process's memory; between ranks of one host, through a shared-memory window that the
//      devices copy into and out of directly, page-locked, and a signal; else MPI_Isend/MPI_Irecv) and
//      into the neighbour's ghost planes,
//      while the devices are still busy with step 2; the next step waits only for those planes.
// The arithmetic of every cell is the slab solver's, which is the whole grid's solver's: a decomposed
// run gives the bits of a run of the same stage on one device (tests/core/test_decomposition.cpp,
// tests/cli/test_decomposition_cli.cpp). Reading out (field, traces, slices, state) gathers the slabs'
// pieces; with ranks, those calls are collective and give the whole on every rank, so that callers need
// not know about ranks (a rank holds the whole grid's read-out while it keeps it).
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "core/Communicator.h"
#include "core/Problem.h"
#include "core/SlabDecomposition.h"
#include "core/WaveSolver.h"

namespace iso {

class DecomposedSolver final : public WaveSolver {
 public:
  using SlabBuilder = std::function<std::unique_ptr<WaveSolver>(Problem problem, int slab)>;

  // Cuts `global` into `slabs` (cutAlongZ); slab s runs on rank owners[s] (all 0 without ranks; every
  // rank runs at least one), and this process builds its own with build(slabProblem(global, slab), s),
  // one after the other, so that the host holds at most one slab's arrays beside the global problem's.
  // Every rank fails together when one cannot build its slabs (onEveryRank: RanksFailed on every rank).
  // Throws std::invalid_argument for slabs that do not cut the grid or a slab that cannot run as one.
  DecomposedSolver(Problem global, std::vector<Slab> slabs, std::vector<int> owners,
                   std::shared_ptr<Communicator> ranks, const SlabBuilder& build);
  ~DecomposedSolver() override;

  std::string stage() const override { return stage_; }
  // "2 × pocl-cpu" style: the devices of every slab (gathered from the ranks).
  std::string deviceName() const override;
  const Grid& grid() const override { return grid_; }
  // Its slabs' (each runs the stage's parameters resolved for the whole grid): this process's first one's.
  StageParamMap parameters() const override;
  // Wall-clock seconds of the steps, exchange included. Not collective (callers may cut a count of
  // steps differently on each rank): the exchange of every step keeps the ranks within a step of each
  // other, so each rank's time is the run's.
  double advance(int steps) override;
  long currentStep() const override { return step_; }
  void readField(std::vector<float>& interior) override;   // gathered from the slabs (and ranks)
  bool startSlices(int i, int j, int k, std::span<float> planes) override;
  void finishSlices() override;                             // gathers into the memory given to startSlices
  std::vector<float> traces() override;                     // gathered
  SolverState saveState() override;                         // gathered
  void restoreState(const SolverState& state) override;     // every rank passes the whole state

  // The decomposition, for reports: one line per slab ("slab 1: planes 64-127 (64), rank 1, <device>").
  std::vector<std::string> layout() const;
  const std::vector<Slab>& slabs() const { return slabs_; }
  // This process's slab solvers, in slab order (their own counters, parameters).
  std::vector<WaveSolver*> localSlabs() const;
  int ranks() const { return ranks_ ? ranks_->size() : 1; }
  // How halos move between this rank and the others, for reports ("halos through shared memory (one
  // host)", "halos as messages"); empty without ranks.
  std::string rankHalos() const;
  bool isLocal(int slab) const;  // whether this process runs slab `slab`

 private:
  struct Local;  // a slab of this process with its host memory for the planes it exchanges

  void buildSlabs(Problem global, const SlabBuilder& build);
  bool facesRank(int slab, int side) const;  // whether the neighbour on that side is another rank's
  void shareHalos();     // collective: the window of the ranks of this host (Communicator::shareHostMemory)
  void allocateHalos();  // page-locked host memory for the halos that do not go through it
  void step();
  void exchange();
  void sendPiece(Local& l, int side, int piece);
  void receivePiece(Local& l, int side, int piece, int handle);
  // Where side `side` of slab `slab` starts in rank `rank`'s part of the window (the floats of that
  // rank's halos before it); slab = the slab count gives the part's size.
  std::size_t windowFloatsBefore(int rank, int slab, int side) const;
  // A piece of the planes that `slab` sends across `side` this step, in its owner's part of the window.
  std::span<float> sharedPiece(int slab, int side, int piece) const;
  // The window's pages that slab l's copies touch (its rank's part and its neighbours'), to lock.
  std::span<float> windowOf(const Local& l) const;
  // take(slab) on this process's slabs; every slab's result in slab order, on every rank.
  std::vector<std::vector<float>> gather(const std::function<std::vector<float>(Local&)>& take);
  std::span<float> pieceOf(const HostPlanes& planes, int piece) const;  // a piece of a halo's planes
  Local& local(int slab);

  Grid grid_;
  std::string stage_;
  std::vector<Slab> slabs_;
  std::vector<int> owners_;
  std::shared_ptr<Communicator> ranks_;
  std::vector<std::vector<std::size_t>> receivers_;  // per slab, its receivers' global indices
  std::size_t receiverCount_ = 0;
  PmlProfile pml_;                                   // the whole grid's layer (state assembly)
  std::vector<std::string> devices_;                 // per slab
  // The ranks of this host's window, if they share one (declared before the slabs, which lock its pages,
  // so that it outlives them).
  std::unique_ptr<Communicator::SharedMemory> shared_;
  bool windowLocked_ = true;  // every slab's device locked the window's pages (lockHostMemory)
  std::vector<std::unique_ptr<Local>> local_;
  long step_ = 0;
  struct PendingSlices {
    int i = 0, j = 0, k = 0;
    std::span<float> out;
  };
  std::optional<PendingSlices> slices_;
};

}  // namespace iso
