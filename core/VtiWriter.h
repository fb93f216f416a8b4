#pragma once
// VTK XML image data (.vti) for ParaView and VisIt: point arrays of float32 on a regular grid, spacing
// and origin in metres, the data appended raw after the XML (little endian, UInt64 size headers). x
// (n1) varies fastest, as in the solver's C order (n3, n2, n1), so the arrays are written as they are.
#include <array>
#include <string>
#include <vector>

namespace iso {

struct VtiArray {
  std::string name;            // e.g. "u", "velocity (m/s)"
  std::vector<float> values;   // n1 * n2 * n3, x fastest
};

struct VtiImage {
  std::array<int, 3> size{0, 0, 0};           // points along x, y, z
  std::array<double, 3> spacing{1.0, 1.0, 1.0};  // metres
  std::array<double, 3> origin{0.0, 0.0, 0.0};   // metres
  std::vector<VtiArray> arrays;
};

// Writes `image` to `path` through a temporary file renamed when complete: on failure (sizes that do
// not match, an unwritable folder, a full disk) nothing is left under `path`, an older file is kept,
// and std::runtime_error (FileWriteError for the file itself) names the file and the cause.
void writeVti(const std::string& path, const VtiImage& image);

// Reads a file as writeVti writes it (raw appended Float32 point arrays); std::runtime_error otherwise.
VtiImage readVti(const std::string& path);

}  // namespace iso
