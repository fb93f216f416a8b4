// How fast an OpenCL device copies host memory it did not allocate: malloc'd memory, a shared mapping (what
// an MPI-3 shared-memory window is), the driver's own page-locked memory, and a shared mapping once a
// CL_MEM_USE_HOST_PTR buffer exists over it (NVIDIA's driver then page-locks it: docs/GPU_NOTES.md). What
// DecomposedSolver's window path relies on. Usage: iso_host_copy_probe [platform substring, default NVIDIA]
#define CL_TARGET_OPENCL_VERSION 120
#include <CL/cl.h>
#include <sys/mman.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

namespace {

constexpr std::size_t kBytes = std::size_t(32) << 20;

void check(cl_int status, const char* what) {
  if (status == CL_SUCCESS) return;
  std::fprintf(stderr, "iso_host_copy_probe: %s failed (OpenCL error %d)\n", what, status);
  std::exit(1);
}

double seconds() { return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count(); }

cl_device_id firstGpu(const std::string& platformName) {
  cl_uint count = 0;
  check(clGetPlatformIDs(0, nullptr, &count), "clGetPlatformIDs");
  std::vector<cl_platform_id> platforms(count);
  check(clGetPlatformIDs(count, platforms.data(), nullptr), "clGetPlatformIDs");
  for (cl_platform_id p : platforms) {
    char name[256] = {};
    check(clGetPlatformInfo(p, CL_PLATFORM_NAME, sizeof name, name, nullptr), "clGetPlatformInfo");
    cl_device_id device = nullptr;
    if (std::strstr(name, platformName.c_str()) && clGetDeviceIDs(p, CL_DEVICE_TYPE_ALL, 1, &device, nullptr) == CL_SUCCESS)
      return device;
  }
  std::fprintf(stderr, "iso_host_copy_probe: no device on a platform named like '%s'\n", platformName.c_str());
  std::exit(1);
}

// The best of 5 timed copies (after one untimed) each way between `host` and the device buffer.
void probe(cl_command_queue queue, cl_mem device, void* host, const char* what) {
  for (const bool toDevice : {true, false}) {
    double best = 1e30;
    for (int r = 0; r < 6; ++r) {
      const double start = seconds();
      if (toDevice)
        check(clEnqueueWriteBuffer(queue, device, CL_TRUE, 0, kBytes, host, 0, nullptr, nullptr), "clEnqueueWriteBuffer");
      else
        check(clEnqueueReadBuffer(queue, device, CL_TRUE, 0, kBytes, host, 0, nullptr, nullptr), "clEnqueueReadBuffer");
      if (r > 0) best = std::min(best, seconds() - start);
    }
    std::printf("%-58s %s %6.1f GB/s\n", what, toDevice ? "host->device" : "device->host", double(kBytes) / best / 1e9);
  }
}

void* sharedMapping() {
  void* p = ::mmap(nullptr, kBytes, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
  if (p == MAP_FAILED) {
    std::perror("iso_host_copy_probe: mmap");
    std::exit(1);
  }
  std::memset(p, 1, kBytes);
  return p;
}

}  // namespace

int main(int argc, char** argv) {
  const cl_device_id gpu = firstGpu(argc > 1 ? argv[1] : "NVIDIA");
  cl_int err = CL_SUCCESS;
  cl_context ctx = clCreateContext(nullptr, 1, &gpu, nullptr, nullptr, &err);
  check(err, "clCreateContext");
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wdeprecated-declarations"
  cl_command_queue queue = clCreateCommandQueue(ctx, gpu, 0, &err);
#pragma GCC diagnostic pop
  check(err, "clCreateCommandQueue");
  cl_mem device = clCreateBuffer(ctx, CL_MEM_READ_WRITE, kBytes, nullptr, &err);
  check(err, "clCreateBuffer (device)");

  std::vector<char> pageable(kBytes, 1);
  probe(queue, device, pageable.data(), "pageable (std::vector)");
  probe(queue, device, sharedMapping(), "shared mapping (as an MPI window)");
  cl_mem pinned = clCreateBuffer(ctx, CL_MEM_ALLOC_HOST_PTR, kBytes, nullptr, &err);
  check(err, "clCreateBuffer (CL_MEM_ALLOC_HOST_PTR)");
  void* mapped = clEnqueueMapBuffer(queue, pinned, CL_TRUE, CL_MAP_READ | CL_MAP_WRITE, 0, kBytes, 0, nullptr, nullptr, &err);
  check(err, "clEnqueueMapBuffer");
  probe(queue, device, mapped, "the driver's page-locked memory (CL_MEM_ALLOC_HOST_PTR)");
  void* window = sharedMapping();
  cl_mem locked = clCreateBuffer(ctx, CL_MEM_USE_HOST_PTR | CL_MEM_READ_WRITE, kBytes, window, &err);
  check(err, "clCreateBuffer (CL_MEM_USE_HOST_PTR)");
  probe(queue, device, window, "shared mapping under a CL_MEM_USE_HOST_PTR buffer");
  check(clReleaseMemObject(locked), "clReleaseMemObject");  // the rest goes with the process
  return 0;
}
