#include "compute/KernelSources.h"

#include <stdexcept>

namespace iso {

const std::string& kernelSource(const std::string& file) {
  const auto& files = embeddedKernelFiles();
  if (auto it = files.find(file); it != files.end()) return it->second;
  std::string known;
  for (const auto& [name, text] : files) known += " " + name;
  throw std::logic_error("no embedded kernel file '" + file + "' (embedded:" + known + ")");
}

}  // namespace iso
