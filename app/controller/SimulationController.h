#pragma once
// The compute thread of the application. It owns the solver (and so the OpenCL queue), advances it in
// batches of at most ~50 ms, and after each batch publishes the three orthogonal slices, into a ring of
// slots in the reader's memory (SliceRing: the view's mapped GL buffers) or else into a triple buffer,
// which the GUI reads whenever it likes: compute never waits for the GUI and the GUI never waits
// for compute. Commands from the GUI are queued and applied between batches; a scenario change rebuilds
// the solver here, on the compute thread. A failed rebuild is reported as an event and the previous
// solver keeps running (the last good state).
//
// Plain C++ (std::thread, std::mutex, atomics) and no Qt, so that ThreadSanitizer sees all of its
// synchronisation and a compare view can run several controllers side by side.
#include <array>
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <deque>
#include <exception>
#include <functional>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <thread>
#include <vector>

#include "compute/SlabCounters.h"
#include "core/Checkpoint.h"
#include "core/Metrics.h"
#include "core/Problem.h"
#include "core/Scenario.h"
#include "app/controller/SliceRing.h"
#include "app/controller/TripleBuffer.h"
#include "core/VolumeView.h"
#include "core/WaveSolver.h"

namespace iso {

// What a rebuild produces: the solver plus what the GUI shows about it.
struct BuiltSimulation {
  std::unique_ptr<WaveSolver> solver;
  double dt = 0.0, dx = 0.0;
  StabilityReport stability;
  std::vector<float> velocity;  // the velocity model (m/s), interior, C order (n3, n2, n1)
  std::array<int, 3> absorbingCells{0, 0, 0};  // the absorbing layer's width along x, y, z (0: none)
  double ceilingGBs = 0.0;      // measured copy bandwidth of the device (0 when unknown)
  std::string ceilingName;      // what that ceiling is, for the counters
  double ownBytesPerPoint = kTrafficBytesPerPoint;  // what the stage moves per point-step in its form
  bool onHostCores = false;     // the solver computes on the host's cores (a CPU stage or OpenCL CPU device)
  // For a solver on an OpenCL device: why its slices reach OpenGL through host memory rather than on
  // the device ("" for the CPU stages, whose field is in host memory anyway).
  std::string deviceResidentNote;
};

// A copy of the running simulation, taken between batches: what data export and checkpoints need.
struct SimulationSnapshot {
  Scenario scenario;            // the running one
  std::vector<float> velocity;  // interior, m/s, C order (n3, n2, n1)
  SolverState state;            // u^n and u^(n−1) padded, the step, the traces so far
  double dt = 0.0, dx = 0.0;
  std::string stage, device;
};
// Receives a snapshot, or an error message (no simulation built, a device error) with no snapshot.
using SnapshotReceiver = std::function<void(std::optional<SimulationSnapshot> snapshot, std::string error)>;

// The receivers' latest samples for the live display. Only the most recent kLiveTraceSamples samples of
// each receiver are kept here, so a run of any length (or one that loops forever) holds a bounded copy;
// the whole record stays with the solver (WaveSolver::traces(), 4 bytes per receiver and step).
struct LiveTraces {
  std::vector<ReceiverSpec> receivers;  // the running scenario's
  double dt = 0.0;
  long firstSample = 0;                 // index n of the first kept sample: u at time (n+1)·dt
  std::vector<float> samples;           // samples[(n − firstSample)·R + r], R = receivers.size()
  long count() const { return receivers.empty() ? 0 : long(samples.size() / receivers.size()); }
};

// What the run does when it reaches its scenario's `steps`: nothing (runs on), stop, or start again
// from step 0 (a reset). A pause step (setPauseAtStep) takes precedence while one is set.
enum class RunEnd { RunOn, Stop, Loop };

// Takes the wavefield every `every` steps on the compute thread (SimulationController::setFieldTap).
struct FieldTap {
  long every = 1;
  // u^n at step n, time n·dt: interior, C order (n3, n2, n1). May wait (a writer that is behind): the
  // run waits with it and never skips a sample. Returns false to be removed.
  std::function<bool(long step, double time, std::vector<float> field)> sample;
  // Called once when the tap goes: removed or replaced, false from sample(), a rebuild, reset, loop or
  // restore (the run it sampled has ended), a failed read, or the controller stopping.
  std::function<void()> removed;
};

// Builds a simulation from a scenario; throws (ScenarioError, std::runtime_error) with a user message.
using SimulationBuilder = std::function<BuiltSimulation(const Scenario&)>;

// buildProblem + createSolver, plus the device's roofline ceiling.
BuiltSimulation buildSimulation(const Scenario& scenario);

struct ControllerStatus {
  bool hasSolver = false;
  bool playing = false;
  bool rebuilding = false;
  long step = 0;
  double time = 0.0;  // simulated seconds, step·dt
  double dt = 0.0, dx = 0.0;
  Grid grid;
  std::string stage, device, ceilingName;
  bool onHostCores = false;    // as BuiltSimulation's
  std::string transferPath;    // how the slices reach the view, host copies per frame, why (setSliceRing)
  std::string deviceResidentNote;  // as BuiltSimulation's
  StabilityReport stability;
  std::array<int, 3> absorbingCells{0, 0, 0};  // as BuiltSimulation's
  Throughput throughput;       // smoothed over the last fraction of a second (compute time); mpts 0
                               // until a step is timed, ceilingGBs set from the build on
  long generation = 0;         // increments on every successful rebuild or reset
  long selfPauses = 0;         // increments when the controller pauses by itself (pause step, failure)
  // The setPlaying calls applied so far: while it is below playRequests(), a later Play or Pause is
  // still on its way and `playing` (and a self-pause) predates it.
  long playRequestsApplied = 0;
  long runLength = 0;          // the running scenario's `steps`
  RunEnd runEnd = RunEnd::RunOn;
  long loops = 0;              // restarts at the end of the run (RunEnd::Loop)
  // A grid cut into slabs over several devices (empty otherwise), over the window of `throughput`:
  // each slab's device, planes, share of the points per second, and how much of the time its device
  // computed (its kernels' time over the steps').
  struct SlabRate {
    std::string device;
    int firstPlane = 0, planes = 0;
    double mpts = 0.0, busy = 0.0;
  };
  std::vector<SlabRate> slabs;
};

struct ControllerEvent {
  enum class Kind { Error, Rebuilt };
  Kind kind = Kind::Error;
  std::string message;  // one line
  std::string details;  // e.g. a kernel build log; may be empty
};

class SimulationController {
  using Clock = std::chrono::steady_clock;

