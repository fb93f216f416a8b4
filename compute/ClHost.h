#pragma once
// A small host API over the OpenCL C API so that a launch reads in one line:
//   Event e = kernel.args(prev, next, vel, n1, n2, n3).launch(queue, global, local);
// Every call's status is checked (ClError.h). Objects are move-only RAII handles.
#include <CL/cl.h>

#include <array>
#include <cstddef>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "compute/ClError.h"
#include "compute/DeviceRegistry.h"

namespace iso {

// Move-only owner of one OpenCL object, released with the matching clRelease* function.
template <class H, cl_int (*Release)(H)>
class ClHandle {
 public:
  ClHandle() = default;
  explicit ClHandle(H h) : h_(h) {}
  ClHandle(ClHandle&& o) noexcept : h_(std::exchange(o.h_, nullptr)) {}
  ClHandle& operator=(ClHandle&& o) noexcept {
    if (this != &o) {
      reset();
      h_ = std::exchange(o.h_, nullptr);
    }
    return *this;
  }
  ClHandle(const ClHandle&) = delete;
  ClHandle& operator=(const ClHandle&) = delete;
  ~ClHandle() { reset(); }
  void reset() {
    if (h_) Release(h_);  // a failing release in a destructor cannot be reported; nothing to do
    h_ = nullptr;
  }
  H get() const { return h_; }
  explicit operator bool() const { return h_ != nullptr; }

 private:
  H h_ = nullptr;
};

using ClContextHandle = ClHandle<cl_context, clReleaseContext>;
using ClQueueHandle = ClHandle<cl_command_queue, clReleaseCommandQueue>;
using ClMemHandle = ClHandle<cl_mem, clReleaseMemObject>;
using ClProgramHandle = ClHandle<cl_program, clReleaseProgram>;
using ClKernelHandle = ClHandle<cl_kernel, clReleaseKernel>;
using ClEventHandle = ClHandle<cl_event, clReleaseEvent>;

// A finished-or-pending command; seconds() waits for it and reads its profiling times.
class Event {
 public:
  Event() = default;
  explicit Event(cl_event e) : e_(e) {}
  void wait() const;
  bool complete() const;     // non-blocking query
  double seconds() const;    // end - start from profiling info (waits first)
  // When it ended, in the device's profiling clock (ns; the same clock for every queue of a device), or 0
  // where the driver keeps no profiling times for this kind of command (waits first).
  cl_ulong endNanos() const;
  cl_event get() const { return e_.get(); }
  explicit operator bool() const { return bool(e_); }

 private:
  ClEventHandle e_;
};

// One device, its context, the in-order queue (profiling enabled) that runs everything in order, and a
// second in-order queue for reads that must not hold the first one up (they wait on events of it).
class ClContext {
 public:
  explicit ClContext(const DeviceInfo& info);
  // Queues of its own over `shared`'s context (retained, so it outlives `shared`): work enqueued on them
  // uses the same device memory and runs beside `shared`'s queues, where a second context would take
  // turns with it on the device.
  static ClContext sharing(const ClContext& shared);
  const DeviceInfo& info() const { return info_; }
  cl_device_id device() const { return device_; }
  cl_context context() const { return context_.get(); }
  cl_command_queue queue() const { return queue_.get(); }
  cl_command_queue transferQueue() const { return transferQueue_.get(); }
  void finish() const;  // the first queue only
  // CL_DEVICE_MEM_BASE_ADDR_ALIGN in bytes (sub-buffer origins must be multiples of it).
  std::size_t baseAddressAlignBytes() const;

 private:
  ClContext() = default;
  void createQueues();
  DeviceInfo info_;
  cl_device_id device_ = nullptr;
  ClContextHandle context_;
  ClQueueHandle queue_, transferQueue_;
};

// A device buffer of `count` elements of T.
template <class T>
class Buffer {
 public:
  Buffer() = default;
  Buffer(const ClContext& ctx, std::size_t count, cl_mem_flags flags = CL_MEM_READ_WRITE,
         const std::string& what = "buffer")
      : count_(count) {
    cl_int err = CL_SUCCESS;
    cl_mem m = clCreateBuffer(ctx.context(), flags, bytes(), nullptr, &err);
    checkCl(err, "clCreateBuffer", what + ", " + std::to_string(bytes()) + " bytes");
    mem_ = ClMemHandle(m);
  }
  // A view of [offset, offset+count) of parent; offset*sizeof(T) must respect the device alignment.
  static Buffer subBuffer(const Buffer& parent, std::size_t offset, std::size_t count) {
    cl_buffer_region region{offset * sizeof(T), count * sizeof(T)};
    cl_int err = CL_SUCCESS;
    cl_mem m = clCreateSubBuffer(parent.get(), CL_MEM_READ_WRITE, CL_BUFFER_CREATE_TYPE_REGION, &region, &err);
    checkCl(err, "clCreateSubBuffer");
    Buffer b;
    b.mem_ = ClMemHandle(m);
    b.count_ = count;
    return b;
  }

