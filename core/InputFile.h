#pragma once
// Reading files that come from outside, bounded: a reader states how much it takes, and a file that is
// larger, endless (/dev/zero), a folder, or a device that is not harmless to open (FileTarget.h) is
// refused with a message instead of filling memory or waiting for ever. A FIFO or /dev/stdin is read
// as a stream (a FIFO with no writer reads as empty, not as a wait).
#include <cstddef>
#include <cstdint>
#include <string>

#include "core/FileTarget.h"

namespace iso {

// The whole file, at most maxBytes. `what` names it in messages ("scenario file"): "cannot open <what>
// '<path>' (reason)", "<what> '<path>' is a directory", "<what> '<path>' is larger than N MiB ...".
// Throws FileReadError.
std::string readInputFile(const std::string& path, std::size_t maxBytes, const std::string& what = "file");

// For the readers that check a file's length against its header before allocating (arrays,
// checkpoints, cache entries): the size of the regular file at `path`. Throws FileReadError, in the same
// words, for anything else (a FIFO, a device, a folder, nothing).
std::uint64_t regularInputSize(const std::string& path, const std::string& what = "file");

}  // namespace iso
