#pragma once
// Receiver traces on disk. `traces` uses WaveSolver::traces()'s layout: traces[n*R + r] is receiver r
// at time (n+1)·dt, R = receivers.size().
#include <string>
#include <vector>

#include "core/Scenario.h"

namespace iso {

// CSV: a header "time_s,r0_i24_j64_k28,..." (interior cells), then one row per sample with its time.
// Both writers replace the file whole or not at all (OutputFile.h). Throw FileWriteError naming the
// file (unwritable, disk full) or std::invalid_argument (size mismatch).
void saveTracesCsv(const std::string& path, const std::vector<float>& traces,
                   const std::vector<ReceiverSpec>& receivers, double dt);

// .npy float32 of shape (samples, receivers).
void saveTracesNpy(const std::string& path, const std::vector<float>& traces, std::size_t receiverCount);

}  // namespace iso
