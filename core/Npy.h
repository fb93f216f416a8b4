#pragma once
// NumPy .npy files (format 1.0/2.0, little-endian float32 '<f4', C order). Volumes are (n3, n2, n1).
#include <cstddef>
#include <string>
#include <vector>

namespace iso {

struct NpyArray {
  std::vector<std::size_t> shape;
  std::vector<float> data;
};

// Throws std::runtime_error naming the file and what is wrong (unreadable, not .npy, dtype, order, size).
// The file's size is checked against the header's shape before the data is allocated.
NpyArray readNpy(const std::string& path);
// Written whole or not at all (OutputFile.h); throws FileWriteError naming the file and the reason.
void writeNpy(const std::string& path, const float* data, const std::vector<std::size_t>& shape);

}  // namespace iso
