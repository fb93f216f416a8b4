#pragma once
// The ray marcher of resources/kernels/volume_march.cl compiled as C++, for the host renderer of the
// CPU stages (core/VolumeRenderer.h): the same source the OpenCL kernels are built from, with the
// OpenCL built-ins it uses defined here. marchParams fills its parameters from a VolumeView, for the host
// and for the OpenCL renderer alike.
#include <cmath>
#include <cstddef>

#include "core/Grid.h"
#include "core/VolumeView.h"

namespace iso::march {

using std::ceil;
using std::exp;
using std::fabs;
using std::floor;
using std::fmax;
using std::fmin;
using std::isinf;
using std::isnan;
using std::log;
using std::sqrt;
typedef unsigned char uchar;
typedef unsigned int uint;
inline float clamp(float x, float lo, float hi) { return fmin(fmax(x, lo), hi); }

#define VR_GLOBAL
#define VR_INDEX std::ptrdiff_t  // host grids may need more than 32 bits
#include "resources/kernels/volume_march.cl"
#undef VR_GLOBAL
#undef VR_INDEX

}  // namespace iso::march

namespace iso {

inline constexpr int kVolumeBrick = VR_BRICK;

// The marcher's parameters for `view` of `grid`, whose field is padded by `halo` cells on every side.
// `view` must be valid for the grid (volumeViewProblem).
march::vr_params marchParams(const VolumeView& view, const Grid& grid, int halo);

// Bricks along one axis of n cells.
inline int volumeBricks(int n) { return (n + kVolumeBrick - 1) / kVolumeBrick; }

}  // namespace iso
