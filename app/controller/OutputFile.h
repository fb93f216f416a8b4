#pragma once
// Output paths checked against the inputs and each other before a run (the writers themselves are
// atomic: core/AtomicFile.h).
#include <filesystem>

namespace iso {

// Whether two paths name the same file, existing or not (so an output never overwrites an input).
bool samePath(const std::filesystem::path& a, const std::filesystem::path& b);

}  // namespace iso
