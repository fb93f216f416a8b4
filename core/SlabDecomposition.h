#pragma once
// The geometry of a grid cut along z, the slowest axis, into slabs: one per device (in one process or
// on MPI ranks), each a run of whole planes, so that what a neighbour needs after a step is R = 8
// contiguous planes. A slab is solved by an ordinary solver of any stage built from the slab's own
// Problem: its planes with R planes on each side, which on a cut side are the neighbour's (ghost
// planes, refreshed after every step: core/DecomposedSolver.h) and on the grid's faces are its halo.
#include <cstddef>
#include <span>
#include <vector>

#include "core/PlaneRange.h"
#include "core/Problem.h"

namespace iso {

// One slab: interior planes [first, first + planes) of the whole grid.
struct Slab {
  int first = 0, planes = 0;
  int end() const { return first + planes; }
  bool operator==(const Slab&) const = default;
};

// Cuts n3 planes into weights.size() slabs, in order, in proportion to the weights (the devices'
// speeds; equal weights cut evenly, the first slabs taking the planes left over), every slab at least
// kHalfLength planes when there are several (a slab's ghost planes come from one neighbour). Throws
// std::invalid_argument when n3 is too short for that or a weight is not positive.
std::vector<Slab> cutAlongZ(int n3, std::span<const double> weights);

// How many slabs each device of a cut by `deviceWeights` takes so that no slab holds more than
// `maxPaddedCells` cells with its ghost planes (a device's kernels index its buffers with 32-bit ints):
// the fewest that do, every device's share cut evenly; 1 when no cut does (the device then refuses).
int slabsPerDevice(const Grid& g, std::span<const double> deviceWeights, std::size_t maxPaddedCells);

// The planes of a slab of `planes` planes whose neighbours read them after each step, in order: the
// first R when the slab has a neighbour below, the last R when it has one above (one range when they
// meet). The rest of its planes are computed while these are copied.
std::vector<PlaneRange> planesNextToCuts(int planes, bool cutBelow, bool cutAbove);

// The problem slab `slab` of `global` solves: the grid n1 x n2 x planes, the arrays' planes of the slab
// with their R ghost planes on each side (the velocity, u^0, the sponge's z profile), the absorbing
// layer's window (PmlProfile::zWindow), the source when the slab holds its cell, the receivers it holds
// (slabReceivers, in that order). Scalars (dx, dt, weights, stability) are the global problem's.
Problem slabProblem(const Problem& global, const Slab& slab);

// The receivers (indices into global.receivers) that a slab holds, in order.
std::vector<std::size_t> slabReceivers(const Problem& global, const Slab& slab);

// Which slab holds interior plane k.
int slabOfPlane(std::span<const Slab> slabs, int k);

}  // namespace iso
