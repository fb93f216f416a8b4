#pragma once
// Builders of interior velocity models. Every model is in m/s, C order (n3, n2, n1), and interior cell
// (i, j, k) sits at (i·dx, j·dx, k·dx) metres from the interior origin (z = depth).
#include <cstddef>
#include <vector>

#include "core/Grid.h"
#include "core/Scenario.h"
#include "core/Volume.h"

namespace iso {

// The scenario's velocity model on its interior grid: built, or read from its file (resampled to the
// grid when the sizes differ), with its salt body drawn in. Throws ScenarioError.
std::vector<float> buildVelocityModel(const Scenario& s);

std::vector<float> constantModel(const Grid& g, double velocity);
// Each layer holds from its top down to the next layer's top; `layers` sorted by top, first top 0.
std::vector<float> layeredModel(const Grid& g, double dx, const std::vector<Layer>& layers);
// Linear in depth: `top` at k = 0, `bottom` at k = n3 - 1.
std::vector<float> gradientModel(const Grid& g, double dx, double top, double bottom);
// Gaussian-correlated random field: white noise (seeded mt19937, deterministic on every platform)
// smoothed by a separable Gaussian whose correlation function is exp(-r²/L²), then rescaled to exactly
// `mean` and `stdDev` over the grid and clipped to mean ± 3·stdDev.
// Throws ScenarioError when its working arrays (randomModelWorkBytes) exceed the available memory.
std::vector<float> randomModel(const Grid& g, double dx, double mean, double stdDev,
                               double correlationLength, unsigned seed);
// Peak bytes randomModel allocates: noise on the grid grown by 3σ of the smoothing on every side, in
// double, twice while a pass of the convolution runs. Grows with the cube of correlationLength / dx;
// saturates at SIZE_MAX.
std::size_t randomModelWorkBytes(const Grid& g, double dx, double correlationLength);
// Overwrites the cells whose centres lie inside the sphere.
void drawSaltBody(std::vector<float>& model, const Grid& g, double dx, const SaltBody& salt);
// Trilinear resampling with the corner cells of both grids aligned.
std::vector<float> resampleTrilinear(const Volume& src, const Grid& dst);

}  // namespace iso
