#include "compute/ClError.h"

namespace iso {

const char* toString(ComputeStatus s) {
  switch (s) {
    case ComputeStatus::NoDevice: return "no device";
    case ComputeStatus::UnknownDevice: return "unknown device";
    case ComputeStatus::InvalidParameter: return "invalid parameter";
    case ComputeStatus::OutOfMemory: return "out of memory";
    case ComputeStatus::BuildFailure: return "kernel build failure";
    case ComputeStatus::DeviceError: return "device error";
  }
  return "unknown";
}

const char* clErrorName(cl_int code) {
  switch (code) {
#define ISO_CL_ERR(name) \
  case name: return #name;
    ISO_CL_ERR(CL_SUCCESS)
    ISO_CL_ERR(CL_DEVICE_NOT_FOUND)
    ISO_CL_ERR(CL_DEVICE_NOT_AVAILABLE)
    ISO_CL_ERR(CL_COMPILER_NOT_AVAILABLE)
    ISO_CL_ERR(CL_MEM_OBJECT_ALLOCATION_FAILURE)
    ISO_CL_ERR(CL_OUT_OF_RESOURCES)
    ISO_CL_ERR(CL_OUT_OF_HOST_MEMORY)
    ISO_CL_ERR(CL_PROFILING_INFO_NOT_AVAILABLE)
    ISO_CL_ERR(CL_MEM_COPY_OVERLAP)
    ISO_CL_ERR(CL_IMAGE_FORMAT_MISMATCH)
    ISO_CL_ERR(CL_IMAGE_FORMAT_NOT_SUPPORTED)
    ISO_CL_ERR(CL_BUILD_PROGRAM_FAILURE)
    ISO_CL_ERR(CL_MAP_FAILURE)
    ISO_CL_ERR(CL_MISALIGNED_SUB_BUFFER_OFFSET)
    ISO_CL_ERR(CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST)
    ISO_CL_ERR(CL_COMPILE_PROGRAM_FAILURE)
    ISO_CL_ERR(CL_LINKER_NOT_AVAILABLE)
    ISO_CL_ERR(CL_LINK_PROGRAM_FAILURE)
    ISO_CL_ERR(CL_DEVICE_PARTITION_FAILED)
    ISO_CL_ERR(CL_KERNEL_ARG_INFO_NOT_AVAILABLE)
    ISO_CL_ERR(CL_INVALID_VALUE)
    ISO_CL_ERR(CL_INVALID_DEVICE_TYPE)
    ISO_CL_ERR(CL_INVALID_PLATFORM)
    ISO_CL_ERR(CL_INVALID_DEVICE)
    ISO_CL_ERR(CL_INVALID_CONTEXT)
    ISO_CL_ERR(CL_INVALID_QUEUE_PROPERTIES)
    ISO_CL_ERR(CL_INVALID_COMMAND_QUEUE)
    ISO_CL_ERR(CL_INVALID_HOST_PTR)
    ISO_CL_ERR(CL_INVALID_MEM_OBJECT)
    ISO_CL_ERR(CL_INVALID_IMAGE_FORMAT_DESCRIPTOR)
    ISO_CL_ERR(CL_INVALID_IMAGE_SIZE)
    ISO_CL_ERR(CL_INVALID_SAMPLER)
    ISO_CL_ERR(CL_INVALID_BINARY)
    ISO_CL_ERR(CL_INVALID_BUILD_OPTIONS)
    ISO_CL_ERR(CL_INVALID_PROGRAM)
    ISO_CL_ERR(CL_INVALID_PROGRAM_EXECUTABLE)
    ISO_CL_ERR(CL_INVALID_KERNEL_NAME)
    ISO_CL_ERR(CL_INVALID_KERNEL_DEFINITION)
    ISO_CL_ERR(CL_INVALID_KERNEL)
    ISO_CL_ERR(CL_INVALID_ARG_INDEX)
    ISO_CL_ERR(CL_INVALID_ARG_VALUE)
    ISO_CL_ERR(CL_INVALID_ARG_SIZE)
    ISO_CL_ERR(CL_INVALID_KERNEL_ARGS)
    ISO_CL_ERR(CL_INVALID_WORK_DIMENSION)
    ISO_CL_ERR(CL_INVALID_WORK_GROUP_SIZE)
    ISO_CL_ERR(CL_INVALID_WORK_ITEM_SIZE)
    ISO_CL_ERR(CL_INVALID_GLOBAL_OFFSET)
    ISO_CL_ERR(CL_INVALID_EVENT_WAIT_LIST)
    ISO_CL_ERR(CL_INVALID_EVENT)
    ISO_CL_ERR(CL_INVALID_OPERATION)
    ISO_CL_ERR(CL_INVALID_GL_OBJECT)
    ISO_CL_ERR(CL_INVALID_BUFFER_SIZE)
    ISO_CL_ERR(CL_INVALID_MIP_LEVEL)
    ISO_CL_ERR(CL_INVALID_GLOBAL_WORK_SIZE)
    ISO_CL_ERR(CL_INVALID_PROPERTY)
    ISO_CL_ERR(CL_INVALID_IMAGE_DESCRIPTOR)
    ISO_CL_ERR(CL_INVALID_COMPILER_OPTIONS)
    ISO_CL_ERR(CL_INVALID_LINKER_OPTIONS)
    ISO_CL_ERR(CL_INVALID_DEVICE_PARTITION_COUNT)
#undef ISO_CL_ERR
    case -1001: return "CL_PLATFORM_NOT_FOUND_KHR";
    default: return "unknown OpenCL error";
  }
}

namespace {

// What a user can do about the most common failures.
const char* hintFor(cl_int code) {
  switch (code) {
    case CL_MEM_OBJECT_ALLOCATION_FAILURE:
    case CL_OUT_OF_RESOURCES:
      return "the device ran out of memory or registers; try a smaller grid or a smaller work-group/tile";
    case CL_OUT_OF_HOST_MEMORY: return "the host ran out of memory";
    case CL_INVALID_WORK_GROUP_SIZE:
      return "the work-group size is not allowed for this kernel on this device; choose a smaller tile";
    case CL_INVALID_BUFFER_SIZE: return "a buffer is larger than the device's max allocation";
    case CL_BUILD_PROGRAM_FAILURE: return "the kernel does not compile; see the build log";
    case CL_DEVICE_NOT_FOUND: return "no OpenCL device of that type; run 'iso3dfd devices'";
    case -1001:
      return "no OpenCL platform is installed or registered (check /etc/OpenCL/vendors/*.icd)";
    case CL_MISALIGNED_SUB_BUFFER_OFFSET:
      return "sub-buffer origin is not a multiple of CL_DEVICE_MEM_BASE_ADDR_ALIGN";
    default: return "this is likely a bug or a driver problem; please report it with the device name";
  }
}

ComputeStatus statusFor(cl_int code) {
  switch (code) {
    case CL_MEM_OBJECT_ALLOCATION_FAILURE:
    case CL_OUT_OF_HOST_MEMORY:
    case CL_INVALID_BUFFER_SIZE: return ComputeStatus::OutOfMemory;
    case CL_BUILD_PROGRAM_FAILURE:
    case CL_COMPILE_PROGRAM_FAILURE:
    case CL_INVALID_BUILD_OPTIONS: return ComputeStatus::BuildFailure;
    case CL_INVALID_WORK_GROUP_SIZE:
    case CL_INVALID_WORK_ITEM_SIZE: return ComputeStatus::InvalidParameter;
    case CL_DEVICE_NOT_FOUND:
    case -1001: return ComputeStatus::NoDevice;
    default: return ComputeStatus::DeviceError;
  }
}

}  // namespace

void checkCl(cl_int code, const char* call, const std::string& context) {
  if (code == CL_SUCCESS) return;
  std::string msg = std::string("OpenCL error in ") + call;
  if (!context.empty()) msg += " (" + context + ")";
  msg += ": " + std::string(clErrorName(code)) + " (" + std::to_string(code) + "): " + hintFor(code);
  throw ComputeError(statusFor(code), msg, code);
}

}  // namespace iso
