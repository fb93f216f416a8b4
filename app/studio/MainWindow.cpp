#include "app/studio/MainWindow.h"

#include <cmath>

#include <QAction>
#include <QActionGroup>
#include <QApplication>
#include <QCloseEvent>
#include <QDateTime>
#include <QDockWidget>
#include <QFileDialog>
#include <QFileInfo>
#include <QFormLayout>
#include <QImage>
#include <QLabel>
#include <QListWidget>
#include <QMenuBar>
#include <QMessageBox>
#include <QScrollArea>
#include <QSettings>
#include <QSignalBlocker>
#include <QStatusBar>
#include <QStyle>
#include <QToolBar>
#include <QUndoStack>

#include "app/studio/BenchmarkPanel.h"
#include "app/studio/CompareWindow.h"
#include "compute/DeviceRegistry.h"
#include "app/studio/DataExportActions.h"
#include "app/studio/ElidedLabel.h"
#include "app/studio/ExportActions.h"
#include "app/studio/HelpWindow.h"
#include "app/studio/LessonWindow.h"
#include "app/studio/ReceiverEditor.h"
#include "app/studio/RunProgress.h"
#include "app/studio/ScenarioForm.h"
#include "app/studio/SimulationPane.h"
#include "app/studio/SourceEditor.h"
#include "render/SliceView.h"
#include "app/studio/ViewControls.h"
#include "app/studio/ViewModes.h"
#include "app/studio/StageExplorer.h"
#include "app/studio/TracePlotPanel.h"
#include "core/StageRegistry.h"

