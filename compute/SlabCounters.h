#pragma once
// What a grid cut into slabs (core/DecomposedSolver.h) tells about each of its slabs in this process:
// the device, the planes and the kernels' time so far, for the studio's per-device counters.
#include <string>
#include <vector>

#include "core/WaveSolver.h"

namespace iso {

struct SlabCounter {
  std::string device;     // the slab's device, with its selector where it has one ("NVIDIA H100 [1:0]")
  int firstPlane = 0, planes = 0;
  double kernelSeconds = 0.0;  // of every step so far (0 for a CPU stage, which has no profiling)
};

// One per slab of this process when `solver` is a DecomposedSolver; empty otherwise.
std::vector<SlabCounter> slabCounters(const WaveSolver& solver);

}  // namespace iso