 public:
  explicit SimulationController(SimulationBuilder builder = buildSimulation);
  ~SimulationController();  // stops the thread
  SimulationController(const SimulationController&) = delete;
  SimulationController& operator=(const SimulationController&) = delete;

  // Starts the compute thread (once). Commands given before start() are applied first.
  void start();
  // Sets the stop flag and joins: returns within about one batch (or one rebuild in progress).
  void stop();

  // Commands, from any thread; applied by the compute thread between batches.
  void setScenario(const Scenario& scenario);  // rebuild; on failure the running solver stays
  void reset();                                // rebuild from the active scenario, back to step 0
  void setPlaying(bool playing);
  long playRequests() const;                   // setPlaying calls so far (see playRequestsApplied)
  void singleStep(int steps = 1);              // while paused
  void setStepsPerFrame(int steps);            // steps between published slices (a batch may do fewer)
  void setSlicePoint(int i, int j, int k);     // clamped to the grid; -1: through the source (else centre)
  void setPauseAtStep(long step);              // pause when the step count reaches it (< 0: never)
  // A stream of frames (a recording): the slices of every step that is a multiple of `every` are
  // published, none dropped, and a run that finds no free slot waits for the reader to free one instead
  // of going on (the ring's frames then queue, oldest taken first: SliceRing::setStream). Batches end on
  // those steps; the steps between publish nothing. 0: the live view's frames again, the latest only.
  void setFrameStream(long every);
  // At the scenario's `steps`: run on (the default), stop, or loop. While stopped there, Play starts
  // the run again from step 0.
  void setRunEnd(RunEnd end);
  // Calls `receive` on the compute thread, between batches, with a copy of the running state; keep it
  // short (hand the snapshot to another thread).
  void requestSnapshot(SnapshotReceiver receive);
  // Samples the run with `tap` (a wavefield series): u^n at the step where the tap is applied and every
  // tap.every steps after it (batches end on those steps). A tap without sample() removes the current one.
  void setFieldTap(FieldTap tap);
  // Rebuilds from the checkpoint's scenario and continues from its state; on failure an error event,
  // and the simulation that ran before goes on unless the rebuild itself succeeded.
  void restoreCheckpoint(Checkpoint checkpoint);
  // Where the slices go from now on: into `ring`'s slots (one host copy: the solver writes them there;
  // after a short batch an OpenCL read completes behind the next one and the frame is published at that
  // batch's end, kDeferredReadBatchSeconds), or,
  // with none, into the triple buffer slices() (the reader copies them; `hostReason` says why in the
  // status's transferPath). The current slices go the new way at once. The triple buffer by default.
  void setSliceRing(std::shared_ptr<SliceRing> ring, std::string hostReason = {});
  // The volume view: with each frame of slices the solver renders an image of the whole field with
  // `view` (WaveSolver::startVolume) into the same slot after the planes (the ring's, or the triple
  // buffer's own memory), on the compute thread between batches. Null (the default) renders none. The
  // controller leaves the absorbing layer out (the view's marginCells) and keeps a slice plane inside the
  // grid; while paused, a new view is rendered at once. A view the solver cannot render is reported as an
  // error event and dropped (the slices go on).
  void setVolumeView(std::shared_ptr<const VolumeView> view);

