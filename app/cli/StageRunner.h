#pragma once
// Runs one stage of a scenario for exactly `steps` steps — so every stage ends on the same u^N and can
// be compared — while timing it: one warm-up step, then the rest in equal timed chunks.
#include <memory>
#include <string>
#include <vector>

#include "Metrics.h"
#include "Problem.h"
#include "WaveSolver.h"

namespace iso::cli {

struct StageRun {
  std::string stage, device;
  int timedSteps = 0;
  std::vector<double> chunkSeconds;  // seconds per step, one entry per timed chunk
  Throughput throughput;             // from the median chunk
  std::vector<float> field;          // u^N, interior, when asked for
  std::unique_ptr<WaveSolver> solver;  // kept for dumps and traces
};

// `chunks` timed chunks (at least 1, fewer when there are fewer steps). Throws on any failure.
StageRun runStage(Problem problem, const ExecutionConfig& config, int steps, int chunks, bool keepField);

// The roofline ceiling for a stage: the OpenCL device's measured copy bandwidth, or the host's.
double ceilingGBs(const std::string& stage, const std::string& deviceSelector);

}  // namespace iso::cli
