#pragma once
// OpenCL status handling. Every OpenCL call's status goes through checkCl(), which turns a failure into
// a ComputeError that names the call, the OpenCL error and what to do about it. At the API boundary
// (createSolver, the tuner, the CLI) callers see one exception type with a coarse Status, so that a
// front end can map errors to exit codes without parsing messages (the CLBlast approach).
#include <CL/cl.h>

#include <stdexcept>
#include <string>

namespace iso {

enum class ComputeStatus {
  NoDevice,          // no OpenCL platform or device (or one that went away)
  UnknownDevice,     // a device selector that matches none of the devices (a usage error)
  InvalidParameter,  // a stage parameter the device or the kernel cannot run
  OutOfMemory,       // the grid does not fit the device (global memory or max allocation)
  BuildFailure,      // a kernel failed to compile (the message holds the build log)
  DeviceError,       // any other OpenCL failure at run time
};

const char* toString(ComputeStatus s);

class ComputeError : public std::runtime_error {
 public:
  ComputeError(ComputeStatus status, const std::string& message, cl_int clCode = CL_SUCCESS)
      : std::runtime_error(message), status_(status), clCode_(clCode) {}
  ComputeStatus status() const { return status_; }
  cl_int clCode() const { return clCode_; }  // CL_SUCCESS when the error is not from an OpenCL call

 private:
  ComputeStatus status_;
  cl_int clCode_;
};

// "CL_OUT_OF_RESOURCES" for -5, "unknown OpenCL error" otherwise.
const char* clErrorName(cl_int code);

// Throws ComputeError when code != CL_SUCCESS:
//   "OpenCL error in clEnqueueNDRangeKernel (stencil gpu-slm): CL_OUT_OF_RESOURCES (-5): <hint>"
void checkCl(cl_int code, const char* call, const std::string& context = {});

}  // namespace iso
