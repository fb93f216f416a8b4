#pragma once
// Velocity models from files (docs/FILES.md), chosen by extension:
//   .npy               float32 '<f4', C order, shape (n3, n2, n1)
//   .bin .raw .f32     raw little-endian float32, x fastest, dims (n1, n2, n3) given by the caller
//   .sgy .segy         SEG-Y through libsegyio: each trace is a vertical column (samples along z),
//                      traces ordered x fastest; 4-byte IBM or IEEE floats, post-stack (one offset)
// The values, in `unit`, are converted to m/s. Every velocity must then lie in [kMinVelocity, kMaxVelocity]
// m/s (Scenario.h), and the fastest must be at least 100 m/s: slower files have the wrong unit (km/s
// read as m/s, say). Errors are ScenarioError naming the file and the problem.
#include <string>

#include "core/Scenario.h"
#include "core/Volume.h"

namespace iso {

// rawN1..rawN3: the dims of a raw file (required there). For SEG-Y, rawN1 x rawN2 > 0 overrides the
// trace geometry read from the inline/crossline headers (needed for files without those headers).
Volume loadModelFile(const std::string& path, int rawN1 = 0, int rawN2 = 0, int rawN3 = 0,
                     VelocityUnit unit = VelocityUnit::MetresPerSecond);

}  // namespace iso
