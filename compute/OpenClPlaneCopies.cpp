#include "compute/OpenClPlaneCopies.h"

#include <algorithm>
#include <memory>
#include <string>

namespace iso {

namespace {
ClQueueHandle profiledQueue(const ClContext& ctx, const std::string& what) {
  cl_int err = CL_SUCCESS;
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wdeprecated-declarations"
  ClQueueHandle queue(clCreateCommandQueue(ctx.context(), ctx.device(), CL_QUEUE_PROFILING_ENABLE, &err));
#pragma GCC diagnostic pop
  checkCl(err, "clCreateCommandQueue", ctx.info().name + " (" + what + ")");
  return queue;
}
}  // namespace

OpenClPlaneCopies::OpenClPlaneCopies(const ClContext& ctx)
    : reads_(profiledQueue(ctx, "plane reads")), writes_(profiledQueue(ctx, "plane writes")) {}

void OpenClPlaneCopies::startRead(cl_mem from, std::size_t offset, std::size_t bytes, void* out, const Event& after) {
  const cl_event wait = after.get();
  cl_event e = nullptr;
  checkCl(clEnqueueReadBuffer(reads_.get(), from, CL_FALSE, offset, bytes, out, wait ? 1 : 0, wait ? &wait : nullptr, &e),
          "clEnqueueReadBuffer", "reading a slab's planes");
  stepReads_.push_back(pending_.size());
  pending_.emplace_back(e);
  bytes_ += bytes;
  checkCl(clFlush(reads_.get()), "clFlush", "submitting a slab's plane reads");
}

void OpenClPlaneCopies::waitRead(int i) const {
  if (i < 0 || std::size_t(i) >= stepReads_.size())
    throw ComputeError(ComputeStatus::InvalidParameter, "waitPlaneRead: the step has no read " + std::to_string(i));
  pending_[stepReads_[std::size_t(i)]].wait();
}

void OpenClPlaneCopies::startWrite(cl_mem to, std::size_t offset, std::size_t bytes, const void* in) {
  cl_event e = nullptr;
  checkCl(clEnqueueWriteBuffer(writes_.get(), to, CL_FALSE, offset, bytes, in, 0, nullptr, &e),
          "clEnqueueWriteBuffer", "writing a slab's ghost planes");
  if (!stepEnds_.empty()) stepEnds_.back().writes.push_back(pending_.size());
  pending_.emplace_back(e);
  unwaitedWrites_.push_back(e);
  bytes_ += bytes;
  checkCl(clFlush(writes_.get()), "clFlush", "submitting a slab's plane writes");
}

void OpenClPlaneCopies::makeWaitForWrites(cl_command_queue queue) {
  if (unwaitedWrites_.empty()) return;
  checkCl(clEnqueueBarrierWithWaitList(queue, cl_uint(unwaitedWrites_.size()), unwaitedWrites_.data(), nullptr),
          "clEnqueueBarrierWithWaitList", "waiting for a slab's ghost planes");
  unwaitedWrites_.clear();
}

void OpenClPlaneCopies::markStepComputed(cl_command_queue queue) {
  cl_event marker = nullptr;
  checkCl(clEnqueueMarkerWithWaitList(queue, 0, nullptr, &marker), "clEnqueueMarkerWithWaitList",
          "timing a slab's step against its ghost planes");
  stepEnds_.push_back({Event(marker), {}});
}

void OpenClPlaneCopies::waitAll() {
  for (const Event& e : pending_) seconds_ += e.seconds();  // waits for each
  for (StepEnd& step : stepEnds_) {
    for (std::size_t w : step.writes) step.written = std::max(step.written, pending_[w].endNanos());
    step.writes.clear();
    settling_.push_back(std::move(step));
  }
  stepEnds_.clear();
  pending_.clear();
  stepReads_.clear();
  unwaitedWrites_.clear();  // complete: nothing to wait for any more
  settleCompleted(false);
}

void OpenClPlaneCopies::settle() { settleCompleted(true); }

void OpenClPlaneCopies::settleCompleted(bool wait) {
  std::erase_if(settling_, [&](const StepEnd& step) {
    if (!wait && !step.computed.complete()) return false;
    const cl_ulong computed = step.computed.endNanos();
    if (computed > 0 && step.written > computed) waited_ += double(step.written - computed) * 1e-9;
    return true;
  });
}

HostPlanes allocatePageLocked(const ClContext& ctx, std::size_t floats) {
  const std::size_t bytes = floats * sizeof(float);
  cl_int err = CL_SUCCESS;
  cl_mem buffer = clCreateBuffer(ctx.context(), CL_MEM_ALLOC_HOST_PTR | CL_MEM_READ_WRITE, bytes, nullptr, &err);
  checkCl(err, "clCreateBuffer", "page-locked host memory for a slab's planes, " + std::to_string(bytes) + " bytes");
  auto owned = std::make_shared<ClMemHandle>(buffer);
  void* mapped = clEnqueueMapBuffer(ctx.queue(), buffer, CL_TRUE, CL_MAP_READ | CL_MAP_WRITE, 0, bytes, 0, nullptr,
                                    nullptr, &err);
  checkCl(err, "clEnqueueMapBuffer", "mapping a slab's host memory");
  // The mapping ends with the memory (unmapped through the solver's queue, which is retained for it).
  cl_command_queue queue = ctx.queue();
  checkCl(clRetainCommandQueue(queue), "clRetainCommandQueue");
  std::shared_ptr<void> owner(mapped, [queue, owned](void* p) {
    // Nothing to report from a destructor; a failed unmap leaves the buffer to the context's release.
    if (clEnqueueUnmapMemObject(queue, owned->get(), p, 0, nullptr, nullptr) == CL_SUCCESS) clFinish(queue);
    clReleaseCommandQueue(queue);
  });
  return {{static_cast<float*>(mapped), floats}, owner};
}

}  // namespace iso
