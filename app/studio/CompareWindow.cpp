#include "app/studio/CompareWindow.h"

#include <QAction>
#include <QApplication>
#include <QCloseEvent>
#include <QComboBox>
#include <QElapsedTimer>
#include <QEvent>
#include <QGridLayout>
#include <QLabel>
#include <QMap>
#include <QMouseEvent>
#include <QPainter>
#include <QSettings>
#include <QSpinBox>
#include <QStatusBar>
#include <QStyle>
#include <QTextDocumentFragment>
#include <QToolBar>
#include <QVBoxLayout>
#include <cmath>
#include <cstdio>

#include "app/studio/CompareViewport.h"
#include "app/studio/ExportActions.h"
#include "app/studio/RecordingSession.h"
#include "app/studio/ViewControls.h"
#include "app/studio/ViewImage.h"
#include "app/studio/ViewModes.h"
#include "compute/DeviceRegistry.h"
#include "app/studio/SimulationPane.h"
#include "render/SliceView.h"
#include "core/StageRegistry.h"
#include "app/studio/HeadlessDriver.h"
#include "app/studio/StudioOptions.h"
#include "core/ThreadPool.h"

namespace iso {
namespace {

constexpr int kStatusMs = 250;  // counters and step line: four times a second
const char* kStagesKey = "compare/stages";
const char* kLinkedKey = "compare/linked";
const char* kGeometryKey = "compare/geometry";

// The first and the preferred CPU stage, and with an OpenCL device (any runs the GPU stages) the first
// and the preferred GPU one: the whole optimisation story in four viewports.
QStringList defaultStages() {
  QStringList ids;
  for (const std::string& id : StageRegistry::ladderEnds(/*includeOpenCL=*/!listDevices().empty())) ids << QString::fromStdString(id);
  return ids;
}

QString figure(double v) { return QString::number(v, 'e', 1); }

// A stage's own tolerance against the reference; that of float32 stages for an id the registry does not
// know (its viewport shows that problem).
double agreementTolerance(const QString& stage) {
  const StageInfo* info = StageRegistry::find(stage.toStdString());
  return info ? info->agreementTolerance : kReferenceTolerance;
}

// Lines of a viewport's counters (updateCounters): rates; speed-up and agreement (the slices' path is
// their tooltip).
constexpr int kCounterLines = 2;

// |u - u_ref| plane by plane: the picture of where two stages differ (planes of another grid or slice
// point: the field itself, until the rebuild on its way arrives).
std::shared_ptr<const SliceSet> differenceSlices(const SliceSet& u, const SliceSet& reference) {
  if (u.n1 != reference.n1 || u.n2 != reference.n2 || u.n3 != reference.n3 || u.i != reference.i || u.j != reference.j ||
      u.k != reference.k)
    return std::make_shared<SliceSet>(u);
  auto out = std::make_shared<SliceSet>();
  out->n1 = u.n1, out->n2 = u.n2, out->n3 = u.n3, out->i = u.i, out->j = u.j, out->k = u.k, out->step = u.step;
  float* d = out->ownPlanes();
  const std::span<const float> a = u.planes(), b = reference.planes();
  for (std::size_t n = 0; n < a.size(); ++n) d[n] = std::fabs(a[n] - b[n]);
  return out;
}

}  // namespace

CompareWindow::CompareWindow(const Scenario& base, const QStringList& stages, QWidget* parent)
    : QMainWindow(parent), base_(base) {
  setWindowTitle("iso3dfd studio — compare stages");
  buildToolbar();

  auto* central = new QWidget;
  auto* layout = new QVBoxLayout(central);
  layout->setContentsMargins(4, 2, 4, 2);
  layout->setSpacing(2);
  sharingNote_ = new QLabel;
  sharingNote_->setWordWrap(true);
  sharingNote_->setToolTip("The stages compute one at a time, a batch of steps each, whatever their devices: each\n"
                           "counter divides its own steps by the time those steps took with no other stage computing,\n"
                           "so it measures the stage as it runs alone (the view's drawing, on the GUI thread, still runs\n"
                           "beside it). The common frame rate follows the sum of the stages' batch times.");
  layout->addWidget(sharingNote_);
  grid_ = new QWidget;
  gridLayout_ = new QGridLayout(grid_);
  gridLayout_->setContentsMargins(0, 0, 0, 0);
  gridLayout_->setSpacing(4);
  layout->addWidget(grid_, 1);
  setCentralWidget(central);
  stepLabel_ = new QLabel;
  statusBar()->addPermanentWidget(stepLabel_, 1);

  connect(&statusTimer_, &QTimer::timeout, this, &CompareWindow::showStatus);
  statusTimer_.start(kStatusMs);

  QSettings settings;
  if (!restoreGeometry(settings.value(kGeometryKey).toByteArray())) resize(1280, 720);
  linked_ = settings.value(kLinkedKey, true).toBool();
  {
    const QSignalBlocker block(linkAction_);  // no viewports to link yet
    linkAction_->setChecked(linked_);
  }
  const QStringList remembered = settings.value(kStagesKey).toStringList();
  setStages(!stages.isEmpty() ? stages : !remembered.isEmpty() ? remembered : defaultStages());
  connect(&retiredPoll_, &QTimer::timeout, this, &CompareWindow::deleteRetired);
}

CompareWindow::~CompareWindow() {
  delete exportActions_;  // an unfinished recording is discarded while the viewports it pauses exist
  statusTimer_.stop();
  // Joined here, so no controller calls requestLockstepPoll on a window being destroyed.
  for (CompareViewport* v : viewports_) v->pane()->stop();
  for (CompareViewport* v : retired_) v->pane()->stop();
}

void CompareWindow::buildToolbar() {
  QStyle* st = style();
  QToolBar* tools = addToolBar("Compare");
  tools->setObjectName("compareToolbar");
  tools->setMovable(false);

  playAction_ = tools->addAction(st->standardIcon(QStyle::SP_MediaPlay), "&Play");
  playAction_->setCheckable(true);
  playAction_->setShortcut(Qt::Key_Space);
  playAction_->setToolTip("Play / pause every viewport (Space); a pause takes effect at the next common step");
  connect(playAction_, &QAction::toggled, this, [this](bool on) {
    showPlaying(on);
    if (!exportActions_->steerRun(on)) setRunPlaying(on);
  });
  QAction* step = tools->addAction(st->standardIcon(QStyle::SP_MediaSkipForward), "&Step", this, &CompareWindow::stepOnce);
  step->setShortcuts({Qt::Key_S, Qt::Key_Right});
  step->setToolTip("Pause and advance every viewport one time step (S or Right)");
  QAction* reset = tools->addAction(st->standardIcon(QStyle::SP_MediaSkipBackward), "&Reset", this, &CompareWindow::reset);
  reset->setShortcut(Qt::Key_R);
  reset->setToolTip("Restart every viewport from step 0 (R)");
  exportActions_ = new ExportActions(this, this, playAction_);
  connect(exportActions_, &ExportActions::message, this,
          [this](const QString& text, bool error) { statusBar()->showMessage(text, error ? 0 : 10000); });
  tools->addAction(exportActions_->recordAction());
  tools->addAction(exportActions_->saveImageAction());
  tools->addSeparator();

  tools->addWidget(new QLabel(" Viewports "));
  count_ = new QSpinBox;
  count_->setRange(kMinViewports, kMaxViewports);
  count_->setToolTip("How many stages run side by side: 2 to 4");
  connect(count_, &QSpinBox::valueChanged, this, [this](int n) {
    QStringList specs = stages();
    const QStringList defaults = defaultStages();
    while (specs.size() < n) specs << defaults.value(specs.size(), "cpu-parallel");
    while (specs.size() > n) specs.removeLast();
    setStages(specs);
    saveStages();
  });
  tools->addWidget(count_);

  linkAction_ = tools->addAction("&Link views");
  linkAction_->setCheckable(true);
  linkAction_->setShortcut(Qt::Key_L);
  linkAction_->setToolTip("Camera, view mode and slice point move together in every viewport (L). Unlinked, the\n"
                          "mode and slice controls act on the viewport clicked last (its number is highlighted)");
  connect(linkAction_, &QAction::toggled, this, &CompareWindow::setLinked);
  tools->addSeparator();

  mode_ = new QComboBox;
  for (const ViewModeInfo& m : viewModes()) mode_->addItem(m.title());
  mode_->setToolTip("What the views show (keys 1–5)");
  connect(mode_, &QComboBox::activated, this, [this](int mode) { setViewMode(mode); });
  tools->addWidget(mode_);
  velocityAction_ = tools->addAction("&Velocity");
  velocityAction_->setObjectName("velocityAction");
  velocityAction_->setCheckable(true);
  velocityAction_->setShortcut(Qt::Key_V);
  velocityAction_->setToolTip("Tint every view's slices with the velocity model (V); its colour bar shows where a view\n"
                              "has room for two. Off at first: the wavefields are what the stages compare");
  connect(velocityAction_, &QAction::toggled, this, [this](bool on) {
    for (CompareViewport* v : viewports_) v->pane()->view()->setVelocityOverlay(on, ViewControls::kOverlayPercent / 100.0f);
  });
  addDifferenceActions(tools);
  for (int n = 0; n < int(viewModes().size()); ++n) {
    auto* a = new QAction(this);
    a->setShortcut(QKeySequence(Qt::Key_1 + n));
    connect(a, &QAction::triggered, this, [this, n] { setViewMode(n); });
    addAction(a);
  }

  tools->addWidget(new QLabel(" Slice "));
  auto sliceSpin = [&](const QString& axis) {
    auto* s = new QSpinBox;
    s->setRange(-1, 4095);
    s->setValue(-1);
    s->setSpecialValueText("source");
    s->setKeyboardTracking(false);
    s->setToolTip(QStringLiteral("Interior cell along %1 where the slices cross; 'source' follows the source cell").arg(axis));
    connect(s, &QSpinBox::valueChanged, this, [this] {
      if (linked_)
        for (int n = 0; n < viewportCount(); ++n) applySlicePoint(n);
      else
        applySlicePoint(current_);
    });
    tools->addWidget(s);
    return s;
  };
  sliceI_ = sliceSpin("x");
  sliceJ_ = sliceSpin("y");
  sliceK_ = sliceSpin("z");

  tools->addWidget(new QLabel(" Steps/frame "));
  stepsPerFrameBox_ = new QSpinBox;
  stepsPerFrameBox_->setRange(kAutoStepsPerFrame, 1000);
  stepsPerFrameBox_->setSpecialValueText("auto");
  stepsPerFrameBox_->setValue(stepsPerFrame_);
  stepsPerFrameBox_->setToolTip(QStringLiteral("Time steps between two common frames: no viewport runs ahead of another by more.\n"
                                               "auto: as many as keep the view at %1 frames/s or more (1 to %2), so it stays\n"
                                               "interactive however slow the slowest stage is. Range: auto, 1 to 1000")
                                    .arg(kAutoFramesPerSecond)
                                    .arg(kMaxAutoStepsPerFrame));
  connect(stepsPerFrameBox_, &QSpinBox::valueChanged, this, &CompareWindow::setStepsPerFrame);
  tools->addWidget(stepsPerFrameBox_);
}

void CompareWindow::addDifferenceActions(QToolBar* tools) {
  differenceAction_ = tools->addAction("&Difference");
  differenceAction_->setObjectName("differenceAction");
  differenceAction_->setCheckable(true);
  differenceAction_->setShortcut(Qt::Key_D);
  differenceAction_->setToolTip("Show where the stages differ (D): every viewport but the reference shows |u − u_ref| at the\n"
                                "common step, with a colour bar of its own from 0; its max |Δ| and relative L2 are the\n"
                                "figures above it. The reference keeps its wavefield");
  connect(differenceAction_, &QAction::toggled, this, &CompareWindow::setDifference);
  presentAction_ = tools->addAction("&Full screen");
  presentAction_->setCheckable(true);
  presentAction_->setShortcut(Qt::Key_F11);
  presentAction_->setToolTip("The viewports fill the screen (F11, Esc to leave): no toolbar, notes or status bar; the keys "
                             "still work");
  connect(presentAction_, &QAction::toggled, this, &CompareWindow::setPresentation);
  auto* leave = new QAction(this);
  leave->setShortcut(Qt::Key_Escape);
  connect(leave, &QAction::triggered, this, [this] { presentAction_->setChecked(false); });
  addAction(leave);
  // The window's keys work while the toolbar is hidden: the actions belong to the window too.
  addActions(tools->actions());
}

void CompareWindow::setDifference(bool on) {
  difference_ = on;
  {
    const QSignalBlocker block(differenceAction_);
    differenceAction_->setChecked(on);
  }
  showCommonStep();
}

void CompareWindow::setPresentation(bool on) {
  {
    const QSignalBlocker block(presentAction_);
    presentAction_->setChecked(on);
  }
  for (QWidget* chrome : std::initializer_list<QWidget*>{findChild<QToolBar*>("compareToolbar"), sharingNote_, statusBar()})
    chrome->setVisible(!on);
  QWidget* top = window();
  top->setWindowState(on ? top->windowState() | Qt::WindowFullScreen : top->windowState() & ~Qt::WindowFullScreen);
}

void CompareWindow::setStages(const QStringList& requested) {
  QStringList specs = requested;
  notice_.clear();
  if (specs.size() > kMaxViewports) {
    notice_ = QStringLiteral("The compare view shows at most %1 stages; %2 were given, so %3 are left out.")
                  .arg(kMaxViewports)
                  .arg(specs.size())
                  .arg(specs.mid(kMaxViewports).join(", "));
    specs = specs.mid(0, kMaxViewports);
  }
  if (specs.size() < kMinViewports) {
    notice_ = QStringLiteral("The compare view needs at least %1 stages: cpu-serial was added.").arg(kMinViewports);
    while (specs.size() < kMinViewports) specs << "cpu-serial";
  }
  createViewports(specs);
  {
    const QSignalBlocker block(count_);
    count_->setValue(int(specs.size()));
  }
  if (!notice_.isEmpty()) statusBar()->showMessage(notice_);
  restartAll();
}

QStringList CompareWindow::stages() const {
  QStringList out;
  for (const CompareViewport* v : viewports_) out << v->spec();
  return out;
}

void CompareWindow::createViewports(const QStringList& specs) {
  // Viewports that stay keep their pane (and compute thread); only the ones beyond the new count go.
  while (viewportCount() > specs.size()) {
    CompareViewport* last = viewports_.back();
    viewports_.pop_back();
    gridLayout_->removeWidget(last);
    last->hide();
    // Stopping joins the compute thread, which finishes a kernel build first: wait for the end of it.
    last->pane()->controller().setPlaying(false);
    last->pane()->controller().setPublishListener(nullptr);
    retired_.push_back(last);
    retiredPoll_.start(100);
  }
  while (viewportCount() < specs.size()) {
    const int n = viewportCount();
    auto* v = new CompareViewport(n + 1, grid_);
    viewports_.push_back(v);
    SimulationPane* pane = v->pane();
    connect(v, &CompareViewport::specChanged, this, [this] {
      saveStages();
      restartAll();
    });
    connect(pane, &SimulationPane::controllerEvent, this, [this, n](const ControllerEvent& e) {
      onViewportEvent(n, e.kind == ControllerEvent::Kind::Error, QString::fromStdString(e.message));
    });
    pane->controller().setPublishListener([this] { requestLockstepPoll(); });
    pane->controller().setComputeTurn(computeTurn_);
    connect(pane->view(), &SliceView::cameraMoved, this, [this, n] { linkCamera(n); });
    pane->view()->installEventFilter(this);
    pane->view()->setMode(viewModes()[std::size_t(mode_->currentIndex())].mode);
    pane->view()->setVelocityOverlay(velocityAction_->isChecked(), ViewControls::kOverlayPercent / 100.0f);
  }
  for (int n = 0; n < viewportCount(); ++n) {
    viewports_[std::size_t(n)]->setSpec(specs[n]);
    // Two side by side, three or four in a 2×2 grid: each view keeps a usable shape at 1280×720.
    gridLayout_->addWidget(viewports_[std::size_t(n)], n / 2, n % 2);
  }
  agreement_.assign(viewports_.size(), Agreement{});
  std::vector<SimulationController*> controllers;
  for (CompareViewport* v : viewports_) controllers.push_back(&v->pane()->controller());
  coordinator_.setControllers(controllers);
  coordinator_.setBatch(batch_);
  coordinator_.setStopStep(stopStep_);
  coordinator_.setPlaying(playAction_->isChecked());
  setCurrentViewport(std::min(current_, viewportCount() - 1));
  requestLockstepPoll();
}

void CompareWindow::deleteRetired() {
  std::erase_if(retired_, [](CompareViewport* v) {
    if (v->pane()->controller().status().rebuilding) return false;
    delete v;  // stops its compute thread within about one batch
    return true;
  });
  if (retired_.empty()) retiredPoll_.stop();
}

void CompareWindow::restartAll() {
  std::vector<std::optional<Scenario>> scenarios;
  for (CompareViewport* v : viewports_) {
    scenarios.push_back(v->scenarioFor(base_));
    if (!scenarios.back()) v->pane()->view()->setSlices(nullptr);
  }
  coordinator_.restart(scenarios);
  agreement_.assign(viewports_.size(), Agreement{});
  reference_ = -1;
  updateSharingNote();
  requestLockstepPoll();
}

void CompareWindow::setBaseScenario(const Scenario& base) {
  base_ = base;
  restartAll();
}

void CompareWindow::setPlaying(bool playing) { playAction_->setChecked(playing); }

bool CompareWindow::playButtonChecked() const { return playAction_->isChecked(); }

void CompareWindow::setRunPlaying(bool playing) {
  coordinator_.setPlaying(playing);
  requestLockstepPoll();  // every viewport may be waiting at the target already
}

void CompareWindow::stepOnce() {
  setPlaying(false);
  coordinator_.stepOnce();
  requestLockstepPoll();
}

// A rebuild from the base scenario, as Reset does in the main window; a viewport whose build failed tries
// again, one with an unknown stage stays out.
void CompareWindow::reset() { restartAll(); }

void CompareWindow::setStepsPerFrame(int steps) {
  stepsPerFrame_ = std::max(kAutoStepsPerFrame, steps);
  {
    const QSignalBlocker block(stepsPerFrameBox_);
    stepsPerFrameBox_->setValue(stepsPerFrame_);
  }
  autoFrames_ = 0;
  autoWindow_.invalidate();
  // Auto starts from one step per frame and climbs while the frame rate allows.
  applyBatch(stepsPerFrame_ == kAutoStepsPerFrame ? 1 : stepsPerFrame_);
}

void CompareWindow::applyBatch(int steps) {
  batch_ = steps;
  coordinator_.setBatch(batch_);
}

int CompareWindow::adaptedStepsPerFrame(int steps, double framesPerSecond) {
  if (framesPerSecond < kAutoFramesPerSecond) return std::max(1, steps / 2);
  if (framesPerSecond > kAutoFramesPerSecond * 4.0 / 3.0) return std::min(kMaxAutoStepsPerFrame, steps + 1);
  return steps;
}

// A slow stage joining the compare brings the frame rate back within a second or two.
void CompareWindow::adaptStepsPerFrame() {
  if (stepsPerFrame_ != kAutoStepsPerFrame || !coordinator_.playing()) {
    autoWindow_.invalidate();
    return;
  }
  if (!autoWindow_.isValid()) {
    autoWindow_.start();
    autoFrames_ = 0;
    return;
  }
  ++autoFrames_;
  const double seconds = autoWindow_.elapsed() / 1000.0;
  if (seconds < 0.5) return;
  if (const int steps = adaptedStepsPerFrame(batch_, autoFrames_ / seconds); steps != batch_) applyBatch(steps);
  autoWindow_.restart();
  autoFrames_ = 0;
}

void CompareWindow::setStopStep(long step) {
  stopStep_ = step;
  coordinator_.setStopStep(step);
  requestLockstepPoll();  // a later stop step lets a run resting at the old one go on
}

void CompareWindow::setViewMode(int mode) {
  if (mode < 0 || mode >= int(viewModes().size())) return;
  mode_->setCurrentIndex(mode);
  if (linked_)
    for (int n = 0; n < viewportCount(); ++n) applyViewMode(n, mode);
  else
    applyViewMode(current_, mode);
}

void CompareWindow::applyViewMode(int n, int mode) {
  viewports_.at(std::size_t(n))->pane()->view()->setMode(viewModes()[std::size_t(mode)].mode);
}

void CompareWindow::applySlicePoint(int n) {
  viewports_.at(std::size_t(n))->pane()->controller().setSlicePoint(sliceI_->value(), sliceJ_->value(), sliceK_->value());
}

void CompareWindow::setLinked(bool linked) {
  linked_ = linked;
  {
    const QSignalBlocker block(linkAction_);
    linkAction_->setChecked(linked);
  }
  QSettings().setValue(kLinkedKey, linked);
  setCurrentViewport(current_);
  if (!linked || viewports_.empty()) return;
  // Linking again brings every viewport to the current one's camera, mode and slice point.
  linkCamera(current_);
  setViewMode(viewModeIndex(viewports_.at(std::size_t(current_))->pane()->view()->mode()));
  for (int n = 0; n < viewportCount(); ++n) applySlicePoint(n);
}

void CompareWindow::linkCamera(int from) {
  if (!linked_) return;
  const OrbitCamera& camera = viewports_.at(std::size_t(from))->pane()->view()->camera();
  for (int n = 0; n < viewportCount(); ++n)
    if (n != from) viewports_[std::size_t(n)]->pane()->view()->setCamera(camera);
}

void CompareWindow::setCurrentViewport(int n) {
  current_ = std::clamp(n, 0, std::max(0, viewportCount() - 1));
  for (int m = 0; m < viewportCount(); ++m) viewports_[std::size_t(m)]->setCurrent(!linked_ && m == current_);
}

bool CompareWindow::eventFilter(QObject* watched, QEvent* event) {
  if (event->type() == QEvent::MouseButtonPress)
    for (int n = 0; n < viewportCount(); ++n)
      if (viewports_[std::size_t(n)]->pane()->view() == watched) {
        setCurrentViewport(n);
        if (!linked_) {
          const QSignalBlocker block(mode_);
          mode_->setCurrentIndex(viewModeIndex(viewports_[std::size_t(n)]->pane()->view()->mode()));
        }
      }
  return QMainWindow::eventFilter(watched, event);
}

void CompareWindow::requestLockstepPoll() {
  if (lockstepPollQueued_.exchange(true)) return;
  QMetaObject::invokeMethod(this, &CompareWindow::pollLockstep, Qt::QueuedConnection);
}

void CompareWindow::pollLockstep() {
  lockstepPollQueued_ = false;  // before taking the slices: a publication from now on asks again
  if (!coordinator_.poll()) return;
  compareWithReference();
  showCommonStep();
  const long step = coordinator_.rendezvousStep();
  adaptStepsPerFrame();
  if (stopStep_ >= 0 && step >= stopStep_ && coordinator_.playing()) {
    coordinator_.setPlaying(false);
    // A recording's stop steps are its frames: the button goes on saying what the user asked for.
    if (!exportActions_->steersRun()) {
      const QSignalBlocker block(playAction_);
      playAction_->setChecked(false);
      showPlaying(false);
    }
    showStatus();  // the step the run rests on, at once
  }
  emit commonFrame(step);
  if (imageStep() == step) emit pictureFrame(step);
}

// Each viewport's slices of the common step, or in difference mode |u - u_ref| for every viewport but
// the reference (the same slices compareWithReference measured).
void CompareWindow::showCommonStep() {
  const auto& slices = coordinator_.rendezvousSlices();
  const std::shared_ptr<const SliceSet> reference = reference_ >= 0 ? slices[std::size_t(reference_)] : nullptr;
  for (std::size_t n = 0; n < viewports_.size(); ++n) {
    if (!slices[n]) continue;
    std::shared_ptr<const SliceSet> shown = slices[n];
    if (difference_ && int(n) != reference_ && reference) shown = differenceSlices(*slices[n], *reference);
    viewports_[n]->setShowsDifference(shown != slices[n]);
    viewports_[n]->pane()->showSlices(shown);
  }
  for (int n = 0; n < viewportCount(); ++n) updateCounters(n);
}

void CompareWindow::refreshCounters() {
  for (CompareViewport* v : viewports_) v->pane()->pollStatus();
  showStatus();
}

void CompareWindow::showStatus() {
  for (int n = 0; n < viewportCount(); ++n) updateCounters(n);
  const long step = coordinator_.rendezvousStep();
  if (step < 0) return;
  int running = 0;
  for (const auto& slices : coordinator_.rendezvousSlices()) running += slices ? 1 : 0;
  const QString text = QStringLiteral("Step %1 in all %2 running viewports (lockstep: none is more than %3 steps ahead%4)")
                           .arg(step)
                           .arg(running)
                           .arg(batch_)
                           .arg(stepsPerFrame_ == kAutoStepsPerFrame ? QStringLiteral("; steps per frame: auto") : QString());
  if (text != stepLabel_->text()) stepLabel_->setText(text);
}

void CompareWindow::compareWithReference() {
  const auto& slices = coordinator_.rendezvousSlices();
  reference_ = -1;
  for (std::size_t n = 0; n < viewports_.size(); ++n)
    if (slices[n] && viewports_[n]->stageId() == "cpu-serial") {
      reference_ = int(n);
      break;
    }
  if (reference_ < 0)
    for (std::size_t n = 0; n < viewports_.size(); ++n)
      if (slices[n]) {
        reference_ = int(n);
        break;
      }
  // Before the first step every field is the same initial state: nothing has been computed to compare.
  if (reference_ < 0 || coordinator_.rendezvousStep() <= 0) return;
  // One figure over all three planes that a viewport shows.
  const std::span<const float> reference = slices[std::size_t(reference_)]->planes();
  for (std::size_t n = 0; n < viewports_.size(); ++n) {
    if (!slices[n] || int(n) == reference_) continue;
    const std::span<const float> other = slices[n]->planes();
    if (other.size() != reference.size()) continue;  // another grid: a rebuild is on its way
    Agreement& a = agreement_[n];
    a.tolerance = std::max(agreementTolerance(viewports_[n]->stageId()),
                           agreementTolerance(viewports_[std::size_t(reference_)]->stageId()));
    a.run.add(other, reference);  // a NaN is counted in nonFinite, which fails the tolerance on its own
  }
}

void CompareWindow::onViewportEvent(int n, bool error, const QString& message) {
  CompareViewport* v = viewports_.at(std::size_t(n));
  if (!error) return;
  // Whatever failed (a build, a device that cannot run the stage, the solver mid-run), this viewport
  // stops taking part and the others go on without waiting for it.
  v->showProblem(message);
  coordinator_.setActive(std::size_t(n), false);
  v->pane()->view()->setSlices(nullptr);
  v->pane()->controller().setPlaying(false);
  updateSharingNote();
  requestLockstepPoll();  // the others may all be waiting at the target
}

void CompareWindow::updateCounters(int n) {
  CompareViewport* v = viewports_.at(std::size_t(n));
  const ControllerStatus& s = v->pane()->lastStatus();
  if (!coordinator_.active(std::size_t(n)) || !s.hasSolver) {
    v->setCounters(s.rebuilding ? "building the solver…" : QString());
    return;
  }
  const Throughput t = shownThroughput(n);
  QString rates = QStringLiteral("%1 · <b>%2 Mpts/s</b> · %3 GB/s")
                      .arg(QString::fromStdString(s.device).toHtmlEscaped(), QString::fromStdString(rateText(t, t.mpts, 1)), QString::fromStdString(rateText(t, t.gbsTraffic, 2)));
  if (t.ceilingGBs > 0.0) rates += QStringLiteral(" · %1 % of roofline").arg(QString::fromStdString(rateText(t, t.rooflinePercent, 1)));

  QString speedUp;
  if (n == 0) {
    speedUp = "speed-up: 1× (the base)";
  } else {
    const double first = shownThroughput(0).mpts;
    const bool both = t.mpts > 0.0 && first > 0.0 && coordinator_.active(0);
    speedUp = both ? QStringLiteral("<b>%1×</b> over viewport 1").arg(t.mpts / first, 0, 'f', 2) : QStringLiteral("speed-up: –");
  }
  const Agreement& a = agreement_.at(std::size_t(n));
  QString agreement;
  if (n == reference_) {
    agreement = "the reference for agreement";
  } else if (!a.run.compared() || reference_ < 0) {
    agreement = "agreement: from the first step";
  } else {
    // The error is on the scale of the run's largest field, so a drained field's round-off does not read
    // as a disagreement (core/FieldCompare.h).
    agreement = QStringLiteral("%1 %2: max |Δ| %3 · error %4 of peak %5")
                    .arg(v->showsDifference() ? QStringLiteral("|u − u_ref|, ref") : QStringLiteral("vs"))
                    .arg(viewports_[std::size_t(reference_)]->stageId(), figure(a.run.last().maxAbs),
                         figure(a.run.last().relativeL2),
                         a.agrees() ? QStringLiteral("<span style='color:#2e7d32'>✓</span>")
                                    : QStringLiteral("<span style='color:#c62828'>✗ worst %1 &gt; %2</span>")
                                          .arg(figure(a.run.worst().relativeL2), figure(a.tolerance)));
  }
  v->setCounters(rates + "<br>" + speedUp + " · " + agreement, "slices: " + QString::fromStdString(s.transferPath));
}

Throughput CompareWindow::shownThroughput(int n) const {
  return hostRoof_.throughputOf(viewports_.at(std::size_t(n))->pane()->lastStatus());
}

void CompareWindow::updateSharingNote() {
  QMap<QString, int> sharing;
  for (std::size_t n = 0; n < viewports_.size(); ++n)
    if (coordinator_.active(n))
      if (const QString device = viewports_[n]->sharedDevice(base_); !device.isEmpty()) ++sharing[device];
  QStringList parts;
  for (auto it = sharing.cbegin(); it != sharing.cend(); ++it) {
    if (it.value() < 2) continue;
    parts << (it.key() == "host" ? QStringLiteral("%1 stages share %2 CPU cores").arg(it.value()).arg(ThreadPool::hardwareThreads())
                                 : QStringLiteral("%1 stages share %2").arg(it.value()).arg(it.key()));
  }
  // The controllers compute one at a time (computeTurn_), so sharing a device slows the common frames,
  // not a counter.
  sharingNote_->setText((parts.isEmpty() ? QStringLiteral("Each stage has its device to itself") : parts.join("; ")) +
                        ". The stages compute one at a time, a batch of steps each: every counter times its own steps with "
                        "nothing else computing, and the common frame rate follows the sum of their times.");
}

void CompareWindow::saveStages() const { QSettings().setValue(kStagesKey, stages()); }

void CompareWindow::showPlaying(bool playing) {
  playAction_->setIcon(style()->standardIcon(playing ? QStyle::SP_MediaPause : QStyle::SP_MediaPlay));
  playAction_->setText(playing ? "&Pause" : "&Play");
}

QString CompareWindow::notice() const { return notice_; }

QImage CompareWindow::screenshot(bool wholeWindow) {
  return SliceView::grabWithViews(wholeWindow ? static_cast<QWidget&>(*this) : *centralWidget());
}

QSize CompareWindow::screenPixels() const { return grid_->size() * devicePixelRatioF(); }

QString CompareWindow::glInfo() const { return viewports_.empty() ? QString() : viewports_.front()->pane()->glInfo(); }

QMetaObject::Connection CompareWindow::connectImageStep(QObject* context, std::function<void(long)> slot) {
  return connect(this, &CompareWindow::pictureFrame, context, std::move(slot));
}

long CompareWindow::imageStep() const {
  const long step = coordinator_.rendezvousStep();
  for (std::size_t n = 0; n < viewports_.size(); ++n)
    if (coordinator_.active(n) && viewports_[n]->pane()->imageStep() != step) return -1;
  return step;
}

void CompareWindow::preparePictures(const ImageOptions* options) {
  QString error;  // a picture too small is refused when it is drawn
  const auto layout = options ? pictureLayout(*options, error) : std::nullopt;
  for (CompareViewport* v : viewports_) v->pane()->preparePictures(layout ? &layout->view : nullptr);
}

void CompareWindow::setRecordingNotice(const QString& line) {
  // Over every viewport: a HUD line moves the 3D box below it, and the linked boxes should stay level.
  for (CompareViewport* v : viewports_) v->pane()->setRecordingNotice(line);
}

std::optional<CompareWindow::PictureLayout> CompareWindow::pictureLayout(const ImageOptions& options, QString& error) const {
  // One or two rows of two, as on screen; every cell the same size, the remainder of odd sides left dark.
  const int count = viewportCount(), columns = 2, rows = (count + 1) / 2;
  PictureLayout layout;
  layout.cell = QSize(options.size.width() / columns, options.size.height() / rows);
  // Text and lines as large as in a single view of the whole picture's size, as on screen.
  const double scale = options.scaleFor(options.size);
  layout.font = font();
  layout.font.setPixelSize(std::max(9, int(std::lround(13 * scale))));
  const QFontMetrics metrics(layout.font);
  // As on screen, each view has its stage and step above it (a label) and its counters (the HUD).
  layout.captionLines = (options.labels || options.hud ? 1 : 0) + (options.hud ? kCounterLines : 0);
  layout.pad = int(std::lround(4 * scale));
  layout.band = layout.captionLines > 0 ? layout.captionLines * metrics.lineSpacing() + 2 * layout.pad : 0;
  if (layout.cell.width() < 1 || layout.cell.height() <= layout.band) {
    error = QStringLiteral("%1x%2 is too small for %3 viewports").arg(options.size.width()).arg(options.size.height()).arg(count);
    return std::nullopt;
  }
  layout.view = options;
  layout.view.size = QSize(layout.cell.width(), layout.cell.height() - layout.band);
  layout.view.scale = scale;
  return layout;
}

QImage CompareWindow::renderImage(const ImageOptions& options, QString& error) {
  const std::optional<PictureLayout> layout = pictureLayout(options, error);
  if (!layout) return {};
  const QFontMetrics metrics(layout->font);
  QImage out(options.size, QImage::Format_RGBX8888);
  out.fill(QColor(30, 31, 34));
  QPainter painter(&out);
  painter.setFont(layout->font);
  painter.setPen(QColor(225, 227, 232));
  for (int n = 0; n < viewportCount(); ++n) {
    const CompareViewport* v = viewports_[std::size_t(n)];
    const QImage picture = v->pane()->view()->renderImage(layout->view, error);
    if (picture.isNull()) return {};
    const QPoint corner((n % 2) * layout->cell.width(), (n / 2) * layout->cell.height());
    painter.drawImage(corner + QPoint(0, layout->band), picture);
    QStringList lines;
    if (layout->captionLines > 0)
      lines << QStringLiteral("%1 · %2 · %3")
                   .arg(n + 1)
                   .arg(v->spec())
                   .arg(coordinator_.active(std::size_t(n)) ? QStringLiteral("step %1").arg(shownStep())
                        : v->hasProblem()                  ? v->problem()
                                                           : QStringLiteral("not running"));
    if (options.hud) lines += QTextDocumentFragment::fromHtml(v->counters()).toPlainText().split('\n', Qt::SkipEmptyParts);
    for (int line = 0; line < std::min(int(lines.size()), layout->captionLines); ++line)
      painter.drawText(corner + QPoint(layout->pad, layout->pad + line * metrics.lineSpacing() + metrics.ascent()),
                       metrics.elidedText(lines[line], Qt::ElideRight, layout->cell.width() - 2 * layout->pad));
  }
  return out;
}

QStringList CompareWindow::summary() const {
  QStringList out;
  for (std::size_t n = 0; n < viewports_.size(); ++n) {
    const CompareViewport* v = viewports_[n];
    QString line = QStringLiteral("viewport %1: %2").arg(n + 1).arg(v->spec());
    if (!coordinator_.active(n)) {
      out << line + ": " + (v->hasProblem() ? v->problem() : QStringLiteral("not running"));
      continue;
    }
    // The figures the counters above the views show (the same status, the same rounding).
    const ControllerStatus& s = v->pane()->lastStatus();
    const Throughput t = shownThroughput(int(n));
    line += QStringLiteral(" on %1: step %2, %3 Mpts/s, %4 GB/s (16 B/pt), %5 % of roofline")
                .arg(QString::fromStdString(s.device))
                .arg(imageStep())
                .arg(QString::fromStdString(rateText(t, t.mpts, 1)))
                .arg(QString::fromStdString(rateText(t, t.gbsTraffic, 2)))
                .arg(QString::fromStdString(rateText(t, t.rooflinePercent, 1)));
    const Agreement& a = agreement_[n];
    if (int(n) == reference_)
      line += ", the reference";
    else if (!a.run.compared())
      line += ", not compared yet (from the first step)";
    else
      line += QStringLiteral(", vs %1: max |diff| %2, error %3 of the peak norm (worst over the run %4, tolerance %5)%6")
                  .arg(viewports_[std::size_t(reference_)]->stageId())
                  .arg(figure(a.run.last().maxAbs))
                  .arg(figure(a.run.last().relativeL2))
                  .arg(figure(a.run.worst().relativeL2))
                  .arg(figure(a.tolerance))
                  .arg(a.agrees() ? "" : " DISAGREES");
    out << line;
  }
  return out;
}

void CompareWindow::closeEvent(QCloseEvent* event) {
  for (CompareViewport* v : viewports_) v->pane()->stop();  // each within about one batch
  QSettings().setValue(kGeometryKey, saveGeometry());
  event->accept();
}

namespace {

// What the lockstep costs and how interactive the views stay, for docs/PERFORMANCE.md: from the first
// common frame (every solver built) to the step asked for, the wall time, the common frames, the frames
// the first view drew and the longest wait between two of them; with --drag, a left-button drag across
// the first view throughout, one mouse move every 16 ms (what a pointer moving steadily delivers at 60
// Hz), orbiting every linked camera as a user's drag does.
class LockstepMeter : public QObject {
 public:
  LockstepMeter(CompareWindow& window, const StudioOptions& options)
      : window_(window), options_(options), firstView_(window.viewport(0)->pane()->view()) {
    connect(firstView_, &SliceView::frameDrawn, this, [this] {
      ++framesDrawn_;
      if (wall_.isValid() && sinceDrawn_.isValid()) longestGapMs_ = std::max(longestGapMs_, sinceDrawn_.elapsed());
      sinceDrawn_.start();
    });
    connect(&window, &CompareWindow::commonFrame, this, &LockstepMeter::onCommonFrame);
    if (!options.dragCamera) return;
    connect(&dragTimer_, &QTimer::timeout, this, [this] {
      if (dragTicks_++ == 0) sendMouse(QEvent::MouseButtonPress, Qt::LeftButton);
      sendMouse(QEvent::MouseMove, Qt::LeftButton);
    });
    dragTimer_.start(16);
  }

