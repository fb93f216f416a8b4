#pragma once
// A checkpoint: everything a run continues from bit for bit, in one file: the scenario (with its stage
// and parameters), the velocity model the run used, u^n and u^(n−1) on the padded grid, the step and
// the receiver samples so far. The format is in docs/FILES.md ("Checkpoints").
#include <stdexcept>
#include <string>
#include <vector>

#include "core/Scenario.h"
#include "core/WaveSolver.h"

namespace iso {

struct CheckpointError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

struct Checkpoint {
  Scenario scenario;
  std::vector<float> velocity;  // interior, m/s, C order (n3, n2, n1)
  SolverState state;
};

// Writes the file whole or not at all (core/OutputFile). Throws FileWriteError (unwritable, disk full) or
// CheckpointError (sizes that do not match the scenario's grid).
void saveCheckpoint(const std::string& path, const Checkpoint& checkpoint);

// Reads and checks a checkpoint: magic, version, header, sizes against the grid and the file's length
// (before anything grid-sized is allocated), and the checksum of the data. Throws CheckpointError
// naming the file and what is wrong.
Checkpoint loadCheckpoint(const std::string& path);

}  // namespace iso
