#pragma once
// The copies of an OpenCL slab's planes (WaveSolver's slab calls, core/DecomposedSolver.h): two profiled
// queues of their own beside the solver's, one for reads and one for writes, so that they run while its
// kernels compute the rest of a step and a neighbour's planes come in while its own still go out (a GPU
// copies each way on an engine of its own), and page-locked host memory, which the device copies at the
// link's full speed (and which other devices' drivers of the same platform may copy from directly).
#include <CL/cl.h>

#include <cstddef>
#include <vector>

#include "compute/ClHost.h"
#include "core/WaveSolver.h"

namespace iso {

class OpenClPlaneCopies {
 public:
  explicit OpenClPlaneCopies(const ClContext& ctx);

  // A step begins: its reads are numbered from 0 again (waitRead).
  void beginStep() { stepReads_.clear(); }
  // Starts reading bytes [offset, offset + bytes) of `from` into `out` once `after` has completed.
  void startRead(cl_mem from, std::size_t offset, std::size_t bytes, void* out, const Event& after);
  // Starts writing `in` into bytes [offset, offset + bytes) of `to`.
  void startWrite(cl_mem to, std::size_t offset, std::size_t bytes, const void* in);
  // Makes `queue` wait (a barrier) for the writes begun since the last call: the next step reads them.
  void makeWaitForWrites(cl_command_queue queue);
  // The solver has enqueued a step's last kernel on `queue` (on this device): a marker times when they
  // are done, against the ghost planes written after it (waitedSeconds).
  void markStepComputed(cl_command_queue queue);
  // Returns when the i-th read of the step has landed.
  void waitRead(int i) const;
  // Returns when every copy begun has completed; their profiled time joins seconds(). (It does not wait
  // for the solver's queue: a step's wait is counted once its marker has passed, at a later call or at
  // settle().)
  void waitAll();
  // Counts the wait of every step whose copies have completed (its marker waited for): after the solver's
  // queue has finished.
  void settle();
  double seconds() const { return seconds_; }  // of the copies completed so far
  // How long, over the steps whose copies have completed, the device had finished a step's kernels while
  // the next step's ghost planes were still being written (the writes' ends against the step's marker):
  // the part of the exchange that computation did not hide.
  double waitedSeconds() const { return waited_; }
  std::size_t bytes() const { return bytes_; }  // copied so far

 private:
  ClQueueHandle reads_, writes_;
  std::vector<Event> pending_;        // every copy not yet waited for
  std::vector<std::size_t> stepReads_;  // the step's reads, as indices into pending_
  std::vector<cl_event> unwaitedWrites_;  // writes the solver's queue has not been made to wait for (in pending_)
  struct StepEnd {
    Event computed;                    // the marker after the step's kernels
    std::vector<std::size_t> writes;   // the ghost planes written after it, as indices into pending_
    cl_ulong written = 0;              // when the last of them ended, once they have
  };
  std::vector<StepEnd> stepEnds_;      // since the last waitAll
  std::vector<StepEnd> settling_;      // their writes done, their markers perhaps not yet
  void settleCompleted(bool wait);
  double seconds_ = 0.0, waited_ = 0.0;
  std::size_t bytes_ = 0;
};

// `floats` of host memory mapped from a buffer of `ctx` allocated with CL_MEM_ALLOC_HOST_PTR (page-locked
// by its driver), unmapped through ctx's queue when the last owner lets go.
HostPlanes allocatePageLocked(const ClContext& ctx, std::size_t floats);

}  // namespace iso