  std::size_t size() const { return count_; }
  std::size_t bytes() const { return count_ * sizeof(T); }
  cl_mem get() const { return mem_.get(); }

  void write(const ClContext& ctx, const T* src, std::size_t n, std::size_t offset = 0) const {
    checkCl(clEnqueueWriteBuffer(ctx.queue(), get(), CL_TRUE, offset * sizeof(T), n * sizeof(T), src, 0,
                                 nullptr, nullptr),
            "clEnqueueWriteBuffer");
  }
  void write(const ClContext& ctx, const std::vector<T>& src) const { write(ctx, src.data(), src.size()); }
  // Blocking read, or non-blocking when `done` is given (dst must outlive the command).
  void read(const ClContext& ctx, T* dst, std::size_t n, std::size_t offset = 0, Event* done = nullptr) const {
    cl_event e = nullptr;
    checkCl(clEnqueueReadBuffer(ctx.queue(), get(), done ? CL_FALSE : CL_TRUE, offset * sizeof(T),
                                n * sizeof(T), dst, 0, nullptr, done ? &e : nullptr),
            "clEnqueueReadBuffer");
    if (done) *done = Event(e);
  }
  void fill(const ClContext& ctx, T value) const {
    checkCl(clEnqueueFillBuffer(ctx.queue(), get(), &value, sizeof(T), 0, bytes(), 0, nullptr, nullptr),
            "clEnqueueFillBuffer");
  }

 private:
  ClMemHandle mem_;
  std::size_t count_ = 0;
};

// Launch geometry: global and local sizes in up to three dimensions.
struct NDRange {
  cl_uint dims = 1;
  std::array<std::size_t, 3> global{1, 1, 1}, local{0, 0, 0};  // local 0 = let the driver choose
};

class Kernel {
 public:
  Kernel() = default;
  Kernel(cl_program program, const std::string& name);

  template <class... A>
  Kernel& args(const A&... a) {
    cl_uint i = 0;
    (setArg(i++, a), ...);
    return *this;
  }
  template <class T>
  void setArg(cl_uint index, const Buffer<T>& b) {
    cl_mem m = b.get();
    setRaw(index, sizeof(cl_mem), &m);
  }
  template <class T>
  void setArg(cl_uint index, const T& value) {
    static_assert(std::is_trivially_copyable_v<T>, "kernel arguments must be plain values or buffers");
    setRaw(index, sizeof(T), &value);
  }
  // Enqueues on the context's queue; the returned event carries the profiling times.
  Event launch(const ClContext& ctx, const NDRange& range) const;
  // CL_KERNEL_WORK_GROUP_SIZE for this kernel on the device (registers can lower it below the device max).
  std::size_t maxWorkGroupSize(const ClContext& ctx) const;
  const std::string& name() const { return name_; }
  explicit operator bool() const { return bool(kernel_); }

 private:
  void setRaw(cl_uint index, std::size_t size, const void* value);
  ClKernelHandle kernel_;
  std::string name_;
};

// Options for building a program.
struct BuildRequest {
  std::string source;   // full OpenCL C source
  std::string options;  // e.g. "-DTILE_X=32 -cl-mad-enable"
  std::string label;    // for messages, e.g. "gpu-slm"
  // NVIDIA only (their program binary is PTX): cap every kernel's registers per work-item with PTX's
  // .maxnreg directive, since the driver ignores -cl-nv-maxrregcount. 0 = the compiler's choice.
  int ptxMaxRegisters = 0;
};

// Inserts PTX's ".maxnreg registers" directive into every .entry of a PTX text (between its parameter
// list and performance directives and its body). Throws ComputeError when the text has no .entry.
std::string ptxWithMaxRegisters(std::string ptx, int registers);

class Program {
 public:
  Program() = default;
  // Builds for ctx's device, loading/saving the binary in the on-disk cache (KernelCache.h).
  // Throws ComputeError(BuildFailure) with the build log when the source does not compile.
  Program(const ClContext& ctx, const BuildRequest& request);
  Kernel kernel(const std::string& name) const { return Kernel(program_.get(), name); }
  bool fromCache() const { return fromCache_; }
  // The build log of the last build (e.g. NVIDIA's ptxas report with -cl-nv-verbose); empty from the cache.
  const std::string& log() const { return log_; }
  // The program binary (PTX text on NVIDIA).
  std::vector<unsigned char> binary() const;

 private:
  ClProgramHandle program_;
  bool fromCache_ = false;
  std::string log_;
};

}  // namespace iso