  // Called on the compute thread after each publication of slices (into the ring or the triple buffer),
  // outside the controller's locks, so that a reader can take them at once instead of polling for them.
  // Keep it short (post an event); null removes it. Any thread; once this returns, a call already under
  // way may still finish, no later one starts with the old listener.
  void setPublishListener(std::function<void()> listener);

  // Controllers given the same `turn` compute one at a time: each holds it while its solver advances a
  // batch, so that a stage's counters time its steps with the machine to itself, not shared with the
  // others (a compare view; its lockstep gives each one batch per common step). The mutex is not fair:
  // nothing here orders the controllers. Null (the default): no turn. Any thread; from the next batch on.
  void setComputeTurn(std::shared_ptr<std::mutex> turn);

  // GUI side. The triple buffer's sets are filled again in place: the reader keeps a copy() of front().
  TripleBuffer<SliceSet>& slices() { return slices_; }
  ControllerStatus status() const;
  std::vector<ControllerEvent> takeEvents();
  Scenario activeScenario() const;  // the scenario of the running solver (the last good one)
  // Velocity (m/s) through the slice point of the latest published slices, or null before any build.
  std::shared_ptr<const SliceSet> velocitySlices() const;
  // What makes pictures of the view on the running solver's device (WaveSolver::makePictureRenderer),
  // null where it has none; a new one with each build. One for each use, since a renderer hands its
  // pictures back in the order they were started: a recording's, and the window's own frames. For one
  // thread (the GUI's) to use.
  enum class PictureUse { Recording, Window };
  std::shared_ptr<PictureRenderer> pictureRenderer(PictureUse use) const;
  // The receivers' recent samples (null before any build), republished about ten times a second while
  // the run advances and whenever it comes to rest; taking them costs the GUI a pointer copy.
  std::shared_ptr<const LiveTraces> liveTraces() const;
  // Batches after which no slices were extracted because the reader had not taken the last ones yet or
  // the ring had no free slot (a slow or absent view costs the solver no extractions: it drops frames,
  // not steps).
  std::uint64_t framesSkipped() const { return framesSkipped_.load(std::memory_order_relaxed); }

