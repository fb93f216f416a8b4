#include "MainWindow.h"

#include <QAction>
#include <QActionGroup>
#include <QApplication>
#include <QCheckBox>
#include <QCloseEvent>
#include <QComboBox>
#include <QDateTime>
#include <QDockWidget>
#include <QDoubleSpinBox>
#include <QFileDialog>
#include <QFileInfo>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QListWidget>
#include <QMenuBar>
#include <QMessageBox>
#include <QScrollArea>
#include <QSettings>
#include <QSlider>
#include <QSpinBox>
#include <QStatusBar>
#include <QStyle>
#include <QToolBar>

#include "DeviceRegistry.h"
#include "ScenarioForm.h"
#include "SimulationPane.h"
#include "SliceView.h"

namespace iso {
namespace {

constexpr int kRebuildDelayMs = 300;
constexpr int kMaxRecentFiles = 8;
const char* kRecentKey = "recentFiles";

QString compactCounters(const ControllerStatus& s, double fps) {
  if (!s.hasSolver) return s.rebuilding ? "building the solver…" : "no simulation";
  const Throughput& t = s.throughput;
  QString text = QStringLiteral("step %1  |  t %2 s  |  %3 Mpts/s  |  %4 GFLOP/s  |  %5 / %6 GB/s (12 / 16 B/pt)")
                     .arg(s.step)
                     .arg(s.time, 0, 'f', 3)
                     .arg(rateText(t, t.mpts, 1), rateText(t, t.gflops, 1), rateText(t, t.gbsSample, 1),
                          rateText(t, t.gbsTraffic, 1));
  if (t.ceilingGBs > 0.0) text += QStringLiteral("  |  %1 % roofline").arg(rateText(t, t.rooflinePercent, 0));
  text += QStringLiteral("  |  %1 fps").arg(fps, 0, 'f', 0);
  return text;
}

QWidget* scrollable(QWidget* page) {
  auto* scroll = new QScrollArea;
  scroll->setWidget(page);
  scroll->setWidgetResizable(true);
  scroll->setFrameShape(QFrame::NoFrame);
  scroll->setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
  return scroll;
}

}  // namespace

MainWindow::MainWindow(const Scenario& initial, QWidget* parent) : QMainWindow(parent) {
  setWindowTitle("iso3dfd studio");
  pane_ = new SimulationPane(this);
  setCentralWidget(pane_);
  form_ = new ScenarioForm(this);

  QStringList selectors, summaries;
  for (const DeviceInfo& d : listDevices()) {
    selectors << QString::fromStdString(d.selector());
    summaries << QString::fromStdString(d.summary());
  }
  form_->setDevices(selectors, summaries);

  buildActions();
  buildMenus();
  buildDocks();
  counters_ = new QLabel;
  counters_->setToolTip("Live counters of the running stage: Mpts/s = interior points × steps / s; GFLOP/s at\n"
                        "61 flops per point; GB/s at 12 B/pt (the oneAPI sample's figure) and 16 B/pt (the\n"
                        "least traffic a step needs); % of the measured copy bandwidth; frames drawn per second");
  statusBar()->addPermanentWidget(counters_, 1);

  rebuildDelay_.setSingleShot(true);
  rebuildDelay_.setInterval(kRebuildDelayMs);
  connect(&rebuildDelay_, &QTimer::timeout, this, [this] { pane_->controller().setScenario(form_->scenario()); });
  connect(form_, &ScenarioForm::changed, this, &MainWindow::scheduleRebuild);
  connect(form_, &ScenarioForm::presetRequested, this, [this](const QString& name) {
    try {
      applyScenario(presetScenario(name.toStdString()));
    } catch (const std::exception& e) {
      showMessage(QString::fromStdString(e.what()));
    }
  });
  connect(form_, &ScenarioForm::browseModelFile, this, [this] {
    const QString path = QFileDialog::getOpenFileName(
        this, "Velocity model", QString(), "Velocity models (*.npy *.bin *.raw *.sgy *.segy);;All files (*)");
    if (!path.isEmpty()) form_->setModelFile(path);
  });
  connect(pane_, &SimulationPane::controllerEvent, this, &MainWindow::onControllerEvent);
  connect(pane_, &SimulationPane::statusUpdated, this, &MainWindow::onStatus);
  connect(pane_, &SimulationPane::rebuilt, this, [this](const Scenario& active) {
    const ControllerStatus& s = pane_->lastStatus();
    form_->setStability(s.stability);
    sliceI_->setMaximum(s.grid.n1 - 1);
    sliceJ_->setMaximum(s.grid.n2 - 1);
    sliceK_->setMaximum(s.grid.n3 - 1);
    setWindowTitle(QStringLiteral("iso3dfd studio — %1%2")
                       .arg(QString::fromStdString(active.name))
                       .arg(scenarioPath_.isEmpty() ? QString() : " (" + QFileInfo(scenarioPath_).fileName() + ")"));
  });
  connect(pane_->view(), &SliceView::cellPicked, this, [this](int i, int j, int k) {
    form_->setSourceCell(i, j, k);
    statusBar()->showMessage(QStringLiteral("Source moved to cell (%1, %2, %3): restarting").arg(i).arg(j).arg(k), 4000);
  });

  QSettings settings;
  restoreGeometry(settings.value("geometry").toByteArray());
  if (!restoreState(settings.value("windowState").toByteArray())) resize(1280, 720);
  updateRecentMenu();
  applyScenario(initial);
}

MainWindow::~MainWindow() = default;

void MainWindow::buildActions() {
  QStyle* st = style();
  playAction_ = new QAction(st->standardIcon(QStyle::SP_MediaPlay), "&Play", this);
  playAction_->setCheckable(true);
  playAction_->setShortcut(Qt::Key_Space);
  playAction_->setToolTip("Play / pause the simulation (Space)");
  connect(playAction_, &QAction::toggled, this, [this](bool on) {
    showPlaying(on);
    pane_->controller().setPlaying(on);
  });
  stepAction_ = new QAction(st->standardIcon(QStyle::SP_MediaSkipForward), "&Step", this);
  stepAction_->setShortcuts({Qt::Key_S, Qt::Key_Right});
  stepAction_->setToolTip("Pause and advance one time step (S or Right)");
  connect(stepAction_, &QAction::triggered, this, [this] {
    setPlaying(false);
    pane_->controller().singleStep(1);
  });
  resetAction_ = new QAction(st->standardIcon(QStyle::SP_MediaSkipBackward), "&Reset", this);
  resetAction_->setShortcut(Qt::Key_R);
  resetAction_->setToolTip("Restart the run from step 0 (R)");
  connect(resetAction_, &QAction::triggered, this, [this] { pane_->controller().reset(); });
}

void MainWindow::buildMenus() {
  QStyle* st = style();
  QMenu* file = menuBar()->addMenu("&File");
  QAction* open = file->addAction(st->standardIcon(QStyle::SP_DialogOpenButton), "&Open scenario…", this, [this] {
    const QString path = QFileDialog::getOpenFileName(this, "Open scenario", QString(), "Scenarios (*.json);;All files (*)");
    if (!path.isEmpty()) openScenario(path);
  });
  open->setShortcut(QKeySequence::Open);
  recentMenu_ = file->addMenu("Open &recent");
  QAction* save = file->addAction(st->standardIcon(QStyle::SP_DialogSaveButton), "&Save scenario", this, [this] {
    QString path = scenarioPath_;
    if (path.isEmpty()) path = QFileDialog::getSaveFileName(this, "Save scenario", "scenario.json", "Scenarios (*.json)");
    if (!path.isEmpty()) saveScenario(path);
  });
  save->setShortcut(QKeySequence::Save);
  file->addAction("Save scenario &as…", this, [this] {
        const QString path = QFileDialog::getSaveFileName(this, "Save scenario as", scenarioPath_, "Scenarios (*.json)");
        if (!path.isEmpty()) saveScenario(path);
      })
      ->setShortcut(QKeySequence::SaveAs);
  file->addSeparator();
  QAction* shot = file->addAction("Save s&creenshot…", this, [this] {
    const QString name = QStringLiteral("iso3dfd-step%1.png").arg(pane_->shownStep());
    const QString path = QFileDialog::getSaveFileName(this, "Save screenshot", name, "PNG images (*.png)");
    if (!path.isEmpty() && saveScreenshot(path)) statusBar()->showMessage("Saved " + path, 4000);
  });
  shot->setShortcut(Qt::Key_F12);
  file->addSeparator();
  file->addAction("&Quit", this, &QWidget::close)->setShortcut(QKeySequence::Quit);

  QMenu* sim = menuBar()->addMenu("&Simulation");
  sim->addAction(playAction_);
  sim->addAction(stepAction_);
  sim->addAction(resetAction_);

  QMenu* view = menuBar()->addMenu("&View");
  modeActions_ = new QActionGroup(this);
  QActionGroup* modes = modeActions_;
  const QStringList modeNames = {"&3D orthogonal slices", "Plane &XY (top)", "Plane X&Z (side)", "Plane &YZ (front)"};
  for (int n = 0; n < modeNames.size(); ++n) {
    QAction* a = view->addAction(modeNames[n]);
    a->setShortcut(QKeySequence(Qt::Key_1 + n));
    a->setCheckable(true);
    a->setChecked(n == 0);
    modes->addAction(a);
    connect(a, &QAction::triggered, this, [this, n] { viewMode_->setCurrentIndex(n); });
  }
  view->addSeparator();
  viewMenu_ = view;  // buildDocks adds the docks' show/hide actions
  QMenu* help = menuBar()->addMenu("&Help");
  help->addAction("&About iso3dfd studio", this, [this] {
    QMessageBox::about(
        this, "About iso3dfd studio",
        QStringLiteral("<h3>iso3dfd studio %1</h3>"
                       "<p>Solves the 3D acoustic wave equation with the ISO3DFD stencil (16th order in space, "
                       "2nd order in time) on OpenCL devices and the CPU, shows the waves live, and compares "
                       "the GPU optimisation stages of the oneAPI iso3dfd samples.</p>"
                       "<p>Space play/pause · S or → step · R reset · 1–4 view modes · F12 screenshot · "
                       "click a slice to move the source.</p>")
            .arg(ISO_VERSION));
  });
  help->addAction("About &Qt", qApp, &QApplication::aboutQt);

  QToolBar* tools = addToolBar("Simulation");
  tools->setObjectName("simulationToolbar");
  tools->addAction(playAction_);
  tools->addAction(stepAction_);
  tools->addAction(resetAction_);
  tools->addSeparator();
  tools->addAction(open);
  tools->addAction(save);
}

void MainWindow::buildDocks() {
  auto addDock = [this](const QString& title, const QString& name, QWidget* content, Qt::DockWidgetArea area) {
    auto* dock = new QDockWidget(title, this);
    dock->setObjectName(name);
    dock->setWidget(content);
    addDockWidget(area, dock);
    viewMenu_->addAction(dock->toggleViewAction());
    return dock;
  };
  // Parameters on the left (the stage as a tab behind the scenario), view controls on the right: the view
  // in the middle keeps most of the width.
  QDockWidget* scenario = addDock("Scenario", "scenarioDock", scrollable(form_->physicsPage()), Qt::LeftDockWidgetArea);
  // Wide enough for the form without a horizontal scroll bar (the vertical one may appear).
  const int formWidth = form_->physicsPage()->sizeHint().width() + style()->pixelMetric(QStyle::PM_ScrollBarExtent) + 8;
  scenario->setMinimumWidth(formWidth);
  QDockWidget* stage = addDock("Stage and device", "stageDock", scrollable(form_->stagePage()), Qt::LeftDockWidgetArea);
  tabifyDockWidget(scenario, stage);
  scenario->raise();
  QDockWidget* viewDock = addDock("View", "viewDock", buildViewControls(), Qt::RightDockWidgetArea);
  viewDock->setMaximumWidth(320);  // short controls: leave the width to the view
  resizeDocks({scenario, viewDock}, {formWidth, 250}, Qt::Horizontal);

  messages_ = new QListWidget;
  messages_->setToolTip("Errors and notices; double-click one for its details (e.g. a kernel build log)");
  messages_->setWordWrap(true);
  connect(messages_, &QListWidget::itemDoubleClicked, this, [this](QListWidgetItem* item) {
    auto* box = new QMessageBox(QMessageBox::Information, "Message", item->text(), QMessageBox::Close, this);
    box->setDetailedText(item->data(Qt::UserRole).toString());
    box->setAttribute(Qt::WA_DeleteOnClose);
    box->open();  // window-modal at most, never blocks the simulation
  });
  QDockWidget* dock = addDock("Messages", "messagesDock", messages_, Qt::BottomDockWidgetArea);
  dock->hide();  // appears with the first message
}

QWidget* MainWindow::buildViewControls() {
  auto* page = new QWidget;
  auto* form = new QFormLayout(page);
  SliceView* view = pane_->view();
  SimulationController& controller = pane_->controller();

  stepsPerFrame_ = new QSpinBox;
  stepsPerFrame_->setRange(1, 1000);
  stepsPerFrame_->setValue(4);
  stepsPerFrame_->setToolTip("Time steps between two displayed frames (a batch never takes more than ~50 ms, so\n"
                             "large grids show fewer). Range: 1 to 1000");
  connect(stepsPerFrame_, &QSpinBox::valueChanged, this, [&controller](int n) { controller.setStepsPerFrame(n); });
  controller.setStepsPerFrame(stepsPerFrame_->value());
  form->addRow("Steps per frame:", stepsPerFrame_);

  auto sliceSpin = [&](const QString& axis) {
    auto* s = new QSpinBox;
    s->setRange(-1, 4095);
    s->setValue(-1);
    s->setSpecialValueText("source");
    s->setMinimumWidth(s->fontMetrics().horizontalAdvance("source") + 36);  // the text plus the arrows
    s->setKeyboardTracking(false);
    s->setToolTip(QStringLiteral("Interior cell along %1 where the orthogonal slices cross; 'source' follows the\n"
                                 "source cell (the centre when there is no point source)").arg(axis));
    connect(s, &QSpinBox::valueChanged, this,
            [this] { pane_->controller().setSlicePoint(sliceI_->value(), sliceJ_->value(), sliceK_->value()); });
    return s;
  };
  sliceI_ = sliceSpin("x");
  sliceJ_ = sliceSpin("y");
  sliceK_ = sliceSpin("z");
  auto* sliceRow = new QHBoxLayout;
  for (QSpinBox* s : {sliceI_, sliceJ_, sliceK_}) sliceRow->addWidget(s);
  // A row of its own: three spin boxes beside a label would not fit the dock's default width.
  form->addRow(new QLabel("Slice point (x, y, z cell):"));
  form->addRow(sliceRow);

  viewMode_ = new QComboBox;
  viewMode_->addItems({"3D orthogonal slices", "Plane XY (top)", "Plane XZ (side)", "Plane YZ (front)"});
  viewMode_->setToolTip("What the view shows (keys 1–4); drag to orbit in 3D, wheel to zoom");
  connect(viewMode_, &QComboBox::currentIndexChanged, this, [this, view](int n) {
    static const SliceView::Mode modes[] = {SliceView::Mode::Orthogonal3D, SliceView::Mode::PlaneXY,
                                            SliceView::Mode::PlaneXZ, SliceView::Mode::PlaneYZ};
    view->setMode(modes[n]);
    if (QAction* a = modeActions_->actions().value(n)) a->setChecked(true);  // the View menu follows
  });
  form->addRow("Mode:", viewMode_);

  colormap_ = new QComboBox;
  colormap_->addItems(SliceView::colormapNames());
  colormap_->setToolTip("Colour map of the wavefield (symmetric about zero)");
  connect(colormap_, &QComboBox::currentTextChanged, view, &SliceView::setColormap);
  form->addRow("Colour map:", colormap_);

  gainMode_ = new QComboBox;
  for (GainMode mode : {GainMode::Automatic, GainMode::Fixed, GainMode::PerFrame})
    gainMode_->addItem(gainModeName(mode), int(mode));
  gainMode_->setToolTip("auto: follow the amplitude (a robust percentile of |u|, smoothed over time), never below\n"
                        "1e-2 of its peak, so a field that has died away is not amplified; fixed: the clip on the\n"
                        "right; per-frame: follow the amplitude down to whatever is left, noise included");
  clip_ = new QDoubleSpinBox;
  clip_->setRange(1e-4, 1e6);
  clip_->setDecimals(4);
  clip_->setValue(1.0);
  clip_->setKeyboardTracking(false);
  clip_->setEnabled(false);
  clip_->setToolTip("Manual symmetric colour range [-clip, clip] of u. Range: 0.0001 to 1000000");
  const auto fixedGain = [this] { return GainMode(gainMode_->currentData().toInt()) == GainMode::Fixed; };
  connect(gainMode_, &QComboBox::currentIndexChanged, this, [this, view, fixedGain] {
    clip_->setEnabled(fixedGain());
    if (fixedGain()) view->setClip(float(clip_->value()));
    view->setGainMode(GainMode(gainMode_->currentData().toInt()));
  });
  connect(clip_, &QDoubleSpinBox::valueChanged, this, [view, fixedGain](double c) {
    if (fixedGain()) view->setClip(float(c));
  });
  connect(view, &SliceView::clipChanged, this, [this, fixedGain](float c) {
    if (fixedGain()) return;
    const QSignalBlocker block(clip_);  // show the automatic range without switching to manual
    clip_->setValue(c);
  });
  auto* gainRow = new QHBoxLayout;
  gainRow->addWidget(gainMode_);
  gainRow->addWidget(clip_, 1);
  form->addRow("Gain / clip:", gainRow);

  overlay_ = new QCheckBox("velocity model");
  overlay_->setToolTip("Blend the velocity model over the wavefield");
  overlayOpacity_ = new QSlider(Qt::Horizontal);
  overlayOpacity_->setRange(0, 100);
  overlayOpacity_->setValue(35);
  overlayOpacity_->setToolTip("Opacity of the velocity overlay: 0 to 100 %");
  auto applyOverlay = [this, view] { view->setVelocityOverlay(overlay_->isChecked(), overlayOpacity_->value() / 100.0f); };
  connect(overlay_, &QCheckBox::toggled, this, applyOverlay);
  connect(overlayOpacity_, &QSlider::valueChanged, this, applyOverlay);
  auto* overlayRow = new QHBoxLayout;
  overlayRow->addWidget(overlay_);
  overlayRow->addWidget(overlayOpacity_, 1);
  form->addRow("Overlay:", overlayRow);
  overlay_->setChecked(true);
  return page;
}

void MainWindow::scheduleRebuild() { rebuildDelay_.start(); }

void MainWindow::applyScenario(const Scenario& scenario) {
  rebuildDelay_.stop();
  form_->setScenario(scenario);
  pane_->controller().setScenario(scenario);
}

void MainWindow::setPlaying(bool playing) { playAction_->setChecked(playing); }

void MainWindow::setViewMode(int mode) { viewMode_->setCurrentIndex(mode); }

bool MainWindow::openScenario(const QString& path) {
  try {
    const Scenario s = loadScenarioFile(path.toStdString());
    scenarioPath_ = path;
    applyScenario(s);
    addRecentFile(path);
    statusBar()->showMessage("Opened " + path, 4000);
    return true;
  } catch (const std::exception& e) {
    showMessage(QStringLiteral("Could not open %1: %2").arg(path, QString::fromStdString(e.what())));
    return false;
  }
}

bool MainWindow::saveScenario(const QString& path) {
  try {
    saveScenarioFile(form_->scenario(), path.toStdString());
    scenarioPath_ = path;
    addRecentFile(path);
    statusBar()->showMessage("Saved " + path, 4000);
    return true;
  } catch (const std::exception& e) {
    showMessage(QStringLiteral("Could not save %1: %2").arg(path, QString::fromStdString(e.what())));
    return false;
  }
}

bool MainWindow::saveScreenshot(const QString& path) {
  const QImage image = pane_->view()->grabFramebuffer();
  if (image.isNull() || !image.save(path, "PNG")) {
    showMessage(QStringLiteral("Could not save the screenshot to %1").arg(path));
    return false;
  }
  return true;
}

void MainWindow::showMessage(const QString& text, const QString& details, bool error) {
  const QString stamp = QDateTime::currentDateTime().toString("HH:mm:ss");
  auto* item = new QListWidgetItem(style()->standardIcon(error ? QStyle::SP_MessageBoxWarning
                                                               : QStyle::SP_MessageBoxInformation),
                                   stamp + "  " + text);
  item->setData(Qt::UserRole, details);
  if (!details.isEmpty()) item->setToolTip(details.left(2000));
  messages_->addItem(item);
  messages_->scrollToBottom();
  if (error) {
    auto* dock = qobject_cast<QDockWidget*>(messages_->parentWidget());
    if (dock) {
      dock->show();
      dock->raise();
    }
    statusBar()->showMessage(text, 8000);
  }
}

void MainWindow::onControllerEvent(const ControllerEvent& e) {
  if (e.kind == ControllerEvent::Kind::Error)
    showMessage(QString::fromStdString(e.message), QString::fromStdString(e.details));
  else
    statusBar()->showMessage("Ready: " + QString::fromStdString(e.message), 4000);
}

void MainWindow::onStatus(const ControllerStatus& s) {
  counters_->setText(compactCounters(s, pane_->framesPerSecond()));
  if (s.selfPauses != selfPauses_) {
    // The controller paused on its own (a requested step reached, or a solver failure).
    selfPauses_ = s.selfPauses;
    if (!s.playing) {
      const QSignalBlocker block(playAction_);
      playAction_->setChecked(false);
      showPlaying(false);
    }
  }
}

void MainWindow::showPlaying(bool playing) {
  playAction_->setIcon(style()->standardIcon(playing ? QStyle::SP_MediaPause : QStyle::SP_MediaPlay));
  playAction_->setText(playing ? "&Pause" : "&Play");
}

void MainWindow::addRecentFile(const QString& path) {
  QSettings settings;
  QStringList files = settings.value(kRecentKey).toStringList();
  const QString absolute = QFileInfo(path).absoluteFilePath();
  files.removeAll(absolute);
  files.prepend(absolute);
  while (files.size() > kMaxRecentFiles) files.removeLast();
  settings.setValue(kRecentKey, files);
  updateRecentMenu();
}

void MainWindow::updateRecentMenu() {
  recentMenu_->clear();
  const QStringList files = QSettings().value(kRecentKey).toStringList();
  for (const QString& f : files) recentMenu_->addAction(QFileInfo(f).fileName(), this, [this, f] { openScenario(f); })->setToolTip(f);
  recentMenu_->setEnabled(!files.isEmpty());
}

void MainWindow::closeEvent(QCloseEvent* event) {
  pane_->stop();  // within about one batch: the compute thread checks its stop flag between batches
  QSettings settings;
  settings.setValue("geometry", saveGeometry());
  settings.setValue("windowState", saveState());
  event->accept();
}

}  // namespace iso
