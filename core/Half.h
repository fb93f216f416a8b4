#pragma once
// IEEE 754 binary16 ("half") on the host, converting as OpenCL's vstore_half_rte and vload_half do on a
// device: the half-precision stages store their fields in it (docs/NUMERICS.md, "Half-precision
// storage"), and what enters or leaves them (initial fields, checkpoints, dumps) passes through here.
#include <cstdint>

namespace iso {

// Round to nearest, ties to even; beyond the largest half (65504) ±infinity; NaN stays NaN.
std::uint16_t floatToHalf(float value);
// Exact: every half is a float.
float halfToFloat(std::uint16_t bits);

}  // namespace iso
