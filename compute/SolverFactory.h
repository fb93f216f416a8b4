#pragma once
// One entry point for every stage, from an ExecutionConfig (a stage id, a device selector, parameters):
// the stage is resolved (compute/Stage.h), and builds its solver on its device, or its slabs on several
// devices or MPI ranks (core/DecomposedSolver.h).
#include <memory>
#include <optional>
#include <vector>

#include "compute/DeviceRegistry.h"
#include "compute/Stage.h"
#include "compute/stages/OpenClStage.h"
#include "core/Communicator.h"
#include "core/Problem.h"
#include "core/SlabDecomposition.h"
#include "core/WaveSolver.h"

namespace iso {

// Builds the solver for config.stage on config.device. Throws std::runtime_error (or a subclass) with
// a message that says what went wrong and what to do (unknown stage, no such device, grid too large
// for the device, bad stage parameters, kernel build failure with the build log). Several devices, or
// the process's MPI ranks (processRanks()), cut the grid into slabs (the third form below).
std::unique_ptr<WaveSolver> createSolver(Problem problem, const ExecutionConfig& config);
// The same on `device`, which Stage::device(config.device) gave (the first device of a list), for
// callers that need the device themselves (so that it is selected once); slabs choose their own.
std::unique_ptr<WaveSolver> createSolver(Problem problem, const ExecutionConfig& config,
                                         const std::optional<DeviceInfo>& device);

// A grid cut along z over several devices (core/DecomposedSolver.h), chosen by config.device and the
// ranks: a selector naming several devices (DeviceRegistry.h) gives one slab per device in this process;
// with several MPI ranks every rank runs its share of a list (as many devices each, in order: one slab
// on each), the one device named for all, or ("local-rank") the GPU of its place on its host; a CPU
// stage runs one slab per rank. Otherwise (one device, one rank) the stage's own solver. Slabs are even
// on alike devices and sized by the devices' copy bandwidth (the roofline of this memory-bound stencil)
// otherwise; the stage's parameters are resolved for the whole grid, as a single device's run resolves
// them, so that every cell is computed alike. A grid past the OpenCL kernels' 32-bit indices (2^31
// padded cells) is cut into several slabs per device (or rank), as few as keep each within them, and so
// runs on one device too. Every rank calls it; all fail together.
std::unique_ptr<WaveSolver> createSolver(Problem problem, const ExecutionConfig& config,
                                         std::shared_ptr<Communicator> ranks);

// Slabs on one device share its memory: each is checked alone when it is built, their sum here (each
// slab's field buffers and storage as checkGridFitsDevice counts them). deviceOf[s] is slab s's device, or
// null for another rank's. Throws ComputeError (OutOfMemory) naming the device and what its slabs need.
void checkSlabsFitDevices(const Grid& g, const std::vector<Slab>& slabs, const std::vector<const DeviceInfo*>& deviceOf,
                          int fieldBuffers = 2, const FieldStorage& storage = {});

// The devices this process's slabs run on, as the form above chooses them (an OpenCL stage; throws as
// selectDevices does, or when a list names neither one device per rank nor one for all).
std::vector<DeviceInfo> slabDevices(const ExecutionConfig& config, const Communicator* ranks);

}  // namespace iso
