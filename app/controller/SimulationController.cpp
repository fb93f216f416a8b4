#include "app/controller/SimulationController.h"

#include <algorithm>
#include <cmath>
#include <set>
#include <stdexcept>

#include "compute/SolverFactory.h"
#include "compute/Stage.h"
#include "core/VelocityModel.h"

namespace iso {
namespace {

using Clock = std::chrono::steady_clock;

// Whether two scenarios differ at most in their run length, which changes no solver.
bool sameButSteps(Scenario a, Scenario b) {
  a.steps = b.steps = 0;
  return scenarioToJson(a) == scenarioToJson(b);
}

constexpr double kCounterWindowSeconds = 0.25;  // counters refresh about four times a second
constexpr double kSmoothing = 0.5;              // weight of the newest window in the smoothed counters

// Splits "first line\nrest" so that the panel shows one line and the details hold the rest (build logs).
ControllerEvent errorEvent(const std::string& prefix, const std::string& what) {
  ControllerEvent e;
  e.kind = ControllerEvent::Kind::Error;
  const auto newline = what.find('\n');
  e.message = prefix + what.substr(0, newline);
  if (newline != std::string::npos) e.details = what;
  return e;
}

}  // namespace

// OpenCL–OpenGL sharing (cl_khr_gl_sharing) would let the view take the slices from the device's own
// buffer; a device without it (NVIDIA's OpenCL lists none, whatever OpenGL context exists in the
// process) sends them through host memory.
std::string deviceResidentNote(const DeviceInfo& device) {
  if (device.hasExtension("cl_khr_gl_sharing"))
    return device.name + " offers cl_khr_gl_sharing; the view still takes the slices through host memory";
  return device.name + " offers no cl_khr_gl_sharing: the slices cross host memory";
}

namespace {

// The roofline ceiling of a run on `device` (Stage::device(selector)), or of slabs on the several
// devices `selector` names: their ceilings together, a device named twice counted once.
RooflineCeiling slabsCeiling(const Stage& stage, const std::optional<DeviceInfo>& device, const std::string& selector) {
  if (!device || !namesSeveralDevices(selector)) return stage.rooflineCeiling(device);
  std::set<std::string> distinct;
  RooflineCeiling all;
  for (const DeviceInfo& d : selectDevices(selector))
    if (distinct.insert(d.selector()).second) all.gbs += stage.rooflineCeiling(d).gbs;
  all.name = distinct.size() > 1 ? std::to_string(distinct.size()) + " devices' copy bandwidth" : "device copy bandwidth";
  return all;
}

}  // namespace

BuiltSimulation buildSimulation(const Scenario& scenario) {
  BuiltSimulation built;
  built.velocity = buildVelocityModel(scenario);  // kept exact: the overlay, the probe and checkpoints use it
  Problem problem = buildProblem(scenario, built.velocity);
  built.dt = problem.dt;
  built.dx = problem.dx;
  built.stability = problem.stability;
  built.absorbingCells = boundaryLayerCells(problem);
  const Stage& stage = resolveStage(scenario.stage);
  const std::optional<DeviceInfo> device = stage.device(scenario.device);  // once: the solver runs on this one
  built.onHostCores = !device || device->type == "CPU";
  if (device && !built.onHostCores) built.deviceResidentNote = deviceResidentNote(*device);
  const RooflineCeiling ceiling = slabsCeiling(stage, device, scenario.device);  // 0 when unknown: the counters say so
  built.ceilingGBs = ceiling.gbs;
  built.ceilingName = ceiling.name;
  built.solver = createSolver(std::move(problem), executionConfig(scenario), device);
  built.ownBytesPerPoint = stage.bytesPerPointStep(built.solver->parameters());
  return built;
}

SimulationController::SimulationController(SimulationBuilder builder) : builder_(std::move(builder)) {
  status_.transferPath = transferPath();
}

SimulationController::~SimulationController() { stop(); }

void SimulationController::start() {
  if (thread_.joinable()) return;
  stop_ = false;
  thread_ = std::thread([this] { run(); });
}

void SimulationController::stop() {
  {
    std::lock_guard lock(commandMutex_);  // so that a waiting thread cannot miss the flag
    stop_ = true;
  }
  commandReady_.notify_all();
  if (thread_.joinable()) thread_.join();
}

// ---- commands (any thread) ----

template <class Change>
void SimulationController::queue(Change&& change) {
  {
    std::lock_guard lock(commandMutex_);
    change(pending_);
  }
  commandReady_.notify_all();
}

void SimulationController::setScenario(const Scenario& scenario) {
  queue([&](Commands& c) {
    c.scenario = scenario;
    c.restore.reset();  // the later request wins
  });
}
void SimulationController::reset() {
  queue([](Commands& c) { c.reset = true; });
}
void SimulationController::setPlaying(bool playing) {
  queue([&](Commands& c) {
    c.playing = playing;
    c.playRequest = ++playRequests_;
  });
}
void SimulationController::singleStep(int steps) {
  queue([=](Commands& c) { c.singleSteps += std::max(0, steps); });
}
void SimulationController::setStepsPerFrame(int steps) {
  queue([=](Commands& c) { c.stepsPerFrame = std::max(1, steps); });
}
void SimulationController::setSlicePoint(int i, int j, int k) {
  queue([=](Commands& c) { c.slicePoint = std::array<int, 3>{i, j, k}; });
}
void SimulationController::setPauseAtStep(long step) {
  queue([=](Commands& c) { c.pauseAtStep = step; });
}
void SimulationController::setFrameStream(long every) {
  queue([=](Commands& c) { c.frameStream = std::max(0L, every); });
}
void SimulationController::setRunEnd(RunEnd end) {
  queue([=](Commands& c) { c.runEnd = end; });
}

void SimulationController::requestSnapshot(SnapshotReceiver receive) {
  queue([&](Commands& c) { c.snapshots.push_back(std::move(receive)); });
}

void SimulationController::setFieldTap(FieldTap tap) {
  queue([&](Commands& c) {
    if (c.fieldTap && c.fieldTap->removed) c.fieldTap->removed();  // replaced before it was applied
    c.fieldTap = std::move(tap);
  });
}

void SimulationController::restoreCheckpoint(Checkpoint checkpoint) {
  queue([&](Commands& c) {
    c.restore = std::move(checkpoint);
    c.scenario.reset();  // the checkpoint's scenario replaces a change still waiting
  });
}

void SimulationController::setPublishListener(std::function<void()> listener) {
  auto shared = listener ? std::make_shared<const std::function<void()>>(std::move(listener)) : nullptr;
  std::lock_guard lock(listenerMutex_);
  publishListener_ = std::move(shared);
}

void SimulationController::setComputeTurn(std::shared_ptr<std::mutex> turn) {
  std::lock_guard lock(listenerMutex_);
  computeTurn_ = std::move(turn);
}

void SimulationController::setSliceRing(std::shared_ptr<SliceRing> ring, std::string hostReason) {
  queue([&](Commands& c) { c.slicePath = Commands::SlicePath{std::move(ring), std::move(hostReason)}; });
}

void SimulationController::setVolumeView(std::shared_ptr<const VolumeView> view) {
  queue([&](Commands& c) { c.volume = std::move(view); });
}

long SimulationController::playRequests() const {
  std::lock_guard lock(commandMutex_);
  return playRequests_;
}

// ---- GUI side ----

ControllerStatus SimulationController::status() const {
  std::lock_guard lock(statusMutex_);
  return status_;
}

std::vector<ControllerEvent> SimulationController::takeEvents() {
  std::lock_guard lock(statusMutex_);
  std::vector<ControllerEvent> out(events_.begin(), events_.end());
  events_.clear();
  return out;
}

Scenario SimulationController::activeScenario() const {
  std::lock_guard lock(statusMutex_);
  return activeScenario_;
}

std::array<std::shared_ptr<PictureRenderer>, 2> SimulationController::makePictures(WaveSolver& solver) {
  try {
    return {solver.makePictureRenderer(), solver.makePictureRenderer()};
  } catch (const std::exception& e) {
    // The view's OpenGL draws the pictures then, as for a solver without a renderer.
    std::lock_guard lock(statusMutex_);
    events_.push_back(errorEvent("Pictures cannot be made on the solver's device (OpenGL draws them): ", e.what()));
    return {};
  }
}

std::shared_ptr<PictureRenderer> SimulationController::pictureRenderer(PictureUse use) const {
  std::lock_guard lock(statusMutex_);
  return pictureRenderers_[use == PictureUse::Recording ? 0 : 1];
}

std::shared_ptr<const SliceSet> SimulationController::velocitySlices() const {
  std::lock_guard lock(statusMutex_);
  return velocitySlices_;
}

std::shared_ptr<const LiveTraces> SimulationController::liveTraces() const {
  std::lock_guard lock(statusMutex_);
  return liveTraces_;
}

// ---- compute thread ----

void SimulationController::run() {
  windowStart_ = Clock::now();
  while (!stop_) {
    const bool idle = !sim_.solver || (!playing_ && singleStepsLeft_ == 0);
    if (idle) finishFrame();
    // The view shows the step the run rests on (a stream's frame: not over one the reader has yet to take).
    if (idle && slicesBehind_) publishWaitedFor(frameStream_ > 0);
    Commands commands = waitForCommands(idle);
    if (stop_) break;
    apply(commands);
    if (sim_.solver && (playing_ || singleStepsLeft_ > 0)) advanceBatch();
  }
  finishFrame();  // no slot stays written to once the thread has ended
  unlockRingSlots();
  dropFieldTap();
}

SimulationController::Commands SimulationController::waitForCommands(bool idle) {
  std::unique_lock lock(commandMutex_);
  const auto ready = [this] { return stop_ || pending_.any(); };
  // Slices that found no free slot of the ring are tried again shortly: the reader frees slots without
  // a command.
  if (idle && slicesBehind_)
    commandReady_.wait_for(lock, std::chrono::milliseconds(kSlotRetryMs), ready);
  else if (idle)
    commandReady_.wait(lock, ready);
  Commands out = std::move(pending_);
  pending_ = Commands{};
  return out;
}

void SimulationController::apply(Commands& c) {
  if (c.stepsPerFrame) stepsPerFrame_ = *c.stepsPerFrame;
  if (c.pauseAtStep) pauseAtStep_ = *c.pauseAtStep;
  if (c.frameStream) {
    frameStream_ = *c.frameStream;
    if (ring_) ring_->setStream(frameStream_ > 0);
  }
  if (c.runEnd) runEnd_ = *c.runEnd;
  if (c.scenario && sim_.solver && c.scenario->steps != activeScenario_.steps && sameButSteps(*c.scenario, activeScenario_)) {
    // A new run length only moves the end: the run goes on without a rebuild.
    lastRequested_ = *c.scenario;
    std::lock_guard lock(statusMutex_);
    activeScenario_ = *c.scenario;
    status_.runLength = activeScenario_.steps;
    c.scenario.reset();
  }
  // Play at the end of a stopped run starts it again, as a player does.
  const bool replay = c.playing && *c.playing && !c.scenario && !c.restore && !c.reset && atRunEnd();
  if (c.playing) {
    playing_ = *c.playing;
    singleStepsLeft_ = 0;
  }
  if (c.slicePoint) slicePoint_ = *c.slicePoint;
  if (c.slicePath) {
    finishFrame();  // into the ring it was written for
    unlockRingSlots();
    ring_ = std::move(c.slicePath->ring);
    if (ring_) ring_->setStream(frameStream_ > 0);
    hostReason_ = std::move(c.slicePath->hostReason);
    std::lock_guard lock(statusMutex_);
    status_.transferPath = transferPath();
  }
  if (c.volume) {
    volumeRequest_ = std::move(*c.volume);
    updateVolumeView();
  }
  bool republished = false;  // a successful rebuild publishes slices through the new slice point
  if (c.restore) {
    republished = restore(*c.restore);
  } else if (c.scenario) {
    republished = rebuild(*c.scenario);
  } else if (c.reset) {
    // Before any successful build, Reset retries the scenario that was asked for last.
    republished = rebuild(sim_.solver ? activeScenario() : lastRequested_);
  } else if (replay) {
    republished = restartRun();
  }
  singleStepsLeft_ += c.singleSteps;
  if (sim_.solver && !republished) {  // the slices shown move to the new point or path
    if (c.slicePoint) updateVelocitySlices();
    if (c.slicePoint || c.slicePath) publishSlices();
    // A new volume view: the next frame has it, and a run that rests (or comes to rest: a pause step
    // reached at once) publishes one with it.
    if (c.volume) slicesBehind_ = true;
  }
  for (const SnapshotReceiver& receive : c.snapshots) deliverSnapshot(receive);
  if (c.fieldTap) {  // after a rebuild in the same commands: the tap samples the new run
    dropFieldTap();
    if (c.fieldTap->sample && sim_.solver) {
      fieldTap_ = std::move(c.fieldTap);
      nextTapStep_ = sim_.solver->currentStep();
      try {
        sampleField();
      } catch (const std::exception& e) {
        solverFailed(e);
      }
    } else if (c.fieldTap->removed) {
      c.fieldTap->removed();
    }
  }
  std::lock_guard lock(statusMutex_);
  status_.playing = playing_;
  if (c.playRequest) status_.playRequestsApplied = c.playRequest;
  status_.runEnd = runEnd_;
}

void SimulationController::deliverSnapshot(const SnapshotReceiver& receive) {
  if (!sim_.solver) {
    receive(std::nullopt, "no simulation is running");
    return;
  }
  std::optional<SimulationSnapshot> snapshot;
  std::string error;
  try {
    snapshot = SimulationSnapshot{activeScenario(), sim_.velocity, sim_.solver->saveState(), sim_.dt, sim_.dx,
                                  sim_.solver->stage(), sim_.solver->deviceName()};
  } catch (const std::exception& e) {
    snapshot.reset();
    error = e.what();
  }
  receive(std::move(snapshot), std::move(error));
}

void SimulationController::sampleField() {
  std::vector<float> field;
  sim_.solver->readField(field);
  const long step = sim_.solver->currentStep();
  nextTapStep_ = step + std::max(1L, fieldTap_->every);
  bool keep = false;
  try {
    keep = fieldTap_->sample(step, double(step) * sim_.dt, std::move(field));
  } catch (const std::exception& e) {  // the tap's own failure ends the tap, not the run
    std::lock_guard lock(statusMutex_);
    events_.push_back(errorEvent("The wavefield series stopped: ", e.what()));
  }
  if (!keep) dropFieldTap();
}

void SimulationController::dropFieldTap() {
  if (!fieldTap_) return;
  const FieldTap tap = std::move(*fieldTap_);
  fieldTap_.reset();
  if (tap.removed) tap.removed();
}

bool SimulationController::restore(const Checkpoint& checkpoint) {
  if (!rebuild(checkpoint.scenario)) return false;
  try {
    // The model is rebuilt from the scenario; a model file changed since the save would silently
    // continue another experiment.
    if (sim_.velocity != checkpoint.velocity)
      throw std::runtime_error("the velocity model built from its scenario differs from the one it was saved with "
                               "(has the model file changed?); the run starts at step 0 instead");
    sim_.solver->restoreState(checkpoint.state);
    {
      std::lock_guard lock(statusMutex_);
      status_.step = sim_.solver->currentStep();
      status_.time = double(status_.step) * sim_.dt;
    }
    publishTraces(true);
  } catch (const std::exception& e) {
    std::lock_guard lock(statusMutex_);
    events_.push_back(errorEvent("Could not restore the saved state: ", e.what()));
    return true;  // the rebuilt simulation runs and has published its slices
  }
  publishSlices();
  return true;
}

bool SimulationController::rebuild(const Scenario& scenario) {
  lastRequested_ = scenario;
  finishFrame();  // the read belongs to the solver that is replaced
  bool built = false;
  {
    std::lock_guard lock(statusMutex_);
    status_.rebuilding = true;
  }
  try {
    BuiltSimulation next = builder_(scenario);
    if (!next.solver) throw std::runtime_error("the solver builder returned no solver");
    sim_ = std::move(next);  // the previous solver is released only now that the new one works
    ++builds_;               // and its locks on the ring's slots with it
    dropFieldTap();          // it sampled the run that has just ended
    secondsPerStep_ = 0.0;
    windowComputeSeconds_ = windowSteps_ = 0.0;
    windowStart_ = Clock::now();
    windowSlabs_ = slabCounters(*sim_.solver);
    std::array<std::shared_ptr<PictureRenderer>, 2> pictures = makePictures(*sim_.solver);
    {
      std::lock_guard lock(statusMutex_);
      pictureRenderers_ = std::move(pictures);
      activeScenario_ = scenario;
      ControllerStatus& s = status_;
      s.hasSolver = true;
      s.step = sim_.solver->currentStep();
      s.dt = sim_.dt;
      s.dx = sim_.dx;
      s.time = double(s.step) * sim_.dt;
      s.grid = sim_.solver->grid();
      s.stage = sim_.solver->stage();
      s.device = sim_.solver->deviceName();
      s.ceilingName = sim_.ceilingName;
      s.onHostCores = sim_.onHostCores;
      s.deviceResidentNote = sim_.deviceResidentNote;
      s.stability = sim_.stability;
      s.absorbingCells = sim_.absorbingCells;
      s.throughput = computeThroughput(0.0, 0.0, 0.0, sim_.ceilingGBs, sim_.ownBytesPerPoint);  // no rate yet
      s.slabs.clear();
      s.runLength = scenario.steps;
      ++s.generation;
      events_.push_back({ControllerEvent::Kind::Rebuilt, sim_.stability.summary(), {}});
    }
    updateVelocitySlices();
    updateVolumeView();
    publishSlices();
    publishTraces(true);
    built = true;
  } catch (const std::exception& e) {
    std::lock_guard lock(statusMutex_);
    events_.push_back(errorEvent(sim_.solver ? "Change not applied (the previous run goes on): "
                                             : "Could not start the simulation: ",
                                 e.what()));
  }
  std::lock_guard lock(statusMutex_);
  status_.rebuilding = false;
  return built;
}

void SimulationController::advanceBatch() {
  WaveSolver& solver = *sim_.solver;
  // No step past a stream's frame that is not published yet.
  if (frameStream_ > 0 && slicesBehind_ && !publishWaitedFor(true)) return;
  const bool singleStepping = !playing_;
  long steps = singleStepping ? singleStepsLeft_ : stepsPerFrame_;
  if (frameStream_ > 0) steps = std::min(steps, frameStream_ - solver.currentStep() % frameStream_);
  // Batches of about kBatchSeconds at most keep pause, stop and parameter changes responsive.
  const long budget = secondsPerStep_ > 0.0 ? std::max(1L, long(kBatchSeconds / secondsPerStep_)) : 1L;
  steps = std::min(steps, budget);
  const long stopAt = stopStep();
  // Looping: the end of a playing run sends it back to step 0 (a run of 0 steps cannot loop).
  const bool loops = playing_ && pauseAtStep_ < 0 && runEnd_ == RunEnd::Loop && stopAt > 0;
  if (stopAt >= 0) steps = std::min(steps, stopAt - solver.currentStep());
  if (fieldTap_) steps = std::min(steps, nextTapStep_ - solver.currentStep());  // >= 1: sampled at the last
  if (steps <= 0) {  // already at the pause step or the end
    if (loops && restartRun()) {
      std::lock_guard lock(statusMutex_);
      ++status_.loops;
    } else {
      pauseBySelf();
    }
    return;
  }

  std::shared_ptr<std::mutex> turnMutex;  // kept alive while held, whatever setComputeTurn does meanwhile
  {
    std::lock_guard lock(listenerMutex_);
    turnMutex = computeTurn_;
  }
  std::unique_lock<std::mutex> turn;  // held only while the solver computes
  if (turnMutex) turn = std::unique_lock(*turnMutex);
  const auto start = Clock::now();
  double computeSeconds = 0.0;
  try {
    computeSeconds = solver.advance(int(steps));
    if (turn.owns_lock()) turn.unlock();
    finishFrame();  // a ring frame started after the last batch has arrived behind it
    // While playing, slices are extracted only when the reader has taken the last ones (and the ring has
    // a free slot); the frame a run stops on is always published, at once. A read left on its way is
    // published a batch later, and the next one starts only once that frame is taken: so only where two
    // batches fit in a frame of the display.
    const bool stopsHere = singleStepping ? singleStepsLeft_ <= steps : stopAt >= 0 && solver.currentStep() >= stopAt;
    const bool waitForRead = stopsHere || secondsPerStep_ * double(steps) > kDeferredReadBatchSeconds;
    if (frameStream_ > 0) {
      if (stopsHere || solver.currentStep() % frameStream_ == 0) publishStreamFrame(waitForRead);
    } else if (!((stopsHere || !slicesUnread()) && publishSlices(waitForRead))) {
      slicesBehind_ = true;
      framesSkipped_.fetch_add(1, std::memory_order_relaxed);
    }
    if (fieldTap_ && solver.currentStep() == nextTapStep_) sampleField();
  } catch (const std::exception& e) {
    if (turn.owns_lock()) turn.unlock();
    solverFailed(e);
    return;
  }
  const auto end = Clock::now();
  const double wallSeconds = std::chrono::duration<double>(end - start).count();
  const double perStep = wallSeconds / double(steps);
  secondsPerStep_ = secondsPerStep_ > 0.0 ? 0.7 * secondsPerStep_ + 0.3 * perStep : perStep;
  if (singleStepping) singleStepsLeft_ -= int(steps);
  if (stopAt >= 0 && solver.currentStep() >= stopAt && !loops) pauseBySelf();

  windowComputeSeconds_ += computeSeconds;
  windowSteps_ += double(steps);
  const double windowWall = std::chrono::duration<double>(end - windowStart_).count();
  // A run that comes to rest folds in what it timed, so a short run does not leave the counters empty.
  const bool comesToRest = !playing_ && singleStepsLeft_ <= 0;
  publishTraces(comesToRest);

  std::lock_guard lock(statusMutex_);
  ControllerStatus& s = status_;
  s.playing = playing_;
  s.step = solver.currentStep();
  s.time = double(s.step) * sim_.dt;
  if (windowWall >= kCounterWindowSeconds || comesToRest) {
    const double points = double(s.grid.interiorSize());
    const Throughput now =
        computeThroughput(points, windowSteps_, windowComputeSeconds_, sim_.ceilingGBs, sim_.ownBytesPerPoint);
    if (s.throughput.mpts <= 0.0) {
      s.throughput = now;
    } else {
      // Every counter is proportional to points per second: recompute them all from the blended rate.
      const double mpts = (1.0 - kSmoothing) * s.throughput.mpts + kSmoothing * now.mpts;
      s.throughput = computeThroughput(mpts * 1e6, 1.0, 1.0, sim_.ceilingGBs, sim_.ownBytesPerPoint);
    }
    s.slabs = slabRates(solver);
    windowComputeSeconds_ = windowSteps_ = 0.0;
    windowStart_ = end;
  }
}

std::vector<ControllerStatus::SlabRate> SimulationController::slabRates(const WaveSolver& solver) {
  const std::vector<SlabCounter> now = slabCounters(solver);
  std::vector<ControllerStatus::SlabRate> rates;
  const double pointsPerPlane = double(solver.grid().n1) * double(solver.grid().n2);
  for (std::size_t n = 0; n < now.size() && n < windowSlabs_.size() && windowComputeSeconds_ > 0.0; ++n)
    rates.push_back({now[n].device, now[n].firstPlane, now[n].planes,
                     pointsPerPlane * now[n].planes * windowSteps_ / windowComputeSeconds_ / 1e6,
                     (now[n].kernelSeconds - windowSlabs_[n].kernelSeconds) / windowComputeSeconds_});
  windowSlabs_ = now;
  return rates;
}

long SimulationController::stopStep() const {
  if (pauseAtStep_ >= 0) return pauseAtStep_;
  // activeScenario_ is written only by this thread, so reading it here needs no lock.
  return runEnd_ == RunEnd::RunOn ? -1 : long(activeScenario_.steps);
}

bool SimulationController::atRunEnd() const {
  return sim_.solver && runEnd_ == RunEnd::Stop && pauseAtStep_ < 0 &&
         sim_.solver->currentStep() >= long(activeScenario_.steps);
}

bool SimulationController::restartRun() {
  const Scenario again = activeScenario_;
  return rebuild(again);
}

void SimulationController::publishTraces(bool now) {
  const auto start = Clock::now();
  if (!now && start < nextTraces_) return;
  auto live = std::make_shared<LiveTraces>();
  live->receivers = activeScenario_.receivers;
  live->dt = sim_.dt;
  const std::size_t count = live->receivers.size();
  if (count > 0) {
    try {
      // The solver hands out its whole record; only the tail is kept.
      const std::vector<float> all = sim_.solver->traces();
      const std::size_t samples = all.size() / count;
      const std::size_t kept = std::min(samples, std::size_t(kLiveTraceSamples));
      live->firstSample = long(samples - kept);
      live->samples.assign(all.end() - std::ptrdiff_t(kept * count), all.end());
    } catch (const std::exception& e) {  // a device that fails a read fails the run, as in advanceBatch
      pauseBySelf();
      nextTraces_ = start + std::chrono::seconds(1);
      std::lock_guard lock(statusMutex_);
      events_.push_back(errorEvent("Reading the receivers' traces failed (paused; Reset rebuilds it): ", e.what()));
      return;
    }
  }
  // A long record makes the copy slow: then it is taken less often, at most a tenth of this thread's time.
  const auto end = Clock::now();
  nextTraces_ = end + std::max<Clock::duration>(std::chrono::duration_cast<Clock::duration>(
                                                    std::chrono::duration<double>(kTracePeriodSeconds)),
                                                10 * (end - start));
  std::lock_guard lock(statusMutex_);
  liveTraces_ = std::move(live);
}

void SimulationController::pauseBySelf() {
  playing_ = false;
  singleStepsLeft_ = 0;
  std::lock_guard lock(statusMutex_);
  status_.playing = false;
  ++status_.selfPauses;
}

std::array<int, 3> SimulationController::resolvedSlicePoint() const {
  const Grid& g = sim_.solver->grid();
  // activeScenario_ is written only by this thread, so reading it here needs no lock.
  const SourceSpec& source = activeScenario_.source;
  // An unset coordinate goes through where the wave starts, so the first frames show it: the point
  // source (an unset source coordinate is the centre, as in core/Problem.cpp), the innermost of the
  // oneAPI cubes (padded (nx/4, ny/4, nz/2), lying in every cube), or else the centre.
  std::array<int, 3> start{g.n1 / 2, g.n2 / 2, g.n3 / 2};
  if (source.kind == SourceKind::Ricker) {
    const std::array<int, 3> cell{source.i, source.j, source.k};
    for (int axis = 0; axis < 3; ++axis)
      if (cell[axis] >= 0) start[axis] = cell[axis];
  } else if (source.kind == SourceKind::OneApiCubes) {
    start = {g.nx() / 4 - kHalfLength, g.ny() / 4 - kHalfLength, g.nz() / 2 - kHalfLength};
  }
  const std::array<int, 3> n{g.n1, g.n2, g.n3};
  std::array<int, 3> point{};
  for (int axis = 0; axis < 3; ++axis)
    point[axis] = std::clamp(slicePoint_[axis] >= 0 ? slicePoint_[axis] : start[axis], 0, n[axis] - 1);
  return point;
}

bool SimulationController::publishSlices(bool wait) {
  finishFrame();
  const auto [i, j, k] = resolvedSlicePoint();
  if (!ring_) {
    SliceSet& back = slices_.back();
    back.imageWidth = back.imageHeight = 0;
    back.imageView.reset();
    if (volume_) back.imageWidth = volume_->width, back.imageHeight = volume_->height;  // room after the planes
    sim_.solver->extractSlices(i, j, k, back);
    if (volume_ && !startVolume({back.ownImage(), back.imagePixels()}, back)) {
      sim_.solver->finishSlices();
      back.imageSeconds = volumeSeconds_;
    }
    slices_.publish();
    slicesBehind_ = false;
    notifyPublished();
    return true;
  }
  const Grid& g = sim_.solver->grid();
  const std::size_t planeFloats = SliceSet::planeFloats(g.n1, g.n2, g.n3);
  lockRingSlots();
  const int slot = ring_->acquire(planeFloats + (volume_ ? volume_->pixels() : 0));
  if (slot < 0) {  // none free, or the reader has yet to make slots of this grid's (and image's) size
    slicesBehind_ = true;
    return false;
  }
  FrameOnItsWay f;
  f.slot = slot;
  f.frame.n1 = g.n1, f.frame.n2 = g.n2, f.frame.n3 = g.n3;
  f.frame.i = i, f.frame.j = j, f.frame.k = k;
  f.frame.step = sim_.solver->currentStep();
  bool written = false;
  try {
    const std::span<float> memory = ring_->planes(slot);
    written = sim_.solver->startSlices(i, j, k, memory.first(planeFloats));
    if (volume_)
      written = startVolume({reinterpret_cast<std::uint32_t*>(memory.data() + planeFloats), volume_->pixels()}, f.frame) &&
                written;
  } catch (...) {
    sim_.solver->finishSlices();  // nothing may still be writing into the slot
    ring_->abandon(slot);
    throw;
  }
  frameOnItsWay_ = std::move(f);
  slicesBehind_ = false;
  if (wait || written) finishFrame();
  return true;
}

bool SimulationController::publishWaitedFor(bool stream) {
  try {
    return stream ? publishStreamFrame(true) : publishSlices();
  } catch (const std::exception& e) {
    solverFailed(e);
    return false;
  }
}

bool SimulationController::publishStreamFrame(bool wait) {
  if (ring_) {
    if (publishSlices(wait)) return true;
    ring_->waitForFree(kStreamPatience);  // the next pass tries again, once the commands are applied
    return false;
  }
  // The triple buffer holds one frame: the reader must have taken the last one.
  if (!slices_.unread()) return publishSlices(true);
  slicesBehind_ = true;
  std::this_thread::sleep_for(kStreamPatience);
  return false;
}

void SimulationController::lockRingSlots() {
  if (slotLocks_.ring == ring_.get() && slotLocks_.build == builds_) return;
  unlockRingSlots();
  slotLocks_.ring = ring_.get();
  slotLocks_.build = builds_;
  slotLocks_.owner = ring_->owner();
  if (!slotLocks_.owner) return;  // closed: its memory may go at any time
  for (std::size_t slot = 0; slot < ring_->slotCount(); ++slot) {
    const std::span<float> memory = ring_->planes(int(slot));
    if (sim_.solver->lockHostMemory(memory)) slotLocks_.locked.push_back(memory);
  }
}

void SimulationController::unlockRingSlots() {
  // A solver rebuilt since has taken its locks with it.
  if (sim_.solver && slotLocks_.build == builds_)
    for (const std::span<float> memory : slotLocks_.locked) sim_.solver->unlockHostMemory(memory);
  slotLocks_ = SlotLocks{};
}

bool SimulationController::startVolume(std::span<std::uint32_t> rgba, SliceSet& frame) {
  volumeSeconds_ = 0.0;
  bool written = false;
  try {
    written = sim_.solver->startVolume(*volume_, rgba, &volumeSeconds_);
  } catch (const std::logic_error& e) {  // a view this solver cannot render (or none at all)
    volume_.reset();
    volumeRequest_.reset();
    frame.imageWidth = frame.imageHeight = 0;
    frame.image = {};
    std::lock_guard lock(statusMutex_);
    events_.push_back(errorEvent("The volume view cannot be rendered (the slices go on): ", e.what()));
    return true;
  }
  frame.imageWidth = volume_->width, frame.imageHeight = volume_->height;
  frame.imageView = volume_;
  frame.imageSeconds = volumeSeconds_;
  return written;
}

void SimulationController::updateVolumeView() {
  if (!volumeRequest_ || !sim_.solver) {
    volume_ = volumeRequest_;
    return;
  }
  const Grid& g = sim_.solver->grid();
  const std::array<int, 3> n{g.n1, g.n2, g.n3};
  auto view = std::make_shared<VolumeView>(*volumeRequest_);
  for (int a = 0; a < 3; ++a) view->marginCells[a] = std::min(sim_.absorbingCells[a], (n[a] - 1) / 2);
  if (view->planeAxis >= 0 && view->planeAxis < 3) view->planeCell = std::clamp(view->planeCell, 0, n[view->planeAxis] - 1);
  volume_ = std::move(view);
}

void SimulationController::finishFrame() {
  if (!frameOnItsWay_) return;
  FrameOnItsWay f = std::move(*frameOnItsWay_);
  frameOnItsWay_.reset();
  try {
    sim_.solver->finishSlices();
    if (f.frame.imageView) f.frame.imageSeconds = volumeSeconds_;
    ring_->publish(f.slot, f.frame);
  } catch (const std::exception& e) {
    ring_->abandon(f.slot);
    solverFailed(e);
    return;
  }
  notifyPublished();
}

void SimulationController::notifyPublished() {
  std::shared_ptr<const std::function<void()>> listener;
  {
    std::lock_guard lock(listenerMutex_);
    listener = publishListener_;
  }
  if (listener) (*listener)();
}

bool SimulationController::slicesUnread() const {
  return ring_ ? frameOnItsWay_ || ring_->unread() : slices_.unread();
}

std::string SimulationController::transferPath() const {
  if (ring_) return ring_->name() + ": 1 host copy per frame";
  return "host copy (triple buffer): 2 host copies per frame" + (hostReason_.empty() ? "" : " (" + hostReason_ + ")");
}

void SimulationController::solverFailed(const std::exception& e) {
  pauseBySelf();
  dropFieldTap();
  std::lock_guard lock(statusMutex_);
  events_.push_back(errorEvent("The solver failed (paused; Reset rebuilds it): ", e.what()));
}

void SimulationController::updateVelocitySlices() {
  const Grid& g = sim_.solver->grid();
  auto v = std::make_shared<SliceSet>();
  v->n1 = g.n1;
  v->n2 = g.n2;
  v->n3 = g.n3;
  const auto point = resolvedSlicePoint();
  v->i = point[0];
  v->j = point[1];
  v->k = point[2];
  if (sim_.velocity.size() == g.interiorSize()) {
    const auto at = [&](int i, int j, int k) {
      return sim_.velocity[(std::size_t(k) * g.n2 + std::size_t(j)) * g.n1 + std::size_t(i)];
    };
    float* xy = v->ownPlanes();
    float* xz = xy + std::size_t(g.n1) * g.n2;
    float* yz = xz + std::size_t(g.n1) * g.n3;
    for (int j = 0; j < g.n2; ++j)
      for (int i = 0; i < g.n1; ++i) xy[std::size_t(j) * g.n1 + i] = at(i, j, v->k);
    for (int k = 0; k < g.n3; ++k)
      for (int i = 0; i < g.n1; ++i) xz[std::size_t(k) * g.n1 + i] = at(i, v->j, k);
    for (int k = 0; k < g.n3; ++k)
      for (int j = 0; j < g.n2; ++j) yz[std::size_t(k) * g.n2 + j] = at(v->i, j, k);
  }
  std::lock_guard lock(statusMutex_);
  velocitySlices_ = std::move(v);
}

void playWhenBuilt(SimulationController& controller, const Scenario& scenario, int stepsPerFrame) {
  controller.setScenario(scenario);
  controller.setStepsPerFrame(stepsPerFrame);
  controller.setPlaying(true);
  controller.start();
  while (!controller.status().hasSolver) {
    for (const auto& e : controller.takeEvents())
      if (e.kind == ControllerEvent::Kind::Error) throw std::runtime_error(e.message);
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
}

}  // namespace iso