 private:
  void onCommonFrame(long step) {
    if (!wall_.isValid()) {
      wall_.start();
      framesDrawn_ = commonFrames_ = 0;
      longestGapMs_ = 0;
      sinceDrawn_.invalidate();
      return;
    }
    ++commonFrames_;
    if (step < options_.steps || reported_) return;
    reported_ = true;
    if (dragTimer_.isActive()) {
      dragTimer_.stop();
      sendMouse(QEvent::MouseButtonRelease, Qt::NoButton);
    }
    const double seconds = wall_.elapsed() / 1000.0;
    double points = 0.0;
    for (int n = 0; n < window_.viewportCount(); ++n)
      if (window_.coordinator().active(std::size_t(n)))
        points += double(window_.viewport(n)->pane()->lastStatus().grid.interiorSize()) * double(step);
    if (seconds <= 0.0) return;
    std::printf("lockstep: %ld steps in %.2f s of wall time: %.1f Mpts/s over all viewports, %.1f common frames/s, "
                "%.1f frames/s drawn (longest wait between two: %lld ms)%s, %d steps per frame at the end%s\n",
                step, seconds, points / seconds / 1e6, double(commonFrames_) / seconds, double(framesDrawn_) / seconds,
                static_cast<long long>(longestGapMs_), options_.dragCamera ? " while the camera was dragged" : "",
                window_.stepsPerFrame(), options_.stepsPerFrameGiven ? "" : " (auto)");
    std::fflush(stdout);
  }

