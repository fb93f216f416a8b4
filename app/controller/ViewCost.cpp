#include "app/controller/ViewCost.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <memory>
#include <stdexcept>
#include <thread>
#include <vector>

#include "app/controller/SimulationController.h"
#include "compute/SolverFactory.h"

namespace iso {

namespace {

using Clock = std::chrono::steady_clock;

double secondsSince(Clock::time_point t) { return std::chrono::duration<double>(Clock::now() - t).count(); }

// The 98th percentile of the nonzero |u| of a frame's planes (0 when all are zero).
float sliceRange(const SliceSet& frame) {
  std::vector<float> magnitudes;
  for (float v : frame.planes())
    if (v != 0.0f && std::isfinite(v)) magnitudes.push_back(std::abs(v));
  if (magnitudes.empty()) return 0.0f;
  const auto at = magnitudes.begin() + std::ptrdiff_t(0.98 * double(magnitudes.size() - 1));
  std::nth_element(magnitudes.begin(), at, magnitudes.end());
  return *at;
}

// Keeps the volume view's range near the frames' (within 10 %, so that a steady field is not sent again).
void followRange(SimulationController& controller, std::shared_ptr<const VolumeView>& volume, const SliceSet& frame) {
  const float range = sliceRange(frame);
  if (!volume || range <= 0.0f || std::abs(range - volume->clip) <= 0.1f * volume->clip) return;
  auto next = std::make_shared<VolumeView>(*volume);
  next->clip = range;
  volume = std::move(next);
  controller.setVolumeView(volume);
}

}  // namespace

double solverAloneMpts(const Scenario& s, int stepsPerFrame, double seconds) {
  auto solver = createSolver(buildProblem(s), resolveStage(s.stage).execution(s));
  for (const auto start = Clock::now(); secondsSince(start) < kViewCostWarmupSeconds;) solver->advance(stepsPerFrame);
  long done = 0;
  const auto start = Clock::now();
  while (secondsSince(start) < seconds) {
    solver->advance(stepsPerFrame);
    done += stepsPerFrame;
  }
  return double(solver->grid().interiorSize()) * double(done) / secondsSince(start) / 1e6;
}

ViewCostResult measureViewCostWithReader(const Scenario& s, int stepsPerFrame, double seconds, double fps,
                                         SliceReaderPath path, std::shared_ptr<const VolumeView> volume) {
  ViewCostResult r;
  r.aloneMpts = solverAloneMpts(s, stepsPerFrame, seconds);

  SimulationController controller;
  controller.setVolumeView(volume);
  std::shared_ptr<SliceRing> ring;
  if (path == SliceReaderPath::Ring) {
    const std::size_t floats = SliceSet::planeFloats(s.n1, s.n2, s.n3) + (volume ? volume->pixels() : 0);
    auto memory = std::make_shared<std::vector<std::vector<float>>>(SliceRing::kSlots, std::vector<float>(floats));
    std::vector<SliceRing::Slot> slots;
    for (std::vector<float>& slot : *memory) slots.push_back({slot.data(), slot.size()});
    ring = SliceRing::create(std::move(slots), memory, "host memory slots standing in for mapped GL buffers (no GL here)");
    controller.setSliceRing(ring);
  } else {
    controller.setSliceRing(nullptr, "--slice-path host");
  }
  playWhenBuilt(controller, s, stepsPerFrame);
  const auto period = std::chrono::duration_cast<Clock::duration>(std::chrono::duration<double>(1.0 / fps));
  auto next = Clock::now();
  std::shared_ptr<const SliceSet> shown;  // held until the next frame, as the view holds what it draws
  double renderSeconds = 0.0;
  long images = 0;
  const auto readFor = [&](double duration) {
    long frames = 0;
    renderSeconds = 0.0, images = 0;
    for (const auto start = Clock::now(); secondsSince(start) < duration;) {
      next += period;
      std::this_thread::sleep_until(next);
      if (ring) {
        auto frame = ring->take();
        if (!frame) continue;
        shown = std::move(frame);
      } else {
        if (!controller.slices().take()) continue;
        shown = std::make_shared<const SliceSet>(controller.slices().front().copy());
      }
      frames += shown->xy.empty() ? 0 : 1;
      if (shown->imageView) renderSeconds += shown->imageSeconds, ++images;
      if (!shown->xy.empty()) followRange(controller, volume, *shown);
    }
    return frames;
  };
  readFor(kViewCostWarmupSeconds);
  const ControllerStatus first = controller.status();
  const std::uint64_t skippedBefore = controller.framesSkipped();
  const auto start = Clock::now();
  const long frames = readFor(seconds);
  const double wall = secondsSince(start);
  const ControllerStatus last = controller.status();
  controller.stop();
  shown.reset();

  r.stage = last.stage;
  r.device = last.device;
  r.grid = last.grid;
  r.stepsPerFrame = stepsPerFrame;
  r.seconds = seconds;
  char name[48];
  std::snprintf(name, sizeof name, "a %.0f Hz reader", fps);
  r.viewName = name;
  r.slicePath = last.transferPath;
  r.withViewMpts = double(last.grid.interiorSize()) * double(last.step - first.step) / wall / 1e6;
  r.framesPerSecond = double(frames) / wall;
  r.batchesWithoutSlices = controller.framesSkipped() - skippedBefore;
  if (volume) {
    r.imageWidth = volume->width, r.imageHeight = volume->height;
    r.renderMs = images ? 1e3 * renderSeconds / double(images) : 0.0;
  }
  for (const ControllerEvent& e : controller.takeEvents())
    if (e.kind == ControllerEvent::Kind::Error) throw std::runtime_error(e.message);
  return r;
}

std::string formatViewCost(const ViewCostResult& r) {
  const std::string withView = "with " + r.viewName;
  const int w = int(std::max(withView.size(), std::string("volume image").size()));
  char buf[1024];
  int n = std::snprintf(buf, sizeof buf,
                        "%s on %s, %dx%dx%d, %d steps per frame, %.1f s each\n"
                        "%-*s: %10.1f Mpts/s\n"
                        "%-*s: %10.1f Mpts/s, %.1f frames/s delivered, %llu batches without slices\n"
                        "%-*s: %10.1f %% of the solver alone\n"
                        "%-*s: %s\n",
                        r.stage.c_str(), r.device.c_str(), r.grid.n1, r.grid.n2, r.grid.n3, r.stepsPerFrame, r.seconds, w,
                        "solver alone", r.aloneMpts, w, withView.c_str(), r.withViewMpts, r.framesPerSecond,
                        static_cast<unsigned long long>(r.batchesWithoutSlices), w, "ratio", r.ratioPercent(), w, "slices",
                        r.slicePath.empty() ? "-" : r.slicePath.c_str());
  if (r.imageWidth > 0 && n > 0 && std::size_t(n) < sizeof buf)
    std::snprintf(buf + n, sizeof buf - std::size_t(n), "%-*s: %dx%d, %.2f ms per image on %s (%.0f images/s alone)\n", w,
                  "volume image", r.imageWidth, r.imageHeight, r.renderMs, r.device.c_str(),
                  r.renderMs > 0.0 ? 1e3 / r.renderMs : 0.0);
  return buf;
}

}  // namespace iso
