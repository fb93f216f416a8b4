#pragma once
// A stage resolved once: everything the program asks of a stage, whichever kind of code runs it — its
// facts (core's StageInfo), its parameters with their defaults, its device, what its % of roofline is
// measured against, its tuning candidates and its solver. A caller looks a stage id up once
// (resolveStage) and passes the Stage on, instead of the id that every stop would look up again.
//
// The stages are listed here in teaching order: the CPU stages of core/CpuSolvers.cpp, then the OpenCL
// stages of stages/OpenClStage.cpp (one descriptor each). registerStages() puts their facts into core's
// StageRegistry; every program calls it first thing, before it reads a scenario.
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "compute/DeviceRegistry.h"
#include "core/Grid.h"
#include "core/Problem.h"
#include "core/Scenario.h"
#include "core/StageRegistry.h"
#include "core/WaveSolver.h"

namespace iso {

class OpenClStage;

// What a stage's % of roofline is measured against: the OpenCL device's copy bandwidth, or the host's.
struct RooflineCeiling {
  double gbs = 0.0;  // 0 when it could not be measured
  std::string name;  // "device copy bandwidth", "host memcpy bandwidth"
};

class Stage {
 public:
  virtual ~Stage() = default;
  Stage(const Stage&) = delete;
  Stage& operator=(const Stage&) = delete;

  const StageInfo& info() const { return info_; }
  const std::string& id() const { return info_.id; }
  bool opencl() const { return info_.opencl; }
  // Bytes of memory traffic per interior point and time step (StageInfo::bytesPerPointStep).
  double bytesPerPointStep() const { return info_.bytesPerPointStep; }
  // The same in the form that resolved parameters `params` select (an OpenCL stage's storage).
  double bytesPerPointStep(const StageParamMap& params) const;
  // The descriptor of an OpenCL stage (kernel, launch, build options); nullptr for a CPU stage.
  virtual const OpenClStage* openCl() const { return nullptr; }

  // Its parameters with their defaults: an OpenCL stage's on `device` (nullptr: a GPU of no particular
  // vendor, as every --help and `iso3dfd stages` show them), a CPU stage's on this machine.
  virtual std::vector<StageParamSpec> parameterSpecs(const DeviceInfo* device = nullptr) const = 0;
  std::vector<std::string> parameterNames() const;
  // `scenario` run as this stage: of its stage parameters those this stage takes, so that one scenario
  // can set gpu-slm's tile and cpu-parallel's threads side by side.
  ExecutionConfig execution(const Scenario& scenario) const;

  // The OpenCL device `selector` picks (DeviceRegistry.h), nullopt for a CPU stage; throws
  // std::runtime_error when no device matches.
  virtual std::optional<DeviceInfo> device(const std::string& selector) const = 0;
  // The memory ceiling of its % roofline on `device` (from device()); measured once per device and
  // cached on disk. Never throws: gbs is 0 when it could not be measured.
  virtual RooflineCeiling rooflineCeiling(const std::optional<DeviceInfo>& device) const = 0;

  // The complete parameter sets the tuner tries on `device` for `grid`, each one the device can run;
  // empty for a stage with nothing to tune.
  virtual std::vector<StageParamMap> tuningCandidates(const DeviceInfo& device, const Grid& grid) const;
  // Whether it proposes tuning candidates on a GPU: the stages `iso3dfd tune`, `verify --candidates`
  // and the benchmark panel's sweep offer.
  bool tunable() const;

  // Its solver for `problem`, `params` merged over the defaults, on `device` (from device(); CPU stages
  // ignore it). Throws std::runtime_error (or a subclass) saying what went wrong and what to do.
  virtual std::unique_ptr<WaveSolver> createSolver(Problem problem, const StageParamMap& params,
                                                   const std::optional<DeviceInfo>& device) const = 0;

 protected:
  explicit Stage(StageInfo info);

 private:
  StageInfo info_;
};

// Every stage, in teaching order.
const std::vector<const Stage*>& allStages();
// The stage `id` names; throws ComputeError(InvalidParameter) naming the known stages.
const Stage& resolveStage(const std::string& id);
// The tunable stages (Stage::tunable), in teaching order.
std::vector<const Stage*> tunableStages();
// Registers every stage's facts in core's StageRegistry, once (later calls do nothing).
void registerStages();

}  // namespace iso
