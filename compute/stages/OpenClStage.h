#pragma once
// Everything about one OpenCL stage in one place (the CLBlast way): what the learner sees (title, oneAPI
// sample, previous stage, source files, bytes per point-step; the explanation is
// resources/stages/<id>.md), its parameters (names, defaults per device class, ranges, meanings), the
// constraints between them, the kernel file and build options, work-group size, local memory, launch
// geometry and extra kernel arguments, and tuning candidates. Each stage is one descriptor in this
// folder; openClStages() lists them in teaching order, and compute/Stage.h hands them out (with the CPU
// stages) to the StageRegistry, the menus, every --help, the tuner and the tests. The generic functions
// of StageParams.h and OpenClSolver read the descriptors and never test a stage id.
#include <array>
#include <cstddef>
#include <string>
#include <utility>
#include <vector>

#include "compute/ClError.h"
#include "compute/DeviceRegistry.h"
#include "core/Grid.h"
#include "core/StageRegistry.h"

namespace iso {

// How a stage stores its arrays on the device: float32, or (gpu-half) IEEE half scaled by a power of two
// (common.cl's FIELD_HALF, VEL_HALF; the solver converts whatever enters or leaves them). incremental:
// the field is kept as (U^n, D^n = U^n − U^(n−1)), U in two buffers (optimized_gpu.cl's INCREMENTAL).
struct FieldStorage {
  bool halfField = false, halfVel = false, incremental = false;
};

// Where a stencil kernel runs: a 3D NDRange, and the int arguments after STENCIL_ARGS (common.cl).
struct StageLaunch {
  std::array<std::size_t, 3> global{1, 1, 1}, local{0, 0, 0};  // local 0 = the driver chooses
  std::vector<int> extraArgs;                                  // e.g. the z chunk
};

class OpenClStage {
 public:
  // `info` is the stage's StageRegistry entry (its `opencl` flag is set here).
  explicit OpenClStage(StageInfo info);
  virtual ~OpenClStage() = default;

  const StageInfo& info() const { return info_; }
  const std::string& id() const { return info_.id; }
  // Bytes of memory traffic per interior point and step in the form `p` selects (its storage; the
  // descriptor's StageInfo::bytesPerPointStep is that of the default form).
  double bytesPerPointStep(const StageParamMap& p) const;
  // The parameters with their built-in defaults for this device (type and vendor decide).
  virtual std::vector<StageParamSpec> parameters(const DeviceInfo& device) const = 0;
  // Rules beyond each parameter's own range (allowed sets, what the device supports); throws
  // stageParamError. `p` holds every parameter, each within its range.
  virtual void checkParameters(const StageParamMap& p, const DeviceInfo& device) const;

  virtual std::string kernelFile(const StageParamMap& p) const = 0;  // in resources/kernels/
  // The stage's own preprocessor defines (R and DAMPING are common to all: stageBuildOptions()).
  virtual std::string buildOptions(const StageParamMap& p, const Grid& grid) const;
  // Work-group width and height ({0, 0}: the driver chooses), and local memory of one work-group.
  virtual std::array<std::size_t, 2> workGroup(const StageParamMap& p) const = 0;
  virtual std::size_t localMemoryBytes(const StageParamMap& p) const;
  virtual StageLaunch launch(const StageParamMap& p, const Grid& grid) const = 0;
  // Whether the kernel's CL_KERNEL_WORK_GROUP_SIZE is to be checked before launching (false where a
  // driver is known to report a limit that does not hold for this kernel).
  virtual bool kernelLimitIsReliable(const StageParamMap& p, const DeviceInfo& device) const;
  // The parameter sets the tuner tries (partial: merged over the defaults; tuningCandidates() in
  // StageParams.h completes them and drops those the device refuses); empty: nothing to tune.
  virtual std::vector<StageParamMap> proposedCandidates(const DeviceInfo& device) const;