  static constexpr double kBatchSeconds = 0.05;  // target upper bound of one batch
  static constexpr long kLiveTraceSamples = 20000;  // samples per receiver kept for the live display
  static constexpr double kTracePeriodSeconds = 0.1;  // live traces republished at most this often
  static constexpr int kSlotRetryMs = 10;  // at rest, slices waiting for a free slot are tried this often
  // A stream's frame waits at most this long for a free slot before the commands are looked at again.
  static constexpr std::chrono::microseconds kStreamPatience{2000};
  // Batches at most this long leave a ring frame's read on its way (OpenCL) and publish the frame at the
  // next batch's end: two of them fit in a frame at 60 Hz. Longer ones wait for the read.
  static constexpr double kDeferredReadBatchSeconds = 1.0 / 120.0;

 private:
  struct Commands {
    std::optional<Scenario> scenario;
    bool reset = false;
    std::optional<bool> playing;
    long playRequest = 0;  // the number of the setPlaying call that set `playing`
    int singleSteps = 0;
    std::optional<int> stepsPerFrame;
    std::optional<std::array<int, 3>> slicePoint;
    std::optional<long> pauseAtStep;
    std::optional<long> frameStream;
    std::optional<RunEnd> runEnd;
    std::optional<Checkpoint> restore;
    std::vector<SnapshotReceiver> snapshots;
    std::optional<FieldTap> fieldTap;
    struct SlicePath {
      std::shared_ptr<SliceRing> ring;
      std::string hostReason;
    };
    std::optional<SlicePath> slicePath;
    std::optional<std::shared_ptr<const VolumeView>> volume;
    bool any() const {
      return scenario || reset || playing || singleSteps || stepsPerFrame || slicePoint || pauseAtStep || frameStream || runEnd ||
             restore || !snapshots.empty() || fieldTap || slicePath || volume;
    }
  };

  template <class Change>
  void queue(Change&& change);
  void run();
  Commands waitForCommands(bool idle);
  void apply(Commands& commands);
  bool rebuild(const Scenario& scenario);  // false (reported, nothing changed) on failure
  bool restore(const Checkpoint& checkpoint);  // false (reported) on failure
  void deliverSnapshot(const SnapshotReceiver& receive);
  void sampleField();  // hands u^n to the field tap; a failed read is thrown (the solver failed)
  void dropFieldTap();  // removes the tap, if any, and tells it
  void advanceBatch();
  // Extracts the slices now (into the ring or the triple buffer). wait false: a ring frame whose read is
  // still on its way (OpenCL) is published by finishFrame at the next batch's end. False
  // (nothing extracted, slicesBehind_ set) when the ring has no free slot of the grid's size.
  bool publishSlices(bool wait = true);
  // The ring's slots locked for the running solver's reads (WaveSolver::lockHostMemory: a device's driver
  // copies into page-locked memory at the link's speed, into pageable memory through bounce buffers, at
  // a fraction of it), once per ring and solver; unlocked before the ring's memory may go.
  void lockRingSlots();
  void unlockRingSlots();
  void finishFrame();  // publishes the frame on its way, if any; a failed read pauses the run
  // A stream's frame (setFrameStream), published now or, with no free slot, after a short wait for one;
  // false when none came free (slicesBehind_ set: the run goes no further until it is published).
  bool publishStreamFrame(bool wait);
  // What the view waits for at the step the run rests on: the stream's frame (stream true) or the slices;
  // a failed read pauses the run (solverFailed) and gives false, as nothing published does.
  bool publishWaitedFor(bool stream);
  // Starts the volume image of the current field into `rgba` for `frame` (its image fields set when it
  // starts); true when written on return. A view the solver cannot render is dropped (an event); a
  // device error propagates.
  bool startVolume(std::span<std::uint32_t> rgba, SliceSet& frame);
  void updateVolumeView();  // volume_ from volumeRequest_ and the running grid
  void solverFailed(const std::exception& e);  // pauses the run and reports the error
  void notifyPublished();  // calls the publish listener, if any
  bool slicesUnread() const;  // the last published slices wait for the reader
  std::string transferPath() const;
  void updateVelocitySlices();
  // now: whatever the time since the last publication. A solver that fails the read pauses the run.
  void publishTraces(bool now);
  long stopStep() const;  // the step the run stops (or loops) at, or -1
  bool atRunEnd() const;  // resting at the scenario's end, Stop mode, no pause step in the way
  bool restartRun();      // a rebuild from the active scenario, back to step 0; false (reported) on failure
  void pauseBySelf();  // stops playing and counts it in the status
  // The solver's picture renderers (one for each PictureUse), or nulls (and an event saying why) where
  // making them failed.
  std::array<std::shared_ptr<PictureRenderer>, 2> makePictures(WaveSolver& solver);
  std::array<int, 3> resolvedSlicePoint() const;  // -1 → source or centre, clamped into the grid

