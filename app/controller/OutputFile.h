#pragma once
// Output files are written whole or not at all: the content goes to a temporary file in the same folder
// (so the final rename stays on one file system and is atomic), is checked, and only then replaces the
// target. A failed write leaves the previous file as it was and throws.
#include <filesystem>
#include <functional>
#include <string>

namespace iso {

// `write` creates the file it is given (any writer that takes a path: .npy, traces, scenarios) and
// throws on failure. Throws std::runtime_error naming `path` when the target cannot be replaced.
void writeFileAtomically(const std::string& path, const std::function<void(const std::string& temporaryPath)>& write);
void writeTextFileAtomically(const std::string& path, const std::string& text);

// Whether two paths name the same file, existing or not (so an output never overwrites an input).
bool samePath(const std::filesystem::path& a, const std::filesystem::path& b);

}  // namespace iso