  // Temporal blocking. 1 (the default): the kernel `stencil` takes STENCIL_ARGS (common.cl) and the
  // extra arguments, and advances one step in place (u^(n+1) over u^(n-1)). 2: the kernel advances up
  // to two steps per launch and writes out of place; it takes (older u^(n-1), prev u^n, out1 u^(n+1),
  // out2 u^(n+2), vel, coef, gx, gy, gz, n1, n2, n3, source index (-1: none), source value of step n,
  // steps (1 or 2)) and then the extra arguments; it adds step n's source term to u^(n+1) itself.
  virtual int stepsPerPass(const StageParamMap& p) const;
  // The grid-sized field buffers the stage rotates: 2 in place, 4 for two steps out of place (3 with
  // incremental storage: U^n, U^(n+1) and D).
  virtual int fieldBuffers(const StageParamMap& p) const;
  // How the arrays are stored (FieldStorage; float32 by default). The kernel then takes, after its extra
  // arguments: U^(n+1)'s buffer (incremental), vel's scale (half vel), the layer's (PML_FOLD_ARGS); the
  // layer's own passes take the first two as well (pml.cl).
  virtual FieldStorage fieldStorage(const StageParamMap& p) const;
  // Whether the stencil kernel adds the absorbing layer's terms itself (pml.cl, PML_FOLD).
  virtual bool foldsLayer(const StageParamMap& p) const;

 private:
  StageInfo info_;
};

// Every OpenCL stage, in teaching order (OpenClStage.cpp holds the list).
const std::vector<const OpenClStage*>& openClStages();
// The descriptor of `stage`; throws ComputeError(InvalidParameter) naming the OpenCL stages.
const OpenClStage& openClStage(const std::string& stage);

// ComputeError(InvalidParameter) "stage 'gpu-slm': <what>".
ComputeError stageParamError(const std::string& stage, const std::string& what);

// Helpers the descriptors share.
namespace stage_parts {
constexpr int kMaxTile = 1024;  // any larger tile exceeds every device's work-group limit anyway
constexpr int kUnbounded = 1 << 30;
StageParamSpec workGroupX(int defaultValue);
StageParamSpec workGroupY(int defaultValue);
StageParamSpec chunk(const char* name, char axis, int defaultValue);  // 0 = the whole axis
StageParamSpec maxRegisters(int defaultValue);
// max_registers != 0 needs NVIDIA (PTX .maxnreg) and 32..255.
void checkMaxRegisters(const std::string& stage, const StageParamMap& p, const DeviceInfo& device);
// `value` of parameter `key` must be one of `allowed`; `why` ends the message.
void requireOneOf(const std::string& stage, const StageParamMap& p, const std::string& key,
                  const std::vector<int>& allowed, const std::string& why);
bool isNvidia(const DeviceInfo& device);
// An NVIDIA GPU of compute capability 8.0 or newer: the PTX of cp.async, ldmatrix and mma.sync.
bool isNvidiaAmpereOrNewer(const DeviceInfo& device);
std::size_t roundUp(std::size_t n, std::size_t m);
std::size_t ceilDiv(std::size_t n, std::size_t m);
// A wx x wy work-group over an a x b plane (rounded up to whole groups), `layers` deep.
StageLaunch workGroupGrid(std::size_t wx, std::size_t wy, std::size_t a, std::size_t b, std::size_t layers);
// A chunk parameter's planes per work-item: 0 (the whole axis) and chunks longer than the axis give n.
int chunkLength(int chunk, int n);

// gpu-basic and gpu-linear: one cell per work-item over a 3D NDRange of wg_x x wg_y work-groups; the
// two differ only in their kernel's index arithmetic. The kernel is the stage's one source file.
class CellPerWorkItemStage : public OpenClStage {
 public:
  explicit CellPerWorkItemStage(StageInfo info);
  std::vector<StageParamSpec> parameters(const DeviceInfo& device) const override;
  std::string kernelFile(const StageParamMap&) const override { return kernelFile_; }
  std::array<std::size_t, 2> workGroup(const StageParamMap& p) const override;
  StageLaunch launch(const StageParamMap& p, const Grid& grid) const override;

 private:
  std::string kernelFile_;
};

}  // namespace stage_parts

}  // namespace iso