  void sendMouse(QEvent::Type type, Qt::MouseButtons buttons) {
    const QPointF at(firstView_->width() / 2 + 4 * (std::abs(dragTicks_ % 120 - 60) - 30), firstView_->height() / 2);
    QMouseEvent event(type, at, firstView_->mapToGlobal(at), Qt::LeftButton, buttons, Qt::NoModifier);
    QApplication::sendEvent(firstView_, &event);
  }

  CompareWindow& window_;
  const StudioOptions& options_;
  SliceView* firstView_;
  QElapsedTimer wall_, sinceDrawn_;
  long framesDrawn_ = 0, commonFrames_ = 0;
  qint64 longestGapMs_ = 0;
  bool reported_ = false;
  QTimer dragTimer_;
  int dragTicks_ = 0;
};

// At the step asked for: each viewport's figures, and a failure when a viewport failed or disagrees
// with the reference.
HeadlessDriver::Report agreementReport(CompareWindow& window) {
  HeadlessDriver::Report report;
  window.refreshCounters();  // what is printed is what the picture shows
  bool agree = window.referenceIndex() >= 0;
  for (int n = 0; n < window.viewportCount(); ++n) {
    const bool running = window.coordinator().active(std::size_t(n));
    const CompareWindow::Agreement& a = window.agreement(n);
    if (!running || (n != window.referenceIndex() && !a.agrees())) agree = false;
  }
  report.lines = window.summary();
  if (!agree)
    report.problems << QStringLiteral("a viewport failed or disagrees with the reference beyond its tolerance "
                                      "(the error over the run's peak norm)");
  return report;
}

// Grid points updated so far, over every viewport with a solver.
double pointsComputed(const CompareWindow& window) {
  double points = 0.0;
  for (int n = 0; n < window.viewportCount(); ++n) {
    const ControllerStatus s = window.viewport(n)->pane()->controller().status();
    if (s.hasSolver) points += double(s.grid.interiorSize()) * double(s.step);
  }
  return points;
}

}  // namespace

int runCompareWindow(const StudioOptions& options) {
  CompareWindow window(options.scenario, options.compareStages);
  window.setStepsPerFrame(options.stepsPerFrameGiven ? options.stepsPerFrame : CompareWindow::kAutoStepsPerFrame);
  if (!window.notice().isEmpty()) printStudioError(window.notice());
  window.setStopStep(options.steps);
  window.setViewMode(options.viewMode);
  window.setDifference(options.compareDifference);
  for (int n = 0; n < window.viewportCount(); ++n) {
    window.viewport(n)->pane()->view()->setVolumeSettings(options.volume);
    window.viewport(n)->pane()->setViewFrames(options.viewFrames);
  }
  // Before the driver's: the measurement ends at the step, not after the screenshot.
  std::optional<LockstepMeter> meter;
  if (!options.screenshot.isEmpty()) meter.emplace(window, options);
  HeadlessDriver::Target target;
  target.window = &window;
  target.view = &window;
  target.screenArea = window.centralWidget();  // the viewports with the sharing note
  target.recording = window.exportActions()->recording();
  target.pointsComputed = [&] { return pointsComputed(window); };
  target.conclude = [&] { return agreementReport(window); };
  target.settleMs = 50;  // the views paint the step in the next pass of the event loop
  HeadlessDriver driver(options, std::move(target));
  driver.finishAtStep();
  // Recording starts at the first common frame (every solver built); the session runs the lockstep itself.
  QObject::connect(&window, &CompareWindow::commonFrame, &driver, [&] { driver.startRecording(); });
  return driver.exec([&] { window.setPlaying(!options.startPaused && options.record.isEmpty()); });
}

}  // namespace iso
