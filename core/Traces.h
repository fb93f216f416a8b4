#pragma once
// Receiver traces on disk. `traces` uses WaveSolver::traces()'s layout: traces[n*R + r] is receiver r
// at time (n+1)·dt, R = receivers.size().
#include <string>
#include <vector>

#include "core/Problem.h"
#include "core/Scenario.h"
#include "core/SegyWriter.h"

namespace iso {

// CSV: a header "time_s,r0_i24_j64_k28,..." (interior cells), then one row per sample with its time.
// Both writers replace the file whole or not at all (OutputFile.h). Throw FileWriteError naming the
// file (unwritable, disk full) or std::invalid_argument (size mismatch).
void saveTracesCsv(const std::string& path, const std::vector<float>& traces,
                   const std::vector<ReceiverSpec>& receivers, double dt);

// .npy float32 of shape (samples, receivers).
void saveTracesNpy(const std::string& path, const std::vector<float>& traces, std::size_t receiverCount);

// A SEG-Y rev 1 shot gather (SegyWriter.h) of a run of `scenario` with time step dt: one trace per
// receiver, in the scenario's order; the first sample is u^0 at t = 0 (`initial`: one value per
// receiver, initialReceiverValues), then the recorded samples at dt, 2·dt, … Positions are metres from
// the first interior cell (cell · dx), depth down; the textual header says what made the file. The
// report's notes say what the headers had to round.
SegyWriteReport saveTracesSegy(const std::string& path, const std::vector<float>& traces, const Scenario& scenario,
                               double dt, const std::vector<float>& initial);

// u^0 at each receiver of the problem (0 unless the scenario starts from a field, the oneAPI cubes).
std::vector<float> initialReceiverValues(const Problem& problem);
// The same from the scenario and its velocity model (m/s): builds the problem only when u^0 is not zero.
std::vector<float> initialReceiverValues(const Scenario& scenario, const std::vector<float>& velocity);

// The kind of traces file a name asks for, by its extension (case-insensitive): .npy, .sgy/.segy, else CSV.
enum class TraceFormat { Csv, Npy, Segy };
TraceFormat traceFormatOf(const std::string& path);

// Writes the traces in the format the name asks for; `initial` is used by SEG-Y only. Returns what the
// user should know about the file (SEG-Y's rounding), one sentence each; usually nothing.
std::vector<std::string> saveTraces(const std::string& path, const std::vector<float>& traces, const Scenario& scenario,
                                    double dt, const std::vector<float>& initial);

}  // namespace iso
