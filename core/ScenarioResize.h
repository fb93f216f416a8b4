#pragma once
// Changing a scenario's grid size while keeping its picture: positions and model geometry scale with
// the grid, so "the default scenario at 256³" is the default scenario, finer and larger.
#include "core/Scenario.h"

namespace iso {

// Returns `s` with interior sizes n1 × n2 × n3. Cell positions (source, receivers) scale with each axis
// and stay inside the grid; model geometry in metres (layer tops, gradient, salt body) scales with the
// domain's extent along its axis; dx, velocities, frequencies and the boundary width stay as they are.
Scenario resizedScenario(Scenario s, int n1, int n2, int n3);

}  // namespace iso
