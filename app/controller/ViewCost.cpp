#include "app/controller/ViewCost.h"

#include <chrono>
#include <cstdio>
#include <memory>
#include <thread>
#include <vector>

#include "app/controller/SimulationController.h"
#include "compute/SolverFactory.h"

namespace iso {

namespace {

using Clock = std::chrono::steady_clock;

double secondsSince(Clock::time_point t) { return std::chrono::duration<double>(Clock::now() - t).count(); }

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
                                         SliceReaderPath path) {
  ViewCostResult r;
  r.aloneMpts = solverAloneMpts(s, stepsPerFrame, seconds);

  SimulationController controller;
  std::shared_ptr<SliceRing> ring;
  if (path == SliceReaderPath::Ring) {
    const std::size_t floats = SliceSet::planeFloats(s.n1, s.n2, s.n3);
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
  const auto readFor = [&](double duration) {
    long frames = 0;
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
  return r;
}

std::string formatViewCost(const ViewCostResult& r) {
  const std::string withView = "with " + r.viewName;
  char buf[1024];
  std::snprintf(buf, sizeof buf,
                "%s on %s, %dx%dx%d, %d steps per frame, %.1f s each\n"
                "%-*s: %10.1f Mpts/s\n"
                "%-*s: %10.1f Mpts/s, %.1f frames/s delivered, %llu batches without slices\n"
                "%-*s: %10.1f %% of the solver alone\n"
                "%-*s: %s\n",
                r.stage.c_str(), r.device.c_str(), r.grid.n1, r.grid.n2, r.grid.n3, r.stepsPerFrame, r.seconds,
                int(withView.size()), "solver alone", r.aloneMpts, int(withView.size()), withView.c_str(),
                r.withViewMpts, r.framesPerSecond, static_cast<unsigned long long>(r.batchesWithoutSlices),
                int(withView.size()), "ratio", r.ratioPercent(), int(withView.size()), "slices",
                r.slicePath.empty() ? "-" : r.slicePath.c_str());
  return buf;
}

}  // namespace iso
