#include "app/studio/BenchmarkPanel.h"

#include <QApplication>
#include <QCheckBox>
#include <QCloseEvent>
#include <QComboBox>
#include <QFileDialog>
#include <QFileInfo>
#include <QFormLayout>
#include <QGroupBox>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QListWidget>
#include <QProgressBar>
#include <QPushButton>
#include <QRadioButton>
#include <QScrollArea>
#include <QSpinBox>
#include <QSplitter>
#include <QTableWidget>
#include <QTimer>
#include <QToolButton>
#include <QVBoxLayout>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <map>

#include "app/studio/HeadlessDriver.h"
#include "app/studio/StudioOptions.h"
#include "compute/DeviceRegistry.h"
#include "compute/StageParams.h"
#include "compute/TuningDatabase.h"
#include "compute/Stage.h"
#include "core/FieldCompare.h"
#include "core/OutputFile.h"
#include "core/CacheDirectory.h"
#include "core/HostBandwidth.h"
#include "core/ScenarioResize.h"
#include "core/StageRegistry.h"

namespace iso {
namespace {

constexpr int kDefaultSteps = 20;
constexpr int kMaxSteps = 1000000000;  // as a scenario's steps
constexpr int kWarmupSteps = 1, kRepeats = 5;  // as `iso3dfd bench`

struct Column {
  const char* header;
  const char* tip;
};
const Column kColumns[] = {
    {"Stage", "The stage's id and its title for learners (Teach ▸ Stages explains each one)"},
    {"Device", "Where the stage ran: the OpenCL device, or the host CPU with its threads and SIMD"},
    {"Mpts/s", "Million interior grid points advanced one time step per second (the median timed chunk)"},
    {"GFLOP/s", "Mpts/s × 61 floating-point operations per point (7 per stencil radius + 5: the sample's count) / 1000"},
    {"GB/s\n12 B/pt", "Mpts/s × 12 bytes per point / 1000: the figure the oneAPI sample prints"},
    {"GB/s\n16 B/pt",
     "Mpts/s × 16 bytes per point / 1000: read prev, vel and next, write next — the DRAM traffic of a stage that "
     "loads each array once; what % roofline compares"},
    {"B/pt\nstage",
     "Bytes of memory traffic per point and time step the stage itself moves at best (its descriptor's: 16, or 10 for "
     "gpu-temporal, which advances two steps per pass); the roofline places each stage at 61 flop over these bytes"},
    {"×\ncpu-serial", "Speed-up over cpu-serial on the same grid (Mpts/s ratio)"},
    {"×\nprevious", "Speed-up over the stage this one improves on in the teaching order (named in the tooltip)"},
    {"%\nroofline",
     "GB/s at 16 B/pt over the measured copy bandwidth of the memory the stage ran on: the device's, or the host's memcpy "
     "for every stage on the host's cores (the CPU stages and an OpenCL CPU device such as PoCL): how close the stage "
     "comes to its memory ceiling"},
    {"max |diff|", "Largest absolute difference of the final field u^N to cpu-serial's (same steps, same grid)"},
    {"rel L2",
     "‖u − u_cpu-serial‖₂ / ‖u_cpu-serial‖₂ of the final field; above 1e-5 the stage disagrees (red), as in "
     "iso3dfd verify"},
    {"Error", "Why the stage did not run (empty when it did)"},
};
constexpr int kColumnCount = int(sizeof kColumns / sizeof kColumns[0]);

QString number(double v, int significant = 4) { return QString::number(v, 'g', significant); }

// "31.6 GB/s (21.2–32.8)": the median and the range of the runs.
QString spreadText(const CeilingMeasurement& m, const char* unit) {
  if (m.median <= 0.0) return "not measured";
  if (m.runs <= 0) return QStringLiteral("%1 %2").arg(number(m.median, 3), unit);
  return QStringLiteral("%1 %2 (%3–%4)").arg(number(m.median, 3), unit, number(m.min, 3), number(m.max, 3));
}

// "2026-11-24 14:47 UTC"
QString dateText(const std::string& iso) {
  QString date = QString::fromStdString(iso);
  date.replace('T', ' ');
  return date.left(16) + " UTC";
}

void showText(QTableWidget* table, int row, int column, const QString& text, const QString& tip = {}) {
  auto* item = new QTableWidgetItem(text);
  item->setFlags(Qt::ItemIsSelectable | Qt::ItemIsEnabled);
  if (column >= 2 && column <= 11) item->setTextAlignment(Qt::AlignRight | Qt::AlignVCenter);
  item->setToolTip(tip.isEmpty() ? text : tip);
  table->setItem(row, column, item);
}

// The devices' ceilings (measureRooflines), one per physical memory: an OpenCL CPU device's roof is the
// host's (measured with the host's memcpy, as the CPU stages are). On the worker thread.
std::vector<DeviceRoofline> rooflinesPerMemory(const Scenario& scenario, const std::vector<std::string>& stages, bool remeasure) {
  std::vector<DeviceRoofline> rooflines = measureRooflines(scenario, stages, remeasure);
  onePerMemory(rooflines, [remeasure] {
    DeviceRoofline host;
    host.device = "host CPU";
    host.host = true;
    const HostBandwidth b = hostCopyBandwidth(remeasure);
    host.memory = {b.minGBs, b.medianGBs, b.maxGBs, b.passes, b.date};
    host.memoryProbe = "host memcpy bandwidth, " + std::to_string(b.threads) + " threads";
    return host;
  });
  return rooflines;
}

QString historyFolder() {
  const std::string dir = cacheDirectory();
  return dir.empty() ? QString() : QString::fromStdString(dir) + "/benchmarks";
}

}  // namespace

BenchmarkPanel::BenchmarkPanel(const Scenario& scenario, QWidget* parent) : QMainWindow(parent), scenario_(scenario) {
  setWindowTitle("iso3dfd studio — benchmark");
  setObjectName("benchmarkPanel");
  auto* splitter = new QSplitter(Qt::Horizontal);
  splitter->addWidget(buildControls());
  splitter->addWidget(buildResults());
  splitter->setStretchFactor(1, 1);
  splitter->setCollapsible(0, false);
  setCentralWidget(splitter);
  resize(1280, 720);
  setScenario(scenario);
  refreshRuns();
}

BenchmarkPanel::~BenchmarkPanel() {
  cancel();
  if (worker_.joinable()) worker_.join();  // within about 0.1 s (a kernel build in progress finishes first)
}

QWidget* BenchmarkPanel::buildControls() {
  auto* box = new QWidget;
  auto* layout = new QVBoxLayout(box);
  layout->setContentsMargins(4, 4, 4, 4);

  auto* stagesBox = new QGroupBox("Stages");
  auto* stagesLayout = new QVBoxLayout(stagesBox);
  stages_ = new QListWidget;
  stages_->setToolTip("The stages to time, in the teaching order; cpu-serial runs first as everyone's reference");
  for (const std::string& id : StageRegistry::ids(/*includeOpenCL=*/!listDevices().empty())) {
    auto* item = new QListWidgetItem(QString::fromStdString(id), stages_);
    item->setFlags(item->flags() | Qt::ItemIsUserCheckable);
    item->setCheckState(Qt::Checked);
    const StageInfo& info = StageRegistry::get(id);
    item->setToolTip(QString::fromStdString(info.title + ": " + info.description));
  }
  stages_->setFixedHeight(stages_->sizeHintForRow(0) * stages_->count() + 2 * stages_->frameWidth() + 2);
  stagesLayout->addWidget(stages_);
  layout->addWidget(stagesBox);

  auto* gridBox = new QGroupBox("Grid");
  auto* form = new QFormLayout(gridBox);
  useScenario_ = new QRadioButton;
  useScenario_->setToolTip("The grid, model and source of the main window's scenario");
  useCube_ = new QRadioButton("cube N³:");
  useCube_->setToolTip("The scenario resized to N × N × N (its picture kept: source, layers, salt)");
  cube_ = new QSpinBox;
  cube_->setRange(1, kMaxAxisCells);
  cube_->setValue(64);
  cube_->setToolTip(QStringLiteral("Interior cells per axis, 1 to %1").arg(kMaxAxisCells));
  connect(cube_, &QSpinBox::valueChanged, this, [this] { useCube_->setChecked(true); });
  useScenario_->setChecked(true);
  form->addRow(useScenario_);
  auto* cubeRow = new QHBoxLayout;
  cubeRow->addWidget(useCube_);
  cubeRow->addWidget(cube_, 1);
  form->addRow(cubeRow);
  steps_ = new QSpinBox;
  steps_->setRange(1, kMaxSteps);
  steps_->setValue(kDefaultSteps);
  steps_->setToolTip("Time steps per stage: 1 warm-up, then up to 5 timed chunks (the median gives the rates). "
                     "Every stage ends on the same step, so its field is compared with cpu-serial's");
  form->addRow("Steps:", steps_);
  sweepBox_ = new QCheckBox("Tuning sweep");
  sweepBox_->setChecked(true);
  sweepBox_->setToolTip("After the run, time every tuning candidate of gpu-slm and gpu-optimized (those chosen above) "
                        "on the same grid and steps; the chart shows them, Use this stores one");
  form->addRow(sweepBox_);
  layout->addWidget(gridBox);

  auto* buttons = new QHBoxLayout;
  run_ = new QPushButton("Run");
  run_->setToolTip("Time the chosen stages off the GUI thread; rows appear as each stage completes");
  cancel_button_ = new QPushButton("Cancel");
  cancel_button_->setToolTip("Stop within about 0.1 s (a kernel being compiled finishes first); the rows done stay");
  connect(run_, &QPushButton::clicked, this, [this] { start(); });
  connect(cancel_button_, &QPushButton::clicked, this, &BenchmarkPanel::cancel);
  buttons->addWidget(run_);
  buttons->addWidget(cancel_button_);
  layout->addLayout(buttons);
  progress_ = new QProgressBar;
  progress_->setRange(0, 1000);
  progress_->setFormat("%p%");
  progress_->setToolTip("The whole run: every stage, then the sweeps");
  layout->addWidget(progress_);
  status_ = new QLabel("Choose stages and press Run.");
  status_->setWordWrap(true);
  layout->addWidget(status_);

  auto* ceilingsBox = new QGroupBox("Roofline ceilings");
  auto* ceilingsLayout = new QVBoxLayout(ceilingsBox);
  ceilings_ = new QLabel("Measured once per device at the first run, then read from the cache with their date.");
  ceilings_->setWordWrap(true);
  ceilings_->setTextFormat(Qt::RichText);
  ceilings_->setToolTip("Memory: bytes copied (read + written) per second; compute: single-precision FMA throughput "
                        "of a probe kernel. Median of 7 runs, their range in brackets");
  ceilingsLayout->addWidget(ceilings_);
  remeasure_ = new QPushButton("Re-measure");
  remeasure_->setToolTip("Measure the ceilings of the chosen stages' devices again and store them");
  connect(remeasure_, &QPushButton::clicked, this, &BenchmarkPanel::remeasure);
  ceilingsLayout->addWidget(remeasure_);
  layout->addWidget(ceilingsBox);

  auto* runsBox = new QGroupBox("Runs");
  auto* runsLayout = new QVBoxLayout(runsBox);
  runsList_ = new QListWidget;
  runsList_->setMinimumHeight(3 * runsList_->fontMetrics().height() + 12);
  runsList_->setToolTip("Checked runs are drawn in the charts; the selected one fills the table");
  connect(runsList_, &QListWidget::itemChanged, this, [this] { refreshRuns(); });
  connect(runsList_, &QListWidget::currentRowChanged, this, [this] { refreshTable(); });
  runsLayout->addWidget(runsList_);
  auto* files = new QHBoxLayout;
  auto* load = new QPushButton("Load results…");
  load->setToolTip("Add a run from a JSON file written by this panel or by iso3dfd bench --json (schema iso3dfd-bench/1)");
  connect(load, &QPushButton::clicked, this, [this] {
    const QString path = QFileDialog::getOpenFileName(this, "Load results", historyFolder(), "Benchmark results (*.json)");
    QString error;
    if (!path.isEmpty() && !loadResults(path, error)) status_->setText("Not loaded: " + error);
  });
  auto* remove = new QPushButton("Remove");
  remove->setToolTip("Take the selected loaded run out of the charts");
  connect(remove, &QPushButton::clicked, this, [this] {
    const QListWidgetItem* item = runsList_->currentItem();
    const int index = item ? item->data(Qt::UserRole).toInt() : -1;
    if (index < 0) return;
    runs_.erase(runs_.begin() + index);
    refreshRuns();
  });
  files->addWidget(load);
  files->addWidget(remove);
  runsLayout->addLayout(files);
  layout->addWidget(runsBox, 1);

  auto* scroll = new QScrollArea;
  scroll->setWidget(box);
  scroll->setWidgetResizable(true);
  scroll->setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
  scroll->setMinimumWidth(box->sizeHint().width() + 16);
  scroll->setMaximumWidth(300);
  setBusy(false);
  return scroll;
}

QWidget* BenchmarkPanel::chartBox(BenchmarkChart* chart, QWidget* extra) {
  auto* box = new QWidget;
  auto* layout = new QVBoxLayout(box);
  layout->setContentsMargins(0, 0, 0, 0);
  layout->setSpacing(2);
  auto* bar = new QHBoxLayout;
  if (extra) bar->addWidget(extra);
  bar->addStretch(1);
  for (const char* format : {"PNG", "SVG"}) {
    auto* button = new QToolButton;
    button->setText(format);
    button->setToolTip(QStringLiteral("Save this chart as %1").arg(format));
    connect(button, &QToolButton::clicked, this, [this, chart, format] { saveChart(chart, format); });
    bar->addWidget(button);
  }
  layout->addLayout(bar);
  layout->addWidget(chart, 1);
  return box;
}

QWidget* BenchmarkPanel::buildResults() {
  auto* splitter = new QSplitter(Qt::Vertical);

  auto* top = new QWidget;
  auto* topLayout = new QVBoxLayout(top);
  topLayout->setContentsMargins(0, 0, 0, 0);
  auto* tableBar = new QHBoxLayout;
  auto* tableTitle = new QLabel("Results (hover a header for its meaning)");
  tableBar->addWidget(tableTitle, 1);
  for (const char* format : {"CSV", "JSON"}) {
    auto* button = new QPushButton(QStringLiteral("Export %1…").arg(format));
    button->setToolTip(QStringLiteral("Save the table's run as %1 (JSON: schema iso3dfd-bench/1, loadable here and by scripts)").arg(format));
    connect(button, &QPushButton::clicked, this, [this, format] {
      const QString ext = QString(format).toLower();
      const QString path = QFileDialog::getSaveFileName(this, QStringLiteral("Export %1").arg(format),
                                                        QStringLiteral("bench.%1").arg(ext), QStringLiteral("%1 (*.%2)").arg(format, ext));
      QString error;
      if (path.isEmpty()) return;
      status_->setText(exportTable(path, error) ? "Wrote " + path : "Not written: " + error);
    });
    tableBar->addWidget(button);
  }
  topLayout->addLayout(tableBar);
  table_ = new QTableWidget(0, kColumnCount);
  for (int c = 0; c < kColumnCount; ++c) {
    auto* header = new QTableWidgetItem(kColumns[c].header);
    header->setToolTip(kColumns[c].tip);
    table_->setHorizontalHeaderItem(c, header);
  }
  table_->verticalHeader()->setVisible(false);
  table_->verticalHeader()->setDefaultSectionSize(table_->fontMetrics().height() + 6);
  table_->horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
  table_->horizontalHeader()->setSectionResizeMode(0, QHeaderView::Interactive);
  table_->horizontalHeader()->setSectionResizeMode(1, QHeaderView::Interactive);
  table_->horizontalHeader()->setStretchLastSection(true);
  table_->setColumnWidth(0, 230);
  table_->setColumnWidth(1, 190);
  table_->setWordWrap(false);
  table_->setTextElideMode(Qt::ElideMiddle);  // both ends of a long name (pthread-…-EPYC); the tooltip has it all
  topLayout->addWidget(table_, 1);
  splitter->addWidget(top);

  auto* charts = new QWidget;
  auto* chartsLayout = new QHBoxLayout(charts);
  chartsLayout->setContentsMargins(0, 0, 0, 0);
  throughput_ = new ThroughputChart;
  auto* log = new QCheckBox("Log scale");
  log->setToolTip("A logarithmic Mpts/s axis: the CPU stages and the GPU ones, orders of magnitude apart, both readable");
  connect(log, &QCheckBox::toggled, throughput_, &ThroughputChart::setLogScale);
  chartsLayout->addWidget(chartBox(throughput_, log), 1);

  roofline_ = new RooflineChart;
  auto* bytes = new QComboBox;
  bytes->addItem("own B/pt (stage)", 0.0);
  bytes->addItem("12 B/pt (sample)", 12.0);
  bytes->setToolTip("Bytes per point the intensity is counted with: each stage's own (its descriptor's: 16 for a stage that "
                    "reads prev, vel, next and writes next once per step, 10 for gpu-temporal) or the oneAPI sample's 12 "
                    "for all. The stages' GFLOP/s stay; their intensity 61/B moves");
  connect(bytes, &QComboBox::currentIndexChanged, this, [this, bytes] { roofline_->setBytesPerPoint(bytes->currentData().toDouble()); });
  chartsLayout->addWidget(chartBox(roofline_, bytes), 1);

  sweep_ = new SweepChart;
  auto* sweepBar = new QWidget;
  auto* sweepLayout = new QHBoxLayout(sweepBar);
  sweepLayout->setContentsMargins(0, 0, 0, 0);
  sweepStage_ = new QComboBox;
  sweepStage_->setToolTip("Which stage's sweep the chart shows");
  sweepStage_->setSizeAdjustPolicy(QComboBox::AdjustToContents);
  connect(sweepStage_, &QComboBox::currentIndexChanged, this, [this] {
    const SweepResult* s = sweep(sweepStage_->currentText());
    chosen_ = s ? s->best : -1;
    refreshSweep();
  });
  useThis_ = new QPushButton("Use this");
  useThis_->setToolTip("Store the chosen candidate (click a bar to choose; the fastest by default) in the tuning database: "
                       "runs of this stage on this device use it from now on");
  connect(useThis_, &QPushButton::clicked, this, [this] {
    QString error;
    if (!useChosenCandidate(error)) status_->setText("Not stored: " + error);
  });
  sweepLayout->addWidget(sweepStage_);
  sweepLayout->addWidget(useThis_);
  connect(sweep_, &SweepChart::candidateClicked, this, [this](int index) {
    chosen_ = index;
    refreshSweep();
  });
  auto* sweepColumn = new QWidget;
  auto* sweepColumnLayout = new QVBoxLayout(sweepColumn);
  sweepColumnLayout->setContentsMargins(0, 0, 0, 0);
  sweepColumnLayout->setSpacing(0);
  sweepColumnLayout->addWidget(chartBox(sweep_, sweepBar), 1);
  chosenLabel_ = new QLabel;
  chosenLabel_->setWordWrap(true);
  sweepColumnLayout->addWidget(chosenLabel_);
  chartsLayout->addWidget(sweepColumn, 1);
  splitter->addWidget(charts);
  // The table with every stage's row above, the charts below with the rest.
  const int tableHeight = 2 * table_->fontMetrics().height() + 12 + 9 * table_->verticalHeader()->defaultSectionSize() + 36;
  splitter->setSizes({tableHeight, 720 - tableHeight});
  splitter->setStretchFactor(1, 1);
  refreshSweep();
  return splitter;
}

void BenchmarkPanel::setScenario(const Scenario& scenario) {
  scenario_ = scenario;
  useScenario_->setText(QStringLiteral("scenario %1×%2×%3").arg(scenario.n1).arg(scenario.n2).arg(scenario.n3));
}

void BenchmarkPanel::setStages(const std::vector<std::string>& stages) {
  for (int i = 0; i < stages_->count(); ++i) {
    QListWidgetItem* item = stages_->item(i);
    const bool on = std::find(stages.begin(), stages.end(), item->text().toStdString()) != stages.end();
    item->setCheckState(on ? Qt::Checked : Qt::Unchecked);
  }
}

std::vector<std::string> BenchmarkPanel::checkedStages() const {
  std::vector<std::string> out;
  for (int i = 0; i < stages_->count(); ++i)
    if (stages_->item(i)->checkState() == Qt::Checked) out.push_back(stages_->item(i)->text().toStdString());
  return out;
}

void BenchmarkPanel::setCubeSize(int n) {
  if (n <= 0) {
    useScenario_->setChecked(true);
    return;
  }
  cube_->setValue(n);
  useCube_->setChecked(true);
}

void BenchmarkPanel::setSteps(int steps) { steps_->setValue(steps); }
void BenchmarkPanel::setSweepEnabled(bool on) { sweepBox_->setChecked(on); }
QString BenchmarkPanel::statusText() const { return status_->text(); }

const SweepResult* BenchmarkPanel::sweep(const QString& stage) const {
  for (const SweepResult& s : sweeps_)
    if (QString::fromStdString(s.stage) == stage) return &s;
  return nullptr;
}

void BenchmarkPanel::setBusy(bool busy) {
  run_->setEnabled(!busy);
  cancel_button_->setEnabled(busy);
  remeasure_->setEnabled(!busy);
  stages_->setEnabled(!busy);
}

void BenchmarkPanel::post(std::function<void()> update) {
  QMetaObject::invokeMethod(this, std::move(update), Qt::QueuedConnection);
}

void BenchmarkPanel::runInBackground(std::function<void()> work) {
  cancel_ = false;
  setBusy(true);
  worker_ = std::thread([this, work = std::move(work)] { work(); });
}

bool BenchmarkPanel::start() {
  if (running()) {
    status_->setText("A run is in progress: wait for it or cancel it.");
    return false;
  }
  std::vector<std::string> stages = checkedStages();
  if (stages.empty()) {
    status_->setText("Choose at least one stage.");
    return false;
  }
  Scenario s = useCube_->isChecked() ? resizedScenario(scenario_, cube_->value(), cube_->value(), cube_->value()) : scenario_;
  s.steps = steps_->value();
  const BenchmarkRequest request{s, stages, kWarmupSteps, kRepeats};
  std::vector<std::string> sweeps;
  if (sweepBox_->isChecked())
    for (const Stage* t : tunableStages())
      if (std::find(stages.begin(), stages.end(), t->id()) != stages.end()) sweeps.push_back(t->id());

  current_.emplace();
  current_->label = "this run (in progress)";
  sweeps_.clear();
  chosen_ = -1;
  sweepStage_->clear();
  table_->setRowCount(0);
  refreshRuns();
  if (runsList_->count() > 0) runsList_->setCurrentRow(0);
  progress_->setValue(0);
  status_->setText("Measuring the roofline ceilings (once per device)…");

  const double units = double(stages.size() + sweeps.size());
  const double stageCount = double(stages.size());
  runner_ = std::make_shared<BenchmarkRunner>(request, [this, units, stageCount](const BenchmarkProgress& p) {
    std::optional<BenchmarkRow> row;
    if (p.row) row = *p.row;
    const QString text = QStringLiteral("%1 (%2 of %3): %4 of %5 steps")
                             .arg(QString::fromStdString(p.stage)).arg(p.stageIndex + 1).arg(p.stageCount)
                             .arg(p.stepsDone).arg(p.steps);
    const double fraction = p.fraction * stageCount / units;
    const QString stage = QString::fromStdString(p.stage);
    post([this, row, fraction, text, stage] {
      if (row) onRow(*row);
      onProgress(fraction, text, stage);
    });
  });
  runInBackground([this, runner = runner_, request, sweeps, units, stageCount] {
    bool cancelled = false;
    QString message, note;
    try {
      const std::vector<DeviceRoofline> rooflines = rooflinesPerMemory(request.scenario, request.stages, false);
      post([this, rooflines] { onCeilings(rooflines); });
      BenchmarkReport report = runner->run();
      measureOnHostMemory(report, rooflines);
      cancelled = report.cancelled;
      post([this, report] {
        current_->report = report;  // the speed-ups over stages that ran later are filled in only now
        current_->label = benchmarkRunLabel(report);
        refreshRuns();
        refreshTable();
      });
      for (std::size_t n = 0; n < sweeps.size() && !cancelled; ++n) {
        const std::string stage = sweeps[n];
        const Stage& swept = resolveStage(stage);
        const Grid grid(request.scenario.n1, request.scenario.n2, request.scenario.n3);
        const int total = int(swept.tuningCandidates(selectDevice(request.scenario.device), grid).size());
        int done = 0;
        const SweepResult sweep = sweepStage(request, swept, &cancel_, [&](const StageTiming& t) {
          ++done;
          const double fraction = (stageCount + double(n) + double(done) / std::max(1, total)) / units;
          post([this, stage, t, done, total, fraction] { onSweepCandidate(QString::fromStdString(stage), t, done, total, fraction); });
        });
        cancelled = sweep.cancelled;
        post([this, sweep, n, units, stageCount] {
          onSweepDone(sweep);
          onProgress((stageCount + double(n) + 1.0) / units, {}, {});
        });
      }
      const QString folder = historyFolder();
      if (!cancelled && !report.rows.empty() && !folder.isEmpty()) {  // kept per device and date: Load results… opens there
        try {
          std::filesystem::create_directories(folder.toStdString());
          const QString name = QString::fromStdString(report.date).remove(':').remove('-') + "-" +
                               QString::fromStdString(stableHash(benchmarkRunLabel(report).toStdString())).left(8) + ".json";
          writeWholeFile((folder + "/" + name).toStdString(), benchmarkJson(report));
        } catch (const std::exception& e) {  // the run stands; only its copy in the history is missing
          note = "Not kept in the history: " + QString::fromStdString(e.what());
        }
      }
    } catch (const std::exception& e) {
      message = QString::fromStdString(e.what());
    }
    post([this, cancelled, message, note] {
      worker_.join();
      onFinished(cancelled, message, note);
    });
  });
  return true;
}

void BenchmarkPanel::cancel() {
  cancel_ = true;
  if (runner_) runner_->cancel();
}

void BenchmarkPanel::remeasure() {
  if (running()) return;
  const std::vector<std::string> stages = checkedStages();
  const Scenario s = scenario_;
  status_->setText("Measuring the roofline ceilings…");
  progress_->setRange(0, 0);  // busy: the probes report no progress
  runInBackground([this, s, stages] {
    const std::vector<DeviceRoofline> rooflines = rooflinesPerMemory(s, stages, /*remeasure=*/true);
    post([this, rooflines] {
      worker_.join();
      progress_->setRange(0, 1000);
      onCeilings(rooflines);
      setBusy(false);
      status_->setText("Ceilings measured again and stored.");
    });
  });
}

void BenchmarkPanel::onRow(const BenchmarkRow& row) {
  if (!current_) return;
  current_->report.rows.push_back(row);
  measureOnHostMemory(current_->report, current_->rooflines);
  if (current_->report.rows.size() == 1) current_->label = "this run (in progress)";
  refreshRuns();
  refreshTable();
  emit rowAdded(int(current_->report.rows.size()) - 1);
}

void BenchmarkPanel::onProgress(double fraction, const QString& text, const QString& current) {
  progress_->setValue(int(std::lround(std::clamp(fraction, 0.0, 1.0) * 1000)));
  progress_->setFormat(current.isEmpty() ? "%p%" : "%p% · " + current);
  if (!text.isEmpty()) status_->setText(text);
}

void BenchmarkPanel::onSweepCandidate(const QString& stage, const StageTiming& timing, int done, int total, double fraction) {
  onProgress(fraction, QStringLiteral("Sweep of %1: candidate %2 of %3 (%4)")
                           .arg(stage).arg(done).arg(total)
                           .arg(timing.error.empty() ? number(timing.mpts) + " Mpts/s" : QString("failed")),
             "sweep " + stage);
}

void BenchmarkPanel::onSweepDone(SweepResult result) {
  sweeps_.push_back(std::move(result));
  const SweepResult& s = sweeps_.back();
  sweepStage_->addItem(QString::fromStdString(s.stage));
  sweepStage_->setCurrentIndex(sweepStage_->count() - 1);
  chosen_ = s.best;
  refreshSweep();
}

void BenchmarkPanel::onCeilings(const std::vector<DeviceRoofline>& rooflines) {
  if (current_) current_->rooflines = rooflines;
  showCeilings(rooflines);
  refreshRuns();
}

void BenchmarkPanel::showCeilings(const std::vector<DeviceRoofline>& rooflines) {
  QString html, tip;
  for (const DeviceRoofline& d : rooflines) {
    const QString device = QString::fromStdString(d.device).toHtmlEscaped();
    html += "<b>" + device + "</b><br>memory " + spreadText(d.memory, "GB/s") + "<br>compute " +
            spreadText(d.compute, "GFLOP/s") + "<br>";
    // One date when both were measured in the same minute (the usual case), else each.
    const bool both = d.memory.runs > 0 && d.compute.runs > 0;
    if (both && dateText(d.memory.date) == dateText(d.compute.date))
      html += "measured " + dateText(d.memory.date) + "<br>";
    else if (both && d.memory.date.substr(0, 10) == d.compute.date.substr(0, 10))
      html += "measured " + dateText(d.memory.date).left(16) + " / " + dateText(d.compute.date).mid(11) + "<br>";
    else if (both)
      html += "memory " + dateText(d.memory.date) + ", compute " + dateText(d.compute.date) + "<br>";
    else if (d.memory.runs > 0)
      html += "measured " + dateText(d.memory.date) + "<br>";
    if (!d.error.empty()) html += "<span style='color:#b00'>" + QString::fromStdString(d.error).toHtmlEscaped() + "</span><br>";
    tip += QStringLiteral("%1\nmemory: %2\ncompute: %3\n")
               .arg(QString::fromStdString(d.device), QString::fromStdString(d.memoryProbe),
                    d.computeProbe.empty() ? QString("not measured") : QString::fromStdString(d.computeProbe));
  }
  ceilings_->setText(html.isEmpty() ? "No ceiling measured." : html);
  ceilings_->setToolTip(tip + "Median of the runs, their range in brackets, and when they were measured (UTC). The compute "
                              "ceiling is a measured single-precision FMA throughput, not a datasheet peak.");
}

void BenchmarkPanel::onFinished(bool cancelled, const QString& message, const QString& note) {
  runner_.reset();
  setBusy(false);
  progress_->setFormat("%p%");
  if (!message.isEmpty()) {
    status_->setText("Failed: " + message);
  } else if (cancelled) {
    status_->setText(QStringLiteral("Cancelled; %1 stage(s) done.").arg(current_ ? current_->report.rows.size() : 0));
  } else {
    progress_->setValue(1000);
    const bool ok = current_ && allPassed(current_->report);
    status_->setText(ok ? "Done: every stage ran and agrees with cpu-serial."
                        : "Done, with a stage that failed or disagrees with cpu-serial (red in the table).");
  }
  if (!note.isEmpty()) status_->setText(status_->text() + " " + note);
  if (current_ && current_->report.rows.empty()) current_.reset();
  refreshRuns();
  emit finished(cancelled || !message.isEmpty());
}

bool BenchmarkPanel::allPassed(const BenchmarkReport& report) {
  if (report.cancelled || report.rows.empty() || report.anyFailed()) return false;
  for (const BenchmarkRow& r : report.rows)
    if (r.difference && !r.difference->withinTolerance(stageTolerance(r.stage))) return false;  // as verify judges
  return true;
}

std::vector<const BenchmarkRun*> BenchmarkPanel::shownRuns() const {
  std::vector<const BenchmarkRun*> out;
  for (int i = 0; i < runsList_->count(); ++i) {
    const QListWidgetItem* item = runsList_->item(i);
    if (item->checkState() != Qt::Checked) continue;
    const int index = item->data(Qt::UserRole).toInt();
    if (index < 0 && current_) out.push_back(&*current_);
    if (index >= 0 && index < int(runs_.size())) out.push_back(&runs_[std::size_t(index)]);
  }
  return out;
}

void BenchmarkPanel::refreshRuns() {
  // Keep what was checked and selected across the rebuild of the list.
  std::map<int, bool> checked;
  for (int i = 0; i < runsList_->count(); ++i)
    checked[runsList_->item(i)->data(Qt::UserRole).toInt()] = runsList_->item(i)->checkState() == Qt::Checked;
  const int selected = runsList_->currentItem() ? runsList_->currentItem()->data(Qt::UserRole).toInt() : -2;
  {
    const QSignalBlocker block(runsList_);
    runsList_->clear();
    const auto add = [&](int index, BenchmarkRun& run) {
      run.number = runsList_->count() + 1;
      auto* item = new QListWidgetItem(QStringLiteral("#%1 ").arg(run.number) + run.label, runsList_);
      item->setData(Qt::UserRole, index);
      item->setFlags(item->flags() | Qt::ItemIsUserCheckable);
      item->setCheckState(checked.count(index) && !checked[index] ? Qt::Unchecked : Qt::Checked);
      item->setToolTip(run.file.isEmpty() ? "Measured here" : "Loaded from " + run.file);
      if (index == selected) runsList_->setCurrentItem(item);
    };
    if (current_) add(-1, *current_);
    for (std::size_t i = 0; i < runs_.size(); ++i) add(int(i), runs_[i]);
    if (!runsList_->currentItem() && runsList_->count() > 0) runsList_->setCurrentRow(0);
  }
  const auto runs = shownRuns();
  throughput_->setRuns(runs);
  roofline_->setRuns(runs);
  refreshTable();
}

void BenchmarkPanel::refreshTable() {
  const QListWidgetItem* item = runsList_->currentItem();
  const BenchmarkRun* run = nullptr;
  if (item) {
    const int index = item->data(Qt::UserRole).toInt();
    run = index < 0 ? (current_ ? &*current_ : nullptr) : &runs_.at(std::size_t(index));
  }
  const std::vector<BenchmarkRow> none;
  const std::vector<BenchmarkRow>& rows = run ? run->report.rows : none;
  table_->setRowCount(int(rows.size()));
  for (int n = 0; n < int(rows.size()); ++n) {
    const BenchmarkRow& r = rows[std::size_t(n)];
    const bool ran = r.error.empty();
    const Throughput& t = r.throughput;
    showText(table_, n, 0, QString::fromStdString(r.stage + " — " + r.title));
    showText(table_, n, 1, QString::fromStdString(r.device));
    const auto rate = [&](int column, double v, int decimals) {
      showText(table_, n, column, ran ? QString::number(v, 'f', decimals) : "–");
    };
    rate(2, t.mpts, 1);
    rate(3, t.gflops, 1);
    rate(4, t.gbsSample, 1);
    rate(5, t.gbsTraffic, 1);
    showText(table_, n, 6, QString::number(r.bytesPerPointStep, 'g', 3));
    const auto speedup = [&](int column, const std::optional<double>& v, const QString& over) {
      showText(table_, n, column, v ? QString::number(*v, 'f', 2) : "–", v ? QStringLiteral("%1× over %2").arg(*v, 0, 'f', 2).arg(over) : QString());
    };
    speedup(7, r.speedupVsSerial, "cpu-serial");
    speedup(8, r.speedupVsPrevious, QString::fromStdString(r.previous));
    showText(table_, n, 9, ran && t.ceilingGBs > 0.0 ? QString::number(t.rooflinePercent, 'f', 1) : "–",
             t.ceilingGBs > 0.0 ? QStringLiteral("of %1 GB/s (%2)").arg(number(t.ceilingGBs, 3), QString::fromStdString(r.ceilingName))
                                : QString("no ceiling measured"));
    showText(table_, n, 10, r.difference ? QString::number(r.difference->maxAbs, 'e', 2) : "–");
    showText(table_, n, 11, r.difference ? QString::number(r.difference->relativeL2, 'e', 2) : "–");
    showText(table_, n, 12, QString::fromStdString(r.error));
    const bool disagrees = r.difference && !r.difference->withinTolerance(stageTolerance(r.stage));
    if (disagrees || !ran)
      for (int c : {0, 11, 12})
        table_->item(n, c)->setForeground(QColor(0xc0, 0x10, 0x10));
  }
}

void BenchmarkPanel::refreshSweep() {
  const SweepResult* s = sweep(sweepStage_->currentText());
  sweep_->setSweep(s, chosen_);
  useThis_->setEnabled(s && chosen_ >= 0);
  if (!s || chosen_ < 0 || chosen_ >= int(s->candidates.size())) {
    chosenLabel_->setText(s ? "No candidate ran." : "The sweep runs after the stages when gpu-slm or gpu-optimized is chosen.");
    return;
  }
  const StageTiming& t = s->candidates[std::size_t(chosen_)];
  chosenLabel_->setText(QStringLiteral("Chosen %1 — %2 Mpts/s%3")
                            .arg(QString::fromStdString(formatStageParams([&] {
                              StageParamMap varying;  // what sets it apart; the tooltip has the rest
                              for (const std::string& key : SweepChart::varyingParameters(*s)) varying[key] = t.params.at(key);
                              return varying;
                            }())))
                            .arg(number(t.mpts))
                            .arg(chosen_ == s->best ? " (fastest)" : ""));
  chosenLabel_->setToolTip(QString::fromStdString(formatStageParams(t.params)));
}

bool BenchmarkPanel::useChosenCandidate(QString& error) {
  const SweepResult* s = sweep(sweepStage_->currentText());
  if (!s || chosen_ < 0 || chosen_ >= int(s->candidates.size())) {
    error = "no candidate chosen";
    return false;
  }
  const StageTiming& t = s->candidates[std::size_t(chosen_)];
  std::string keptAs;
  try {
    keptAs = storeTuning(s->stage, s->device, t.params, s->grid, t.mpts);
  } catch (const std::exception& e) {
    error = QString::fromStdString(e.what());
    return false;
  }
  status_->setText(QStringLiteral("Stored for %1 on %2: %3%4")
                       .arg(QString::fromStdString(s->stage), QString::fromStdString(s->device.name),
                            QString::fromStdString(formatStageParams(t.params)),
                            keptAs.empty() ? QString() : " (the unreadable database is kept as " + QString::fromStdString(keptAs) + ")"));
  return true;
}

bool BenchmarkPanel::loadResults(const QString& path, QString& error) {
  try {
    for (BenchmarkReport& report : splitByGrid(readBenchmarkJson(path.toStdString()))) {
      BenchmarkRun run;
      run.report = std::move(report);
      run.label = benchmarkRunLabel(run.report);
      run.file = path;
      run.rooflines = rooflinesOfReport(run.report);
      runs_.push_back(std::move(run));
    }
  } catch (const std::exception& e) {
    error = QString::fromStdString(e.what());
    return false;
  }
  refreshRuns();
  status_->setText("Loaded " + QFileInfo(path).fileName());
  return true;
}

bool BenchmarkPanel::exportTable(const QString& path, QString& error) {
  const QListWidgetItem* item = runsList_->currentItem();
  const BenchmarkRun* run = nullptr;
  if (item) {
    const int index = item->data(Qt::UserRole).toInt();
    run = index < 0 ? (current_ ? &*current_ : nullptr) : &runs_.at(std::size_t(index));
  }
  if (!run || run->report.rows.empty()) {
    error = "no results to export yet";
    return false;
  }
  const QString ext = QFileInfo(path).suffix().toLower();
  if (ext != "csv" && ext != "json") {
    error = path + ": expected a name ending in .csv or .json";
    return false;
  }
  try {
    writeWholeFile(path.toStdString(), ext == "csv" ? benchmarkCsv(run->report) : benchmarkJson(run->report));
  } catch (const std::exception& e) {
    error = QString::fromStdString(e.what());
    return false;
  }
  return true;
}

void BenchmarkPanel::saveChart(BenchmarkChart* chart, const QString& format) {
  const QString ext = format.toLower();
  const QString path = QFileDialog::getSaveFileName(this, "Save chart as " + format, "chart." + ext,
                                                    QStringLiteral("%1 (*.%2)").arg(format, ext));
  if (path.isEmpty()) return;
  QString error;
  status_->setText(chart->save(path, error) ? "Wrote " + path : "Not written: " + error);
}

void BenchmarkPanel::closeEvent(QCloseEvent* event) {
  cancel();  // the results so far stay for when the panel is opened again
  QMainWindow::closeEvent(event);
}

namespace {

// The end of an automated run: the table, and a failure when the run was stopped or a stage failed or
// disagrees with cpu-serial.
HeadlessDriver::Report runReport(const BenchmarkPanel& panel, bool stopped) {
  HeadlessDriver::Report report;
  const BenchmarkRun* run = panel.currentRun();
  if (stopped || !run) report.problems << panel.statusText();
  if (!run) return report;
  report.lines << QString::fromStdString(benchmarkTable(run->report)).chopped(1);  // without its last newline
  if (!BenchmarkPanel::allPassed(run->report))
    report.problems << QStringLiteral("a stage failed or disagrees with cpu-serial beyond its tolerance (relative L2 "
                                      "%1 for the float32 stages)")
                           .arg(kReferenceTolerance);
  return report;
}

}  // namespace

int runBenchmarkPanel(const StudioOptions& options) {
  BenchmarkPanel panel(options.scenario);
  if (!options.benchStages.isEmpty()) {
    std::vector<std::string> stages;
    for (const QString& s : options.benchStages) stages.push_back(s.toStdString());
    panel.setStages(stages);
  }
  panel.setCubeSize(options.benchSize);
  for (const QString& file : options.benchLoad) {
    QString error;
    if (!panel.loadResults(file, error)) {
      printStudioError("--load " + file + ": " + error);
      return 1;
    }
  }
  if (options.steps > 0) panel.setSteps(int(options.steps));
  bool stopped = false;
  HeadlessDriver::Target target;
  target.window = &panel;
  target.screenArea = &panel;
  target.conclude = [&] { return runReport(panel, stopped); };
  target.writeResults = [&](const QString& path, QString& error) { return panel.exportTable(path, error); };
  HeadlessDriver driver(options, std::move(target));
  QObject::connect(&panel, &BenchmarkPanel::finished, &driver, [&](bool wasStopped) {
    stopped = wasStopped;
    if (options.automated()) driver.finish();  // after the last rows and charts are painted
  });
  return driver.exec([&] {
    if (!options.automated()) return;
    QTimer::singleShot(0, &panel, [&] {  // once the window is up
      if (!panel.start()) driver.fail(panel.statusText());
    });
  });
}

}  // namespace iso