  SimulationBuilder builder_;
  TripleBuffer<SliceSet> slices_;
  std::thread thread_;
  std::atomic<bool> stop_{false};
  std::atomic<std::uint64_t> framesSkipped_{0};

  mutable std::mutex commandMutex_;
  std::condition_variable commandReady_;
  Commands pending_;
  long playRequests_ = 0;  // under commandMutex_

  std::mutex listenerMutex_;  // guards publishListener_ (the call itself is made outside it) and computeTurn_
  std::shared_ptr<const std::function<void()>> publishListener_;
  std::shared_ptr<std::mutex> computeTurn_;  // guarded by listenerMutex_

  mutable std::mutex statusMutex_;  // guards everything below that the GUI reads
  ControllerStatus status_;
  std::deque<ControllerEvent> events_;
  Scenario activeScenario_;
  std::shared_ptr<const SliceSet> velocitySlices_;
  std::array<std::shared_ptr<PictureRenderer>, 2> pictureRenderers_;  // by PictureUse
  std::shared_ptr<const LiveTraces> liveTraces_;

  // Compute-thread state only.
  BuiltSimulation sim_;
  Scenario lastRequested_;  // what Reset retries when no build has succeeded yet
  bool playing_ = false;
  int singleStepsLeft_ = 0;
  bool slicesBehind_ = false;  // the last batch's slices were skipped: publish before resting
  std::shared_ptr<SliceRing> ring_;  // where the slices go; null: slices_
  std::string hostReason_;
  struct FrameOnItsWay {
    int slot = -1;
    SliceSet frame;  // sizes, cell, step
  };
  std::optional<FrameOnItsWay> frameOnItsWay_;  // written into ring_, not yet published
  struct SlotLocks {
    const SliceRing* ring = nullptr;
    long build = -1;                    // builds_ when they were locked
    std::shared_ptr<const void> owner;  // the ring's memory outlives the locks
    std::vector<std::span<float>> locked;
  };
  SlotLocks slotLocks_;
  long builds_ = 0;  // successful rebuilds: a solver's locks go with it
  std::shared_ptr<const VolumeView> volumeRequest_;  // as the reader asked for it
  std::shared_ptr<const VolumeView> volume_;         // what is rendered: the request fitted to the grid
  double volumeSeconds_ = 0.0;  // the renderer's time for the image on its way
  int stepsPerFrame_ = 4;
  long pauseAtStep_ = -1;
  long frameStream_ = 0;  // setFrameStream's `every` (0: none)
  std::optional<FieldTap> fieldTap_;
  long nextTapStep_ = 0;  // the step of the tap's next sample
  RunEnd runEnd_ = RunEnd::RunOn;
  Clock::time_point nextTraces_;  // earliest time of the next live-trace publication
  std::array<int, 3> slicePoint_{-1, -1, -1};  // -1: through the source cell (the centre without one)
  double secondsPerStep_ = 0.0;                 // wall time, smoothed; sizes the batches
  // Throughput window: accumulate, then fold into the smoothed status a few times a second.
  double windowComputeSeconds_ = 0.0, windowSteps_ = 0.0;
  Clock::time_point windowStart_;
  std::vector<SlabCounter> windowSlabs_;  // the slabs' counters at the window's start
  // Each slab's rate over the window now ending (a grid cut into slabs), and the next window's start.
  std::vector<ControllerStatus::SlabRate> slabRates(const WaveSolver& solver);
};

// Headless measurements: starts `controller` playing `scenario` and waits until its solver is built;
// throws std::runtime_error with the controller's message when the build fails.
void playWhenBuilt(SimulationController& controller, const Scenario& scenario, int stepsPerFrame);

}  // namespace iso