namespace iso {
namespace {

constexpr int kRebuildDelayMs = 300;
constexpr int kMaxRecentFiles = 8;
const char* kRecentKey = "recentFiles";

// Scenarios compare by everything a run depends on (the file form writes every field).
bool sameScenario(const Scenario& a, const Scenario& b) { return scenarioToJson(a) == scenarioToJson(b); }

ScenarioOrigin originOf(const Scenario& s) { return {QString::fromStdString(s.name), {}, false}; }

QWidget* scrollable(QWidget* page) {
  auto* scroll = new QScrollArea;
  scroll->setWidget(page);
  scroll->setWidgetResizable(true);
  scroll->setFrameShape(QFrame::NoFrame);
  scroll->setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
  return scroll;
}

}  // namespace

MainWindow::MainWindow(const Scenario& initial, const std::optional<ScenarioOrigin>& origin, QWidget* parent) : QMainWindow(parent) {
  setWindowTitle("iso3dfd studio");
  pane_ = new SimulationPane(this);
  // Where the solver computes on the host's cores, each frame drawn (in software, without a GPU) is
  // taken from it; 30 frames/s still moves smoothly (what it gives the solver: docs/PERFORMANCE.md).
  pane_->setFrameRateBesideHostSolver(30);
  setCentralWidget(pane_);
  form_ = new ScenarioForm(this);

  QStringList selectors, summaries;
  for (const DeviceChoice& d : deviceChoices()) {
    selectors << QString::fromStdString(d.selector);
    summaries << QString::fromStdString(d.label);
  }
  form_->setDevices(selectors, summaries);

  buildActions();
  buildMenus();
  buildDocks();
  progress_ = new RunProgress;
  statusBar()->addPermanentWidget(progress_);
  connect(progress_, &RunProgress::runEndChanged, this, [this](RunEnd end) { pane_->controller().setRunEnd(end); });
  connect(progress_, &RunProgress::stepsEdited, form_, &ScenarioForm::setSteps);
  pane_->controller().setRunEnd(progress_->runEnd());
  counters_ = new ElidedLabel;
  counters_->setObjectName("counters");
  counters_->setToolTip("Live counters of the running stage: Mpts/s = interior points × steps / s; GFLOP/s at\n"
                        "61 flops per point; GB/s at 12 B/pt (the oneAPI sample's figure) and 16 B/pt (the\n"
                        "least traffic a step needs); % of the measured copy bandwidth; frames drawn per second");
  statusBar()->addPermanentWidget(counters_, 1);
  probe_ = new QLabel;
  probe_->setObjectName("probe");
  probe_->setToolTip("The cell under the pointer: its indices, its centre in metres, the wavefield u and the velocity\n"
                     "there (on the slices shown; empty off the slices)");
  statusBar()->addPermanentWidget(probe_);
  connect(pane_->view(), &SliceView::cellHovered, this, &MainWindow::showProbe);
  // The value under the pointer follows the run (a reset starts it again from 0): it is read from the
  // view's slices, so it follows them as the view takes them.
  connect(pane_->view(), &SliceView::slicesChanged, this, [this] {
    if (probed_[0] >= 0) showProbe(probed_[0], probed_[1], probed_[2]);
  });

  rebuildDelay_.setSingleShot(true);
  rebuildDelay_.setInterval(kRebuildDelayMs);
  connect(&rebuildDelay_, &QTimer::timeout, this, [this] { requestRun(form_->scenario(), form_->origin()); });
  connect(form_, &ScenarioForm::changed, &rebuildDelay_, qOverload<>(&QTimer::start));
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
  connect(pane_, &SimulationPane::rebuilt, this, &MainWindow::onRebuilt);
  connect(pane_->view(), &SliceView::cellPicked, this, [this](int i, int j, int k) {
    form_->setSourceCell(i, j, k);
    statusBar()->showMessage(QStringLiteral("Source moved to cell (%1, %2, %3): restarting").arg(i).arg(j).arg(k), 4000);
  });
  connect(pane_->view(), &SliceView::cellShiftPicked, this, [this](int i, int j, int k) {
    form_->addReceiver(i, j, k);
    statusBar()->showMessage(QStringLiteral("Receiver %1 added at cell (%2, %3, %4): restarting")
                                 .arg(form_->receivers()->receivers().size() - 1).arg(i).arg(j).arg(k), 4000);
  });

  QSettings settings;
  restoreGeometry(settings.value("geometry").toByteArray());
  if (!restoreState(settings.value("windowState").toByteArray())) resize(1280, 720);
  updateRecentMenu();
  applyScenario(initial, origin.value_or(originOf(initial)));
}

MainWindow::~MainWindow() {
  delete exportActions_;  // an unfinished recording is discarded while the pane it pauses exists
}

void MainWindow::buildActions() {
  QStyle* st = style();
  playAction_ = new QAction(st->standardIcon(QStyle::SP_MediaPlay), "&Play", this);
  playAction_->setCheckable(true);
  playAction_->setShortcut(Qt::Key_Space);
  playAction_->setToolTip("Play / pause the simulation (Space)");
  connect(playAction_, &QAction::toggled, this, [this](bool on) {
    showPlaying(on);
    playRun(on);
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
  QMenu* file = fileMenu_ = menuBar()->addMenu("&File");
  QAction* open = file->addAction(st->standardIcon(QStyle::SP_DialogOpenButton), "&Open scenario…", this, [this] {
    const QString path = QFileDialog::getOpenFileName(this, "Open scenario", QString(), "Scenarios (*.json);;All files (*)");
    if (!path.isEmpty()) openScenario(path);
  });
  open->setShortcut(QKeySequence::Open);
  recentMenu_ = file->addMenu("Open &recent");
  QAction* save = file->addAction(st->standardIcon(QStyle::SP_DialogSaveButton), "&Save scenario", this, [this] {
    QString path = form_->origin().file;
    if (path.isEmpty()) path = QFileDialog::getSaveFileName(this, "Save scenario", "scenario.json", "Scenarios (*.json)");
    if (!path.isEmpty()) saveScenario(path);
  });
  save->setShortcut(QKeySequence::Save);
  file->addAction("Save scenario &as…", this, [this] {
        const QString path = QFileDialog::getSaveFileName(this, "Save scenario as", form_->origin().file, "Scenarios (*.json)");
        if (!path.isEmpty()) saveScenario(path);
      })
      ->setShortcut(QKeySequence::SaveAs);
  file->addSeparator();
  exportActions_ = new ExportActions(this, pane_, playAction_);
  connect(exportActions_, &ExportActions::message, this, [this](const QString& text, bool error) { showMessage(text, {}, error); });
  file->addAction(exportActions_->saveImageAction());
  file->addAction(exportActions_->recordAction());
  dataExport_ = new DataExportActions(this, pane_, [this](Checkpoint c) { restoreCheckpoint(std::move(c)); });
  connect(dataExport_, &DataExportActions::message, this, [this](const QString& text, bool error) { showMessage(text, {}, error); });
  QMenu* data = file->addMenu("E&xport data");
  data->setToolTipsVisible(true);
  data->addActions(dataExport_->exportActions());
  file->addAction(dataExport_->saveStateAction());
  file->addAction(dataExport_->restoreStateAction());
  file->addSeparator();
  file->addAction("&Quit", this, &QWidget::close)->setShortcut(QKeySequence::Quit);

  QMenu* edit = menuBar()->addMenu("&Edit");
  QAction* undo = form_->undoStack()->createUndoAction(this, "&Undo");
  undo->setShortcut(QKeySequence::Undo);
  QAction* redo = form_->undoStack()->createRedoAction(this, "&Redo");
  redo->setShortcut(QKeySequence::Redo);
  edit->addActions({undo, redo});

  QMenu* sim = menuBar()->addMenu("&Simulation");
  sim->addAction(playAction_);
  sim->addAction(stepAction_);
  sim->addAction(resetAction_);

  QMenu* view = menuBar()->addMenu("&View");
  modeActions_ = new QActionGroup(this);
  for (std::size_t n = 0; n < viewModes().size(); ++n) {
    QAction* a = view->addAction(viewModes()[n].menuText);
    a->setShortcut(QKeySequence(Qt::Key_1 + int(n)));
    a->setCheckable(true);
    a->setChecked(n == 0);
    modeActions_->addAction(a);
    connect(a, &QAction::triggered, this, [this, n] { setViewMode(int(n)); });
  }
  view->addSeparator();
  QAction* compare = view->addAction("&Compare stages side by side…", this, &MainWindow::openCompareWindow);
  compare->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_K));
  compare->setToolTip("2 to 4 stages on this scenario, side by side in lockstep, with speed-ups and agreement (Ctrl+K)");
  QAction* bench = view->addAction("&Benchmark panel…", this, [this] {
    const Scenario s = pane_->lastStatus().hasSolver ? pane_->controller().activeScenario() : form_->scenario();
    auto* panel = findChild<BenchmarkPanel*>(QString(), Qt::FindDirectChildrenOnly);
    if (!panel) {
      panel = new BenchmarkPanel(s, this);
      panel->setWindowFlag(Qt::Window);
      // The stage explanations quote the panel's measurements (the running stage's live figures
      // replace its own row while it runs).
      connect(panel, &BenchmarkPanel::finished, this, [this, panel] {
        if (!panel->currentRun()) return;
        for (const BenchmarkRow& row : panel->currentRun()->report.rows) {
          if (!row.error.empty() || row.throughput.mpts <= 0.0) continue;
          const StageMeasurement m{row.throughput.mpts, row.throughput.rooflinePercent, row.device};
          benchmarkFigures_[row.stage] = m;
          if (stageExplorer_) stageExplorer_->setMeasurement(row.stage, m);
        }
      });
    }
    if (!panel->running()) panel->setScenario(s);
    setPlaying(false);  // the timed stages get the devices to themselves
    panel->show();
    panel->raise();
    panel->activateWindow();
  });
  bench->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_B));
  bench->setToolTip("Time the stages on this scenario or a cube: table, throughput, roofline, tuning sweep (Ctrl+B)");
  QAction* deviceFrames = view->addAction("3D frames made on the simulation &GPU");
  deviceFrames->setCheckable(true);
  deviceFrames->setChecked(pane_->viewFrames() != PictureMaker::OpenGl);
  deviceFrames->setToolTip("The 3D slice view's frames made by OpenCL on the GPU that runs the solver, beside its steps, and shown\n"
                           "without OpenGL: on a compute GPU OpenGL's frames take time from the solver. Off: OpenGL draws them.");
  connect(deviceFrames, &QAction::triggered, this,
          [this](bool on) { pane_->setViewFrames(on ? PictureMaker::Auto : PictureMaker::OpenGl); });
  connect(pane_, &SimulationPane::viewFramesChanged, deviceFrames,
          [deviceFrames](PictureMaker maker) { deviceFrames->setChecked(maker != PictureMaker::OpenGl); });
  view->addSeparator();
  viewMenu_ = view;  // addPanel adds the docks' show/hide actions
  QMenu* teach = menuBar()->addMenu("&Teach");
  teach->addAction("&Stages: source, diff, explanation", this, &MainWindow::showStageExplorer)
      ->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_T));
  QAction* lesson = teach->addAction("&Lesson: predict, run and read each step…", this, &MainWindow::openLesson);
  lesson->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_L));
  lesson->setToolTip("A guided path through the stages on this scenario: predict each step's speed-up, run it beside the\n"
                     "stage before, read the code that changed; a staircase and a handout at the end (Ctrl+L)");
  QMenu* help = menuBar()->addMenu("&Help");
  help->addAction("&User guide", this, [this] { showHelp(HelpWindow::GuideTab); })->setShortcut(QKeySequence::HelpContents);
  help->addAction("&Keyboard shortcuts", this, [this] { showHelp(HelpWindow::ShortcutsTab); })
      ->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_Slash));
  help->addSeparator();
  help->addAction("&About iso3dfd studio", this, [this] {
    QMessageBox::about(
        this, "About iso3dfd studio",
        QStringLiteral("<h3>iso3dfd studio %1</h3>"
                       "<p>Solves the 3D acoustic wave equation with the ISO3DFD stencil (16th order in space, "
                       "2nd order in time) on OpenCL devices and the CPU, shows the waves live, and compares "
                       "the GPU optimisation stages of the oneAPI iso3dfd samples.</p>"
                       "<p>Help ▸ User guide (F1) has the whole guide, searchable; Help ▸ Keyboard shortcuts (Ctrl+/) "
                       "lists every key and what the mouse does in the view.</p>")
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
  tools->addAction(exportActions_->recordAction());
}

QDockWidget* MainWindow::addPanel(const QString& title, const QString& objectName, QWidget* content,
                                  Qt::DockWidgetArea area) {
  auto* dock = new QDockWidget(title, this);
  dock->setObjectName(objectName);
  dock->setWidget(content);
  addDockWidget(area, dock);
  viewMenu_->addAction(dock->toggleViewAction());
  return dock;
}

void MainWindow::buildDocks() {
  // Every panel is a tab on the left (scenario, stage, traces, view controls): the view keeps the rest of
  // the width, most of it at 1280×720, and a lecturer's picture is as large as the window allows. The
  // view's most used controls are also in the View menu and on the keys 1–5.
  // Rows whose field does not fit beside its label go below it: a narrow form leaves the view the width.
  for (QWidget* page : {form_->physicsPage(), form_->stagePage()})
    for (QFormLayout* rows : page->findChildren<QFormLayout*>()) rows->setRowWrapPolicy(QFormLayout::WrapLongRows);
  QDockWidget* scenario = addPanel("Scenario", "scenarioDock", scrollable(form_->physicsPage()), Qt::LeftDockWidgetArea);
  // Wide enough for the form without a horizontal scroll bar (the vertical one may appear).
  const int formWidth = form_->physicsPage()->minimumSizeHint().width() + style()->pixelMetric(QStyle::PM_ScrollBarExtent) + 8;
  scenario->setMinimumWidth(formWidth);
  QDockWidget* stage = addPanel("Stage and device", "stageDock", scrollable(form_->stagePage()), Qt::LeftDockWidgetArea);
  tabifyDockWidget(scenario, stage);
  // The traces are a tab beside the form: the view keeps the window's width and height (the dock can be
  // dragged under the view, where the plot and the seismogram go side by side).
  traces_ = new TracePlotPanel(pane_->controller());
  dataExport_->setSeismogramLook([this] { return traces_->seismogramOptions(); });  // the file as the tab shows it
  QDockWidget* traces = addPanel("Traces", "tracesDock", traces_, Qt::LeftDockWidgetArea);
  tabifyDockWidget(stage, traces);
  viewControls_ = new ViewControls(pane_->view(), pane_->controller());
  connect(viewControls_, &ViewControls::modeChanged, this, [this](int n) {
    if (QAction* a = modeActions_->actions().value(n)) a->setChecked(true);  // the View menu follows
  });
  QDockWidget* viewDock = addPanel("View", "viewDock", viewControls_, Qt::LeftDockWidgetArea);
  for (QFormLayout* rows : viewControls_->findChildren<QFormLayout*>()) rows->setRowWrapPolicy(QFormLayout::WrapLongRows);
  tabifyDockWidget(traces, viewDock);
  resizeDocks({scenario}, {formWidth}, Qt::Horizontal);

  messages_ = new QListWidget;
  messages_->setToolTip("Errors and notices; double-click one for its details (e.g. a kernel build log)");
  messages_->setWordWrap(true);
  connect(messages_, &QListWidget::itemDoubleClicked, this, [this](QListWidgetItem* item) {
    auto* box = new QMessageBox(QMessageBox::Information, "Message", item->text(), QMessageBox::Close, this);
    box->setDetailedText(item->data(Qt::UserRole).toString());
    box->setAttribute(Qt::WA_DeleteOnClose);
    box->open();  // window-modal at most, never blocks the simulation
  });
  QDockWidget* dock = addPanel("Messages", "messagesDock", messages_, Qt::BottomDockWidgetArea);
  dock->hide();  // appears with the first message
  scenario->raise();
}

void MainWindow::applyScenario(const Scenario& scenario) { applyScenario(scenario, originOf(scenario)); }

void MainWindow::applyScenario(const Scenario& scenario, const ScenarioOrigin& origin) {
  rebuildDelay_.stop();
  form_->setScenario(scenario, origin);
  progress_->setSteps(scenario.steps);
  requestRun(scenario, origin);
}

void MainWindow::restoreCheckpoint(Checkpoint checkpoint) {
  rebuildDelay_.stop();
  const ScenarioOrigin origin = originOf(checkpoint.scenario);
  form_->setScenario(checkpoint.scenario, origin);
  progress_->setSteps(checkpoint.scenario.steps);
  form_->clearRefusedMarks();
  requested_ = {checkpoint.scenario, origin};
  pane_->controller().restoreCheckpoint(std::move(checkpoint));
}

void MainWindow::requestRun(const Scenario& scenario, const ScenarioOrigin& origin) {
  form_->clearRefusedMarks();
  requested_ = {scenario, origin};
  pane_->controller().setScenario(scenario);
}

void MainWindow::onRebuilt(const Scenario& active) {
  const ControllerStatus& s = pane_->lastStatus();
  pane_->view()->setIdleMessage({});
  form_->setStability(s.stability);
  viewControls_->setGridSize(s.grid.n1, s.grid.n2, s.grid.n3);
  pane_->view()->setAbsorbingLayer(s.absorbingCells);
  form_->source()->setAbsorbingLayer({s.grid.n1, s.grid.n2, s.grid.n3}, s.absorbingCells);
  form_->receivers()->setAbsorbingLayer({s.grid.n1, s.grid.n2, s.grid.n3}, s.absorbingCells);
  progress_->setSteps(active.steps);
  // An open stage explorer follows the running stage.
  if (stageExplorer_ && stageExplorer_->isVisible() && StageRegistry::find(active.stage)) stageExplorer_->selectStage(active.stage);
  if (compareWindow_) compareWindow_->setBaseScenario(active);
  if (sameScenario(active, requested_.scenario)) {
    const bool fileOpened = !requested_.origin.file.isEmpty() && !requested_.origin.edited &&
                            requested_.origin.file != running_.origin.file;
    running_ = requested_;
    if (fileOpened) addRecentFile(running_.origin.file);  // only a file that runs
  } else if (!sameScenario(active, running_.scenario)) {
    running_ = {active, originOf(active)};
  }
  const QString file = running_.origin.file;
  setWindowTitle(QStringLiteral("iso3dfd studio — %1%2")
                     .arg(QString::fromStdString(active.name))
                     .arg(file.isEmpty() ? QString() : " (" + QFileInfo(file).fileName() + ")"));
}

void MainWindow::setPlaying(bool playing) {
  if (playAction_->isChecked() != playing) {
    playAction_->setChecked(playing);  // toggled: the icon and the controller
    return;
  }
  // The button learns of a pause the run made by itself only at the next status poll: tell the run anyway.
  // Only once: a second Play that reaches the run after it has stopped at its end would start it again.
  playRun(playing);
}

bool MainWindow::playButtonChecked() const { return playAction_->isChecked(); }

void MainWindow::playRun(bool playing) {
  if (!exportActions_->steerRun(playing)) pane_->controller().setPlaying(playing);
}

CompareWindow* MainWindow::openCompareWindow() {
  if (!compareWindow_) {
    const ControllerStatus& s = pane_->lastStatus();
    compareWindow_ = new CompareWindow(s.hasSolver ? pane_->controller().activeScenario() : form_->scenario(), {}, this);
    compareWindow_->setWindowFlag(Qt::Window);
    compareWindow_->setAttribute(Qt::WA_DeleteOnClose);
  }
  setPlaying(false);  // the compared stages get the devices to themselves
  compareWindow_->show();
  compareWindow_->raise();
  compareWindow_->activateWindow();
  return compareWindow_;
}


HelpWindow* MainWindow::showHelp(int tab) {
  if (!help_) help_ = new HelpWindow(findChildren<QAction*>(), this);  // every action is made by now
  help_->showTab(HelpWindow::Tab(tab));
  help_->show();
  help_->raise();
  help_->activateWindow();
  return help_;
}

LessonWindow* MainWindow::openLesson() {
  if (!lesson_) {
    const ControllerStatus& s = pane_->lastStatus();
    lesson_ = new LessonWindow(s.hasSolver ? pane_->controller().activeScenario() : form_->scenario(), {}, !listDevices().empty(), this);
    lesson_->setWindowFlag(Qt::Window);
    lesson_->setAttribute(Qt::WA_DeleteOnClose);
    connect(lesson_, &LessonWindow::message, this, [this](const QString& text, bool error) { showMessage(text, {}, error); });
  }
  setPlaying(false);  // the lesson's stages get the devices to themselves
  lesson_->show();
  lesson_->raise();
  lesson_->activateWindow();
  return lesson_;
}

void MainWindow::setViewMode(int mode) { viewControls_->setMode(mode); }

bool MainWindow::openScenario(const QString& path) {
  try {
    const Scenario s = loadScenarioFile(path.toStdString());
    ScenarioOrigin origin = originOf(s);
    origin.file = path;
    applyScenario(s, origin);
    statusBar()->showMessage("Opened " + path, 4000);
    return true;
  } catch (const std::exception& e) {
    showMessage(QStringLiteral("Could not open %1: %2").arg(path, QString::fromStdString(e.what())));
    return false;
  }
}

bool MainWindow::saveScenario(const QString& path) {
  try {
    const Scenario s = form_->scenario();
    saveScenarioFile(s, path.toStdString());
    const ScenarioOrigin saved{QString::fromStdString(s.name), path, false};
    form_->setOrigin(saved);
    for (Run* run : {&requested_, &running_})
      if (sameScenario(run->scenario, s)) run->origin = saved;
    addRecentFile(path);
    statusBar()->showMessage("Saved " + path, 4000);
    return true;
  } catch (const std::exception& e) {
    showMessage(QStringLiteral("Could not save %1: %2").arg(path, QString::fromStdString(e.what())));
    return false;
  }
}

void MainWindow::addMessage(const QString& text, const QString& details, bool error) {
  const QString stamp = QDateTime::currentDateTime().toString("HH:mm:ss");
  auto* item = new QListWidgetItem(style()->standardIcon(error ? QStyle::SP_MessageBoxWarning
                                                               : QStyle::SP_MessageBoxInformation),
                                   stamp + "  " + text);
  item->setData(Qt::UserRole, details);
  if (!details.isEmpty()) item->setToolTip(details.left(2000));
  messages_->addItem(item);
  messages_->scrollToBottom();
}

void MainWindow::showMessage(const QString& text, const QString& details, bool error) {
  addMessage(text, details, error);
  if (error) {
    auto* dock = qobject_cast<QDockWidget*>(messages_->parentWidget());
    if (dock) {
      dock->show();
      dock->raise();
    }
    statusBar()->showMessage(text, 8000);
  }
}

// A change the controller refused while the previous run goes on: the form goes back to that run and
// marks the controls that held the refused values; the message panel gets the message either way but
// opens only when no control could be marked.
void MainWindow::onRefused(const ControllerEvent& e) {
  const QString message = QString::fromStdString(e.message), details = QString::fromStdString(e.details);
  const Scenario running = pane_->controller().activeScenario();
  const ScenarioOrigin runningOrigin = sameScenario(running, running_.scenario) ? running_.origin : originOf(running);
  rebuildDelay_.stop();  // edits after the refused one are dropped with it: the form shows the run
  const bool onField = form_->showRefused(requested_.scenario, running, runningOrigin, message);
  progress_->setSteps(running.steps);
  requested_ = {running, runningOrigin};
  if (onField) {
    addMessage(message, details, true);
    statusBar()->showMessage(message, 8000);
  } else {
    showMessage(message, details);
  }
}

void MainWindow::onControllerEvent(const ControllerEvent& e) {
  if (e.kind != ControllerEvent::Kind::Error) {
    statusBar()->showMessage("Ready: " + QString::fromStdString(e.message), 4000);
    return;
  }
  // A refusal: a solver runs, but not the scenario last sent (a failing solver runs what was sent).
  const bool running = pane_->controller().status().hasSolver;
  const bool refused = running && !sameScenario(pane_->controller().activeScenario(), requested_.scenario);
  if (refused) return onRefused(e);
  showMessage(QString::fromStdString(e.message), QString::fromStdString(e.details));
  if (running) return;
  // Nothing runs: the view says why instead of waiting for slices, and Play is offered again.
  pane_->view()->setIdleMessage("The run could not start: " + QString::fromStdString(e.message) +
                                "\nChange the scenario or the stage; the Messages panel has the details.");
  const QSignalBlocker block(playAction_);
  playAction_->setChecked(false);
  showPlaying(false);
}

void MainWindow::onStatus(const ControllerStatus& s) {
  const ControllerStatus shown = pane_->shownStatus();
  counters_->setText(counterLines(shown, pane_->framesPerSecond(), CounterLayout::StatusLine).join("  "));
  progress_->showStatus(shown);
  // An open stage explorer quotes the running stage's live figures (every few seconds: it re-renders).
  if (stageExplorer_ && stageExplorer_->isVisible() && s.hasSolver && s.throughput.mpts > 0.0 &&
      (!explorerFigures_.isValid() || explorerFigures_.hasExpired(3000))) {
    stageExplorer_->setMeasurement(s.stage, {s.throughput.mpts, s.throughput.rooflinePercent, s.device});
    explorerFigures_.start();
  }
  if (s.selfPauses != selfPauses_) {
    // The controller paused on its own (a requested step reached, or a solver failure). Not shown: a
    // recording's holds at its frames, and a pause that a later Play (or Pause) has already overtaken.
    selfPauses_ = s.selfPauses;
    if (!s.playing && !exportActions_->steersRun() && s.playRequestsApplied == pane_->controller().playRequests()) {
      const QSignalBlocker block(playAction_);
      playAction_->setChecked(false);
      showPlaying(false);
    }
  }
}

void MainWindow::showProbe(int i, int j, int k) {
  probed_ = {i, j, k};
  const auto slices = pane_->view()->slices();
  if (i < 0 || !slices) {
    probe_->clear();
    return;
  }
  const double dx = pane_->lastStatus().dx;
  QString text = QStringLiteral("cell (%1, %2, %3) · x %4 m, y %5 m, z %6 m · u = %7")
                     .arg(i).arg(j).arg(k)
                     .arg(i * dx, 0, 'f', 0).arg(j * dx, 0, 'f', 0).arg(k * dx, 0, 'f', 0)
                     .arg(double(slices->valueAt(i, j, k)), 0, 'g', 4);
  if (const auto velocity = pane_->controller().velocitySlices()) {
    const float v = velocity->valueAt(i, j, k);
    if (std::isfinite(v)) text += QStringLiteral(" · v = %1 m/s").arg(double(v), 0, 'f', 0);
  }
  probe_->setText(text);
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

void MainWindow::showStageExplorer() {
  if (!stageExplorer_) {
    stageExplorer_ = new StageExplorer(this);
    stageExplorer_->setMeasurements(benchmarkFigures_);
  }
  const ControllerStatus& s = pane_->lastStatus();
  if (s.hasSolver && s.throughput.mpts > 0.0)
    stageExplorer_->setMeasurement(s.stage, {s.throughput.mpts, s.throughput.rooflinePercent, s.device});
  const std::string stage = s.hasSolver ? s.stage : form_->scenario().stage;
  if (StageRegistry::find(stage)) stageExplorer_->selectStage(stage);
  stageExplorer_->show();
  stageExplorer_->raise();
  stageExplorer_->activateWindow();
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
