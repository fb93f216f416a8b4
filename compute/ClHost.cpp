#include "compute/ClHost.h"

#include <algorithm>

#include "compute/KernelCache.h"

namespace iso {

// ---- Event ----

void Event::wait() const {
  cl_event e = e_.get();
  checkCl(clWaitForEvents(1, &e), "clWaitForEvents");
}

bool Event::complete() const {
  cl_int state = CL_QUEUED;
  checkCl(clGetEventInfo(e_.get(), CL_EVENT_COMMAND_EXECUTION_STATUS, sizeof state, &state, nullptr),
          "clGetEventInfo");
  if (state < 0) checkCl(state, "command execution", "a queued command failed");
  return state == CL_COMPLETE;
}

double Event::seconds() const {
  wait();
  cl_ulong start = 0, end = 0;
  checkCl(clGetEventProfilingInfo(e_.get(), CL_PROFILING_COMMAND_START, sizeof start, &start, nullptr),
          "clGetEventProfilingInfo");
  checkCl(clGetEventProfilingInfo(e_.get(), CL_PROFILING_COMMAND_END, sizeof end, &end, nullptr),
          "clGetEventProfilingInfo");
  return end > start ? double(end - start) * 1e-9 : 0.0;
}

cl_ulong Event::endNanos() const {
  wait();
  cl_ulong end = 0;
  const cl_int err = clGetEventProfilingInfo(e_.get(), CL_PROFILING_COMMAND_END, sizeof end, &end, nullptr);
  if (err == CL_PROFILING_INFO_NOT_AVAILABLE) return 0;
  checkCl(err, "clGetEventProfilingInfo");
  return end;
}

// ---- ClContext ----

namespace {
cl_device_id deviceIdOf(const DeviceInfo& info) {
  cl_uint np = 0;
  checkCl(clGetPlatformIDs(0, nullptr, &np), "clGetPlatformIDs");
  std::vector<cl_platform_id> platforms(np);
  checkCl(clGetPlatformIDs(np, platforms.data(), nullptr), "clGetPlatformIDs");
  if (info.platformIndex < 0 || cl_uint(info.platformIndex) >= np)
    throw ComputeError(ComputeStatus::NoDevice, "OpenCL platform " + std::to_string(info.platformIndex) +
                                                    " no longer exists (" + std::to_string(np) + " platforms)");
  cl_uint nd = 0;
  checkCl(clGetDeviceIDs(platforms[info.platformIndex], CL_DEVICE_TYPE_ALL, 0, nullptr, &nd), "clGetDeviceIDs");
  std::vector<cl_device_id> devices(nd);
  checkCl(clGetDeviceIDs(platforms[info.platformIndex], CL_DEVICE_TYPE_ALL, nd, devices.data(), nullptr),
          "clGetDeviceIDs");
  if (info.deviceIndex < 0 || cl_uint(info.deviceIndex) >= nd)
    throw ComputeError(ComputeStatus::NoDevice, "OpenCL device " + info.selector() + " no longer exists");
  return devices[info.deviceIndex];
}
}  // namespace

ClContext::ClContext(const DeviceInfo& info) : info_(info), device_(deviceIdOf(info)) {
  cl_int err = CL_SUCCESS;
  context_ = ClContextHandle(clCreateContext(nullptr, 1, &device_, nullptr, nullptr, &err));
  checkCl(err, "clCreateContext", info.name);
  createQueues();
}

ClContext ClContext::sharing(const ClContext& shared) {
  ClContext c;
  c.info_ = shared.info_;
  c.device_ = shared.device_;
  checkCl(clRetainContext(shared.context()), "clRetainContext", shared.info_.name);
  c.context_ = ClContextHandle(shared.context());
  c.createQueues();
  return c;
}

void ClContext::createQueues() {
  cl_int err = CL_SUCCESS;
  // clCreateCommandQueue is deprecated in 2.0 but is the 1.2 entry point this project targets.
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wdeprecated-declarations"
  queue_ = ClQueueHandle(clCreateCommandQueue(context_.get(), device_, CL_QUEUE_PROFILING_ENABLE, &err));
  checkCl(err, "clCreateCommandQueue", info_.name);
  transferQueue_ = ClQueueHandle(clCreateCommandQueue(context_.get(), device_, 0, &err));
#pragma GCC diagnostic pop
  checkCl(err, "clCreateCommandQueue", info_.name + " (transfers)");
}

void ClContext::finish() const { checkCl(clFinish(queue_.get()), "clFinish"); }

std::size_t ClContext::baseAddressAlignBytes() const {
  cl_uint bits = 0;
  checkCl(clGetDeviceInfo(device_, CL_DEVICE_MEM_BASE_ADDR_ALIGN, sizeof bits, &bits, nullptr), "clGetDeviceInfo");
  return bits / 8 ? bits / 8 : 1;
}

// ---- Kernel ----

Kernel::Kernel(cl_program program, const std::string& name) : name_(name) {
  cl_int err = CL_SUCCESS;
  kernel_ = ClKernelHandle(clCreateKernel(program, name.c_str(), &err));
  checkCl(err, "clCreateKernel", name);
}

void Kernel::setRaw(cl_uint index, std::size_t size, const void* value) {
  checkCl(clSetKernelArg(kernel_.get(), index, size, value), "clSetKernelArg",
          name_ + " argument " + std::to_string(index));
}

Event Kernel::launch(const ClContext& ctx, const NDRange& r) const {
  const bool driverLocal = r.local[0] == 0;
  cl_event e = nullptr;
  checkCl(clEnqueueNDRangeKernel(ctx.queue(), kernel_.get(), r.dims, nullptr, r.global.data(),
                                 driverLocal ? nullptr : r.local.data(), 0, nullptr, &e),
          "clEnqueueNDRangeKernel", name_);
  return Event(e);
}

std::size_t Kernel::maxWorkGroupSize(const ClContext& ctx) const {
  std::size_t n = 0;
  checkCl(clGetKernelWorkGroupInfo(kernel_.get(), ctx.device(), CL_KERNEL_WORK_GROUP_SIZE, sizeof n, &n, nullptr),
          "clGetKernelWorkGroupInfo", name_);
  return n;
}

// ---- Program ----

namespace {

std::string buildLog(cl_program program, cl_device_id device) {
  std::size_t n = 0;
  if (clGetProgramBuildInfo(program, device, CL_PROGRAM_BUILD_LOG, 0, nullptr, &n) != CL_SUCCESS) return {};
  std::string log(n, '\0');
  if (clGetProgramBuildInfo(program, device, CL_PROGRAM_BUILD_LOG, n, log.data(), nullptr) != CL_SUCCESS) return {};
  while (!log.empty() && (log.back() == '\0' || log.back() == '\n')) log.pop_back();
  return log;
}

std::vector<unsigned char> programBinary(cl_program program) {
  std::size_t size = 0;
  if (clGetProgramInfo(program, CL_PROGRAM_BINARY_SIZES, sizeof size, &size, nullptr) != CL_SUCCESS || size == 0)
    return {};
  std::vector<unsigned char> bin(size);
  unsigned char* ptr = bin.data();
  if (clGetProgramInfo(program, CL_PROGRAM_BINARIES, sizeof ptr, &ptr, nullptr) != CL_SUCCESS) return {};
  return bin;
}

}  // namespace

std::string ptxWithMaxRegisters(std::string ptx, int registers) {
  const std::string directive = ".maxnreg " + std::to_string(registers) + "\n";
  int entries = 0;
  for (std::size_t at = ptx.find(".entry "); at != std::string::npos; at = ptx.find(".entry ", at + 1)) {
    const std::size_t params = ptx.find(')', at), body = params == std::string::npos ? params : ptx.find('{', params);
    if (body == std::string::npos) break;
    ptx.insert(body, directive);
    ++entries;
  }
  if (entries == 0)
    throw ComputeError(ComputeStatus::InvalidParameter,
                       "max_registers: the driver's program binary is not PTX text (no .entry found); "
                       "use max_registers=0 on this device");
  return ptx;
}

Program::Program(const ClContext& ctx, const BuildRequest& req) {
  const DeviceInfo& d = ctx.info();
  const std::string key = d.platformName + "|" + d.platformVersion + "|" + d.name + "|" + d.driverVersion + "|" +
                          req.options + "|" + stableHash(req.source) + "|" + std::to_string(req.source.size()) +
                          "|maxnreg " + std::to_string(req.ptxMaxRegisters);
  cl_device_id dev = ctx.device();

  // A cached binary that the driver refuses (driver update, corrupt file) is not an error: rebuild.
  if (auto bin = loadCachedBinary(key)) {
    const unsigned char* ptr = bin->data();
    const std::size_t size = bin->size();
    cl_int binStatus = CL_SUCCESS, err = CL_SUCCESS;
    cl_program p = clCreateProgramWithBinary(ctx.context(), 1, &dev, &size, &ptr, &binStatus, &err);
    if (err == CL_SUCCESS && binStatus == CL_SUCCESS) {
      ClProgramHandle h(p);
      if (clBuildProgram(p, 1, &dev, req.options.c_str(), nullptr, nullptr) == CL_SUCCESS) {
        program_ = std::move(h);
        fromCache_ = true;
        return;
      }
    } else if (p) {
      clReleaseProgram(p);
    }
  }

  const auto fail = [&](cl_int err, const std::string& what) {
    throw ComputeError(ComputeStatus::BuildFailure,
                       "OpenCL kernel build failed for '" + req.label + "' on " + d.name + " (" + clErrorName(err) +
                           ", options: " + req.options + what + ")\nbuild log:\n" +
                           (log_.empty() ? std::string("(the driver gave no build log)") : log_),
                       err);
  };
  const char* src = req.source.c_str();
  const std::size_t len = req.source.size();
  cl_int err = CL_SUCCESS;
  program_ = ClProgramHandle(clCreateProgramWithSource(ctx.context(), 1, &src, &len, &err));
  checkCl(err, "clCreateProgramWithSource", req.label);
  err = clBuildProgram(program_.get(), 1, &dev, req.options.c_str(), nullptr, nullptr);
  log_ = buildLog(program_.get(), dev);
  if (err != CL_SUCCESS) fail(err, "");

  if (req.ptxMaxRegisters > 0) {
    // Rebuild from the PTX with the register cap: ptxas (in the driver) honours .maxnreg.
    const std::vector<unsigned char> ptxBinary = binary();
    std::string ptx(ptxBinary.begin(), ptxBinary.end());
    ptx.erase(std::find(ptx.begin(), ptx.end(), '\0'), ptx.end());
    const std::string patched = ptxWithMaxRegisters(ptx, req.ptxMaxRegisters);
    const unsigned char* ptr = reinterpret_cast<const unsigned char*>(patched.c_str());
    const std::size_t size = patched.size() + 1;  // with the terminating NUL, as the driver hands PTX out
    cl_int binStatus = CL_SUCCESS;
    program_ = ClProgramHandle(clCreateProgramWithBinary(ctx.context(), 1, &dev, &size, &ptr, &binStatus, &err));
    checkCl(err, "clCreateProgramWithBinary", req.label + " (PTX with .maxnreg)");
    checkCl(binStatus, "clCreateProgramWithBinary", req.label + " (PTX with .maxnreg)");
    err = clBuildProgram(program_.get(), 1, &dev, req.options.c_str(), nullptr, nullptr);
    log_ = buildLog(program_.get(), dev);
    if (err != CL_SUCCESS) fail(err, ", PTX with .maxnreg " + std::to_string(req.ptxMaxRegisters));
  }
  storeCachedBinary(key, binary());
}

std::vector<unsigned char> Program::binary() const { return programBinary(program_.get()); }

}  // namespace iso
