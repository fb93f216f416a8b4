#pragma once
// What showing the live view costs the computation: the solver alone against the application's compute
// thread (SimulationController) while a view takes its slices. `iso3dfd view-cost` measures the view
// with an in-process reader at a given rate; the studio's --benchmark with its real window. Both take
// the reference and the report from here.
#include <cstdint>
#include <memory>
#include <string>

#include "core/Grid.h"
#include "core/Scenario.h"
#include "core/VolumeView.h"

namespace iso {

inline constexpr double kViewCostWarmupSeconds = 0.5;  // before each measurement: builds, caches, clocks

// How the reader gets the slices: the triple buffer, copying each frame it takes (the studio's host path),
// or a SliceRing of host memory slots standing in for the studio's mapped GL buffers (no GL here), holding
// each frame it takes until the next one, as the view does.
enum class SliceReaderPath { Host, Ring };

struct ViewCostResult {
  std::string stage, device;
  Grid grid;
  int stepsPerFrame = 0;
  double seconds = 0.0;                    // measured time of each of the two runs
  std::string viewName;                    // "a 60 Hz reader", "the window"
  std::string slicePath;                   // the controller's transfer path while measured
  double aloneMpts = 0.0, withViewMpts = 0.0;
  double framesPerSecond = 0.0;            // slices the view took (or drew) per second
  std::uint64_t batchesWithoutSlices = 0;  // batches whose slices nobody had taken (no extraction)
  // The volume view: the image's size (0: slices only) and the renderer's mean time per image taken.
  int imageWidth = 0, imageHeight = 0;
  double renderMs = 0.0;

  double ratioPercent() const { return aloneMpts > 0.0 ? 100.0 * withViewMpts / aloneMpts : 0.0; }
};

// Interior points per second of the scenario's stage alone, advancing `stepsPerFrame` steps at a time
// as the compute thread does, over `seconds` after a warm-up. Throws what building the solver throws.
double solverAloneMpts(const Scenario& scenario, int stepsPerFrame, double seconds);

// The solver alone, then the compute thread with a reader that takes the newest slices `fps` times a
// second through `path`, as the view does. With `volume`, each frame also carries a volume image rendered
// with that view; the reader keeps its colour range at the 98th percentile of the nonzero |u| of the
// frames' slices (what the view's automatic gain aims at), so that the renderer sees as much of the wave
// as the studio would show.
ViewCostResult measureViewCostWithReader(const Scenario& scenario, int stepsPerFrame, double seconds, double fps,
                                         SliceReaderPath path = SliceReaderPath::Host,
                                         std::shared_ptr<const VolumeView> volume = nullptr);

// The report both front ends print: the two rates, the frames, the ratio and the slices' path, and for
// the volume view the image's size and the renderer's time.
std::string formatViewCost(const ViewCostResult& result);

}  // namespace iso
