#include "app/studio/SimulationPane.h"

#include <QPointer>
#include <QVBoxLayout>
#include <algorithm>

#include "render/SliceView.h"
#include "render/ViewContext.h"

namespace iso {
namespace {
constexpr int kStatusPollMs = 250;  // counters refresh four times a second
}  // namespace

QStringList counterLines(const ControllerStatus& s, double fps, CounterLayout layout) {
  if (!s.hasSolver) return {s.rebuilding ? "building the solver…" : "no simulation"};
  CounterReading r;
  r.throughput = s.throughput;
  r.step = s.step;
  r.time = s.time;
  r.dt = s.dt;
  r.state = s.playing ? "playing" : (s.rebuilding ? "rebuilding…" : "paused");
  r.framesPerSecond = fps;
  r.n1 = s.grid.n1, r.n2 = s.grid.n2, r.n3 = s.grid.n3;
  r.stage = s.stage;
  r.device = s.device;
  r.transferPath = s.transferPath;
  r.transferNote = s.deviceResidentNote;
  r.ceilingName = s.ceilingName;
  QStringList lines;
  for (const std::string& line : formatCounters(r, layout)) lines << QString::fromStdString(line);
  // A grid cut over several devices: the total above, then each device's share and how busy it was.
  if (s.slabs.empty() || layout == CounterLayout::StatusLine) return lines;
  for (const ControllerStatus::SlabRate& slab : s.slabs)
    lines << QStringLiteral("%1 · z %2–%3: %4 Mpts/s, busy %5 %")
                 .arg(QString::fromStdString(slab.device))
                 .arg(slab.firstPlane)
                 .arg(slab.firstPlane + slab.planes - 1)
                 .arg(slab.mpts, 0, 'f', 1)
                 .arg(100.0 * slab.busy, 0, 'f', 0);
  return lines;
}

SimulationPane::SimulationPane(QWidget* parent)
    : QWidget(parent),
      controller_(std::make_unique<SimulationController>()),
      frameRateBesideHostSolver_(SliceView::kMaxFrameRate),
      frameRateCap_(SliceView::kMaxFrameRate) {
  auto* layout = new QVBoxLayout(this);
  layout->setContentsMargins(0, 0, 0, 0);
  view_ = new SliceView(this);
  layout->addWidget(view_);
  volume_ = std::make_unique<VolumeFeed>(*view_, *controller_);
  pictures_ = std::make_unique<RecordedPictures>(view_, controller_.get());
  // The volume's camera, size and range follow the view's (a frame drawn covers a resize, a new HUD).
  connect(view_, &SliceView::cameraMoved, this, [this] { volume_->update(); });
  connect(view_, &SliceView::clipChanged, this, [this] { volume_->update(); });
  connect(view_, &SliceView::volumeSettingsChanged, this, [this] { volume_->update(); });

  connect(view_, &SliceView::frameDrawn, this, [this] {
    ++framesInWindow_;
    volume_->update();
    if (const long step = view_->shownStep(); step != shownStep_) {
      shownStep_ = step;
      emit frameShown(shownStep_);
    }
  });
  controller_->setSliceRing(nullptr, "until the view's mapped GL buffers are set up");
  connect(&slicePoll_, &QTimer::timeout, this, &SimulationPane::pollSlices);
  connect(&statusPoll_, &QTimer::timeout, this, &SimulationPane::pollStatus);
  slicePoll_.start(slicePollMs());
  statusPoll_.start(kStatusPollMs);
  fpsWindow_.start();
  controller_->start();
}

SimulationPane::~SimulationPane() { stop(); }

void SimulationPane::stop() {
  slicePoll_.stop();
  statusPoll_.stop();
  controller_->stop();
}

void SimulationPane::pollSlices() {
  if (ring_) {
    const std::size_t needed = ring_->neededFloats();
    if (!view_->mappedProblem().isEmpty())
      useHostPath("an upload from the mapped GL buffers failed: " + view_->mappedProblem());
    else if (needed != 0 && needed != ring_->slotFloats())
      useMappedBuffers(needed);  // the grid's size changed
  } else if (slicePath_ == SlicePath::Mapped && view_->glReady() && status_.hasSolver) {
    useMappedBuffers(SliceSet::planeFloats(status_.grid.n1, status_.grid.n2, status_.grid.n3));
  }
  if (holdingFrames_) return;
  if (ring_) {
    // The view holds the frame, its planes in the slot, until the GL has uploaded them.
    if (auto slices = ring_->take()) showSlices(std::move(slices));
  } else if (controller_->slices().take()) {
    // The view keeps the slices until its next paint while the controller refills its buffers: hand it
    // a copy (3·N² floats, once per displayed frame at most).
    showSlices(std::make_shared<const SliceSet>(controller_->slices().front().copy()));
  }
  // A stream's next frame, if one waits, after the events queued meanwhile.
  if (streamEvery_ > 0 && ring_ && ring_->unread()) QTimer::singleShot(0, this, &SimulationPane::pollSlices);
}

void SimulationPane::setSlicePath(SlicePath path, const QString& reason) {
  slicePath_ = path;
  if (path == SlicePath::Host) useHostPath(reason);  // Mapped: set up at the next poll
}

std::size_t SimulationPane::mappedSlotFloats() const { return ring_ ? ring_->slotFloats() : 0; }

void SimulationPane::useMappedBuffers(std::size_t floats) {
  QString problem;
  const auto buffers = view_->mapSliceBuffers(int(SliceRing::kSlots), floats, problem);
  if (!buffers) return useHostPath("no mapped GL buffers: " + problem);
  std::vector<SliceRing::Slot> memory;  // (not "slots": a Qt keyword)
  for (float* planes : buffers->memory) memory.push_back({planes, floats});
  if (ring_) ring_->close();  // its buffers go once the view and the writer are done with them
  ring_ = SliceRing::create(std::move(memory), buffers->owner,
                            "persistently mapped GL buffers (" + buffers->provider.toStdString() + ")");
  controller_->setSliceRing(ring_);
}

void SimulationPane::useHostPath(const QString& reason) {
  slicePath_ = SlicePath::Host;
  if (ring_) ring_->close();
  ring_.reset();
  controller_->setSliceRing(nullptr, reason.toStdString());
}

void SimulationPane::setPollsSlices(bool on) {
  if (on)
    slicePoll_.start(slicePollMs());
  else
    slicePoll_.stop();
}

void SimulationPane::showSlices(std::shared_ptr<const SliceSet> slices) {
  if (!slices) return;
  view_->setSlices(slices);
  if (view_->slices() != slices) return;  // refused (the view says why)
  volume_->shown(*slices);
  if (volume_->readyForPictures(*slices)) {
    pictureStep_ = slices->step;
    emit pictureStep(pictureStep_);
  }
}

void SimulationPane::setFrameRateBesideHostSolver(int framesPerSecond) {
  frameRateBesideHostSolver_ = framesPerSecond;
  applyFrameRate();
}

void SimulationPane::setFrameRateCap(int framesPerSecond) {
  frameRateCap_ = framesPerSecond;
  applyFrameRate();
}

void SimulationPane::applyFrameRate() {
  // Until the first solver is built, as for one on the host: most machines have no GPU.
  int framesPerSecond = status_.hasSolver && !status_.onHostCores ? SliceView::kMaxFrameRate : frameRateBesideHostSolver_;
  if (streamEvery_ > 0) framesPerSecond = std::min(framesPerSecond, kStreamFrameRate);
  view_->setMaxFrameRate(std::min(framesPerSecond, frameRateCap_));
  if (slicePoll_.isActive()) slicePoll_.start(slicePollMs());
}

// A little more often than the view draws, so that no new slices wait a whole frame; slices taken
// more often than they are drawn would only make the solver's thread extract them for nothing.
int SimulationPane::slicePollMs() const { return std::max(1, 1000 / view_->maxFrameRate() - 1); }

void SimulationPane::setHudCounters(bool on) {
  hudCounters_ = on;
  if (!on) view_->setHudLines({});
}

void SimulationPane::pollStatus() {
  for (const ControllerEvent& e : controller_->takeEvents()) emit controllerEvent(e);
  status_ = controller_->status();
  if (status_.generation != generation_) {
    generation_ = status_.generation;
    const Scenario active = controller_->activeScenario();
    view_->setGridSpacing(status_.dx);
    applyFrameRate();
    if (active.source.kind == SourceKind::Ricker) {
      auto at = [](int requested, int n) { return requested < 0 ? n / 2 : requested; };
      view_->setSourceCell(at(active.source.i, status_.grid.n1), at(active.source.j, status_.grid.n2),
                           at(active.source.k, status_.grid.n3));
    } else {
      view_->setSourceCell(-1, -1, -1);
    }
    std::vector<Cell> receivers;
    for (const ReceiverSpec& r : active.receivers) receivers.push_back({r.i, r.j, r.k});
    view_->setReceivers(receivers);
    volume_->rebuilt(status_.onHostCores);
    emit rebuilt(active);
  }
  if (auto velocity = controller_->velocitySlices(); velocity != velocity_) {
    velocity_ = velocity;
    view_->setVelocitySlices(velocity_);
  }
  const double seconds = fpsWindow_.restart() / 1000.0;
  if (seconds > 0.0) {
    const double fps = framesInWindow_ / seconds;
    framesPerSecond_ = framesPerSecond_ > 0.0 ? 0.5 * framesPerSecond_ + 0.5 * fps : fps;
  }
  framesInWindow_ = 0;
  applyViewFrames();  // a build makes a new renderer
  if (hudCounters_) view_->setHudLines(hudLines(shownStatus(), framesPerSecond_));
  emit statusUpdated(status_);
}

ControllerStatus SimulationPane::shownStatus() const {
  ControllerStatus s = status_;
  if (pauseStep_ >= 0 && s.step == pauseStep_) s.playing = true;
  return s;
}

void SimulationPane::setPauseAtStep(long step) {
  pauseStep_ = step;
  controller_->setPauseAtStep(step);
  updatePublishListener();
}

bool SimulationPane::streamFrames(long every) {
  if (every > 0 && (!ring_ || view_->mode() == SliceView::Mode::Volume)) return false;
  streamEvery_ = std::max(0L, every);
  if (streamEvery_ == 0) holdingFrames_ = false;
  controller_->setFrameStream(streamEvery_);
  applyFrameRate();
  updatePublishListener();
  return true;
}

void SimulationPane::holdFrames(bool hold) {
  holdingFrames_ = hold && streamEvery_ > 0;
  if (!holdingFrames_) pollSlices();
}

void SimulationPane::updatePublishListener() {
  if (pauseStep_ < 0 && streamEvery_ == 0) return controller_->setPublishListener(nullptr);
  controller_->setPublishListener([pane = QPointer<SimulationPane>(this)] {
    QMetaObject::invokeMethod(pane, [pane] { if (pane) pane->pollSlices(); }, Qt::QueuedConnection);
  });
  // Slices published before the listener was set (a run that rests at the first frame's step) would
  // otherwise wait for the display poll, a second at one frame a second.
  QTimer::singleShot(0, this, &SimulationPane::pollSlices);
}

QSize SimulationPane::screenPixels() const { return view_->size() * view_->devicePixelRatioF(); }

void SimulationPane::setRecordingNotice(const QString& line) { view_->setScreenNotice(line); }

void SimulationPane::setViewFrames(PictureMaker maker) {
  viewFrames_ = maker;
  applyViewFrames();
  emit viewFramesChanged(maker);
}

void SimulationPane::applyViewFrames() {
  view_->setFrameMaker(pickPictureRenderer(viewFrames_, controller_->pictureRenderer(SimulationController::PictureUse::Window)));
}

QStringList SimulationPane::hudLines(const ControllerStatus& status, double framesPerSecond) const {
  // What makes the window's frames, in place of the note on how the slices reach the view: as many
  // lines either way, so that the 3D scene, framed below the HUD, does not move when it changes.
  ControllerStatus shown = status;
  if (view_->framesMadeElsewhere())
    shown.deviceResidentNote = "frames made by OpenCL on the solver's device, shown without OpenGL";
  else if (!view_->frameMakerProblem().isEmpty() && !shown.deviceResidentNote.empty())
    shown.deviceResidentNote = "frames by OpenGL: " + view_->frameMakerProblem().toStdString();
  QStringList lines = counterLines(shown, framesPerSecond);
  if (const QString volume = volume_->hudLine(status.device); status.hasSolver && !volume.isEmpty()) lines << volume;
  return lines;
}

QString SimulationPane::glInfo() const { return view_->glInfo(); }

long SimulationPane::imageStep() const { return pictureStep_; }

bool SimulationPane::drawsVideoPlanes() const { return pictures_->onDevice() || !ViewContext::softwareRasterizer(); }

long SimulationPane::restingStep() const {
  const long requested = controller_->playRequests();  // before the status: a request made meanwhile is seen
  const ControllerStatus now = controller_->status();
  return !now.playing && now.playRequestsApplied == requested ? now.step : -1;
}

QMetaObject::Connection SimulationPane::connectImageStep(QObject* context, std::function<void(long)> slot) {
  return connect(this, &SimulationPane::pictureStep, context, std::move(slot));
}

void SimulationPane::preparePictures(const ImageOptions* options) {
  volume_->preparePictures(options);
  // Until a frame rendered for them comes, pictures of the volume would show another camera.
  if (view_->slices() && !volume_->readyForPictures(*view_->slices())) pictureStep_ = -1;
}

QImage SimulationPane::renderImage(const ImageOptions& options, QString& error) {
  showPictureCounters(options);
  return view_->renderImage(options, error);
}

void SimulationPane::prepareStream(const ImageOptions& options) { pictures_->prepare(options); }

QString SimulationPane::startImage(const ImageOptions& options) {
  showPictureCounters(options);
  return pictures_->start(options);
}

QString SimulationPane::collectImage(const std::function<void(const QImage& image)>& use) {
  return pictures_->collect(use);
}

void SimulationPane::showPictureCounters(const ImageOptions& options) {
  if (options.hud && hudCounters_ && imageStep() >= 0) {
    // The counters of exactly the step drawn, not of wherever the run is by now.
    ControllerStatus status = status_;
    status.step = imageStep();
    status.time = double(status.step) * status.dt;
    // A recording's frames: the run plays, held at each frame's step only while the frame is taken (the
    // last status polled may be from such a hold at an earlier frame), unless the user paused it.
    if (pauseStep_ >= 0 || streamEvery_ > 0) status.playing = recordingPlays_;
    view_->setHudLines(hudLines(status, options.framesPerSecond > 0.0 ? options.framesPerSecond : framesPerSecond_));
  }
}

}  // namespace iso
