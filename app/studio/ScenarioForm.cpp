#include "ScenarioForm.h"

#include <QCheckBox>
#include <QComboBox>
#include <QDoubleSpinBox>
#include <QFormLayout>
#include <QGroupBox>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QSpinBox>
#include <QSignalBlocker>
#include <QStackedWidget>
#include <QTableWidget>
#include <QVBoxLayout>

#include <algorithm>
#include <cmath>

#include "ScenarioResize.h"
#include "SolverFactory.h"
#include "StageRegistry.h"

namespace iso {
namespace {


// Spin boxes commit on Enter, focus loss or arrows, not on every keystroke: each change may rebuild.
QSpinBox* intSpin(int min, int max, int value, const QString& suffix, const QString& tip) {
  auto* s = new QSpinBox;
  s->setRange(min, max);
  s->setValue(value);
  s->setSuffix(suffix);
  s->setKeyboardTracking(false);
  s->setToolTip(QStringLiteral("%1\nRange: %2 to %3%4").arg(tip).arg(min).arg(max).arg(suffix));
  return s;
}

QDoubleSpinBox* realSpin(double min, double max, int decimals, double value, const QString& suffix,
                         const QString& tip) {
  auto* s = new QDoubleSpinBox;
  s->setRange(min, max);
  s->setDecimals(decimals);
  s->setValue(value);
  s->setSuffix(suffix);
  s->setKeyboardTracking(false);
  s->setToolTip(QStringLiteral("%1\nRange: %2 to %3%4").arg(tip).arg(min).arg(max).arg(suffix));
  return s;
}

QComboBox* combo(const QList<QPair<QString, QString>>& labelsAndTips, const QString& tip) {
  auto* c = new QComboBox;
  for (int n = 0; n < labelsAndTips.size(); ++n) {
    c->addItem(labelsAndTips[n].first);
    c->setItemData(n, labelsAndTips[n].second, Qt::ToolTipRole);
  }
  c->setToolTip(tip);
  return c;
}

QHBoxLayout* row(std::initializer_list<QWidget*> widgets) {
  auto* h = new QHBoxLayout;
  h->setContentsMargins(0, 0, 0, 0);
  for (QWidget* w : widgets) h->addWidget(w);
  return h;
}

QWidget* rowWidget(std::initializer_list<QWidget*> widgets) {
  auto* w = new QWidget;
  w->setLayout(row(widgets));
  return w;
}

// Order of the model and source combo boxes (the enums' order).
const ModelKind kModelKinds[] = {ModelKind::Constant, ModelKind::Layered, ModelKind::Gradient, ModelKind::Random,
                                 ModelKind::File};
const SourceKind kSourceKinds[] = {SourceKind::Ricker, SourceKind::OneApiCubes, SourceKind::None};

template <class Kind, std::size_t N>
int indexOf(const Kind (&kinds)[N], Kind k) {
  return int(std::find(kinds, kinds + N, k) - kinds);
}

// The stage parameters `stage` takes; none for a stage this build does not know.
std::vector<std::string> acceptedParams(const std::string& stage) {
  try {
    return stageParameterNames(stage);
  } catch (const std::exception&) {
    return {};
  }
}

// The first of `keys` that `accepted` holds, or "" when the stage takes none of them.
std::string keyAmong(const std::vector<std::string>& keys, const std::vector<std::string>& accepted) {
  for (const auto& k : keys)
    if (std::find(accepted.begin(), accepted.end(), k) != accepted.end()) return k;
  return {};
}

}  // namespace

ScenarioForm::ScenarioForm(QObject* parent) : QObject(parent) {
  buildPhysicsPage();
  buildStagePage();
  setScenario(base_);
}

ScenarioForm::~ScenarioForm() {
  // The pages belong to docks once shown; delete them here only if nobody took them.
  if (physicsPage_ && !physicsPage_->parent()) delete physicsPage_;
  if (stagePage_ && !stagePage_->parent()) delete stagePage_;
}

void ScenarioForm::connectChanges(QWidget* w) {
  auto emitChanged = [this] {
    updateEnabledControls();
    if (!filling_) emit changed();
  };
  if (auto* s = qobject_cast<QSpinBox*>(w)) connect(s, &QSpinBox::valueChanged, this, emitChanged);
  else if (auto* d = qobject_cast<QDoubleSpinBox*>(w)) connect(d, &QDoubleSpinBox::valueChanged, this, emitChanged);
  else if (auto* c = qobject_cast<QComboBox*>(w)) connect(c, &QComboBox::currentIndexChanged, this, emitChanged);
  else if (auto* b = qobject_cast<QCheckBox*>(w)) connect(b, &QCheckBox::toggled, this, emitChanged);
  else if (auto* e = qobject_cast<QLineEdit*>(w)) connect(e, &QLineEdit::editingFinished, this, emitChanged);
}

void ScenarioForm::buildPhysicsPage() {
  physicsPage_ = new QWidget;
  auto* page = new QVBoxLayout(physicsPage_);

  // Presets.
  preset_ = new QComboBox;
  for (const auto& name : presetNames()) preset_->addItem(QString::fromStdString(name));
  preset_->setToolTip(
      "Ready-made scenarios: 'default' is a Ricker source in a layered model with a salt body;\n"
      "'oneapi' reproduces the oneAPI iso3dfd sample exactly (nested cubes, reflecting boundary).");
  auto* loadPreset = new QPushButton("Load");
  loadPreset->setToolTip("Replace every parameter by the chosen preset's");
  connect(loadPreset, &QPushButton::clicked, this, [this] { emit presetRequested(preset_->currentText()); });
  auto* presetRow = row({new QLabel("Preset:"), preset_, loadPreset});
  presetRow->setStretch(1, 1);
  page->addLayout(presetRow);

  // Grid and time.
  auto* gridBox = new QGroupBox("Grid and time step");
  auto* grid = new QFormLayout(gridBox);
  n1_ = intSpin(1, kMaxAxisCells, 128, "", "Interior cells along x (n1, the fastest axis)");
  n2_ = intSpin(1, kMaxAxisCells, 128, "", "Interior cells along y (n2)");
  n3_ = intSpin(1, kMaxAxisCells, 128, "", "Interior cells along z (n3, depth)");
  grid->addRow("Cells (n1 × n2 × n3):", rowWidget({n1_, n2_, n3_}));
  dx_ = realSpin(0.1, 1000.0, 2, 10.0, " m", "Grid spacing, the same along every axis");
  grid->addRow("Spacing dx:", dx_);
  autoDt_ = new QCheckBox("auto, fraction of the limit:");
  autoDt_->setToolTip("Choose dt as a fraction of the stability limit of the model");
  dtFraction_ = realSpin(0.05, 1.0, 2, 0.5, "", "Auto dt = this fraction of the stability limit");
  grid->addRow("Time step:", rowWidget({autoDt_, dtFraction_}));
  dtMs_ = realSpin(0.0001, 1000.0, 4, 1.0, " ms",
                   "Manual time step. Above the stability limit the run would blow up, so it is refused.");
  grid->addRow("Manual dt:", dtMs_);
  // Always two explicit lines, not word wrap: inside the scroll area the form does not grow when a
  // label gains a line after the window is shown, and the second line was cut off.
  stabilityLabel_ = new QLabel("stability limit: (not built yet)\npoints per wavelength: (not built yet)");
  stabilityLabel_->setToolTip("Limits of the running model: the largest stable dt, the Courant number and\n"
                              "the points per wavelength at the highest frequency (below ~6 the waves\n"
                              "disperse visibly; 10 or more is accurate)");
  grid->addRow(stabilityLabel_);
  coefficients_ = combo({{"exact", "The exact 16th-order central-difference weights"},
                         {"oneapi", "The oneAPI sample's literal table (its c3 has a digit slip); only for "
                                    "bit-compatible comparisons"}},
                        "Stencil weights");
  grid->addRow("Coefficients:", coefficients_);
  page->addWidget(gridBox);

  // Velocity model.
  auto* modelBox = new QGroupBox("Velocity model");
  auto* model = new QVBoxLayout(modelBox);
  modelKind_ = combo({{"Constant", "One velocity everywhere"},
                      {"Layered", "Horizontal layers, each from its top depth down to the next"},
                      {"Gradient", "Velocity growing linearly with depth"},
                      {"Random", "Gaussian-correlated random velocities (deterministic for a seed)"},
                      {"File", "A model file (.npy, raw float32, SEG-Y), resampled to the grid"}},
                     "Kind of velocity model");
  model->addLayout(row({new QLabel("Kind:"), modelKind_}));
  modelPages_ = new QStackedWidget;
  {
    auto* p = new QWidget;
    auto* f = new QFormLayout(p);
    constantVelocity_ = realSpin(100.0, 10000.0, 0, 1500.0, " m/s", "Velocity everywhere");
    f->addRow("Velocity:", constantVelocity_);
    modelPages_->addWidget(p);
  }
  {
    auto* p = new QWidget;
    auto* v = new QVBoxLayout(p);
    v->setContentsMargins(0, 0, 0, 0);
    layers_ = new QTableWidget(0, 2);
    layers_->setHorizontalHeaderLabels({"top (m)", "velocity (m/s)"});
    layers_->horizontalHeader()->setSectionResizeMode(QHeaderView::Stretch);
    layers_->verticalHeader()->setVisible(false);
    // Room for the header and five layers without scrolling (the default model has four): the dock's
    // scroll area gives the form its minimum height, so this is the height the table gets.
    layers_->setMinimumHeight(layers_->horizontalHeader()->sizeHint().height() +
                              5 * layers_->verticalHeader()->defaultSectionSize() + 2 * layers_->frameWidth());
    layers_->setToolTip("Each layer holds from its top depth down to the next layer's top; the first "
                        "starts at 0 m.\nVelocities 100 to 10000 m/s.");
    connect(layers_, &QTableWidget::cellChanged, this, [this] {
      if (!filling_) emit changed();
    });
    auto* add = new QPushButton("Add layer");
    add->setToolTip("Append a layer 200 m below the last one");
    auto* remove = new QPushButton("Remove");
    remove->setToolTip("Remove the selected layer (the last one if none is selected)");
    connect(add, &QPushButton::clicked, this, [this] {
      const int n = layers_->rowCount();
      const double lastTop = n ? layers_->item(n - 1, 0)->text().toDouble() : -200.0;
      const double lastVelocity = n ? layers_->item(n - 1, 1)->text().toDouble() : 1500.0;
      filling_ = true;
      addLayerRow(lastTop + 200.0, lastVelocity + 500.0);
      filling_ = false;
      emit changed();
    });
    connect(remove, &QPushButton::clicked, this, [this] {
      if (layers_->rowCount() <= 1) return;  // a layered model needs a layer
      const int r = layers_->currentRow() >= 0 ? layers_->currentRow() : layers_->rowCount() - 1;
      layers_->removeRow(r);
      emit changed();
    });
    v->addWidget(layers_);
    v->addLayout(row({add, remove}));
    modelPages_->addWidget(p);
  }
  {
    auto* p = new QWidget;
    auto* f = new QFormLayout(p);
    gradientTop_ = realSpin(100.0, 10000.0, 0, 1500.0, " m/s", "Velocity at the top (z = 0)");
    gradientBottom_ = realSpin(100.0, 10000.0, 0, 3000.0, " m/s", "Velocity at the bottom of the grid");
    f->addRow("Top:", gradientTop_);
    f->addRow("Bottom:", gradientBottom_);
    modelPages_->addWidget(p);
  }
  {
    auto* p = new QWidget;
    auto* f = new QFormLayout(p);
    randomMean_ = realSpin(100.0, 10000.0, 0, 2500.0, " m/s", "Mean velocity");
    randomStdDev_ = realSpin(0.0, 3000.0, 0, 200.0, " m/s", "Standard deviation (clipped at 3 σ)");
    randomLength_ = realSpin(1.0, 10000.0, 0, 100.0, " m", "Correlation length");
    randomSeed_ = intSpin(0, 1000000, 1, "", "Seed of the random generator (same seed, same model)");
    f->addRow("Mean:", randomMean_);
    f->addRow("Std. dev.:", randomStdDev_);
    f->addRow("Correlation:", randomLength_);
    f->addRow("Seed:", randomSeed_);
    modelPages_->addWidget(p);
  }
  {
    auto* p = new QWidget;
    auto* f = new QFormLayout(p);
    modelPath_ = new QLineEdit;
    modelPath_->setPlaceholderText("model file");
    modelPath_->setToolTip("Velocity model file: .npy (float32, shape n3×n2×n1), .bin/.raw (float32,\n"
                           "x fastest, give its dimensions below), .sgy/.segy. Resampled to the grid.");
    auto* browse = new QPushButton("Browse…");
    browse->setToolTip("Choose a model file");
    connect(browse, &QPushButton::clicked, this, &ScenarioForm::browseModelFile);
    f->addRow("File:", rowWidget({modelPath_, browse}));
    fileN1_ = intSpin(0, 100000, 0, "", "Raw files only: cells along x in the file (0 for .npy/SEG-Y)");
    fileN2_ = intSpin(0, 100000, 0, "", "Raw files only: cells along y in the file");
    fileN3_ = intSpin(0, 100000, 0, "", "Raw files only: cells along z in the file");
    f->addRow("Raw dims:", rowWidget({fileN1_, fileN2_, fileN3_}));
    fileUnit_ = combo({{"m/s", "The file's velocities are in metres per second"},
                       {"km/s", "The file's velocities are in kilometres per second (many Python and academic models)"},
                       {"ft/s", "The file's velocities are in feet per second (much North American SEG-Y)"}},
                      "Unit of the velocities in the file; they are converted to m/s as it is read");
    fileUnit_->setObjectName("file_unit");
    f->addRow("Unit:", fileUnit_);
    modelPages_->addWidget(p);
  }
  model->addWidget(modelPages_);
  salt_ = new QCheckBox("Salt body (a fast sphere over the model)");
  salt_->setToolTip("Draw a high-velocity sphere over any background model");
  model->addWidget(salt_);
  auto* saltForm = new QFormLayout;
  saltX_ = realSpin(0.0, 1.0e6, 0, 640.0, " m", "Centre of the sphere along x, from the interior origin");
  saltY_ = realSpin(0.0, 1.0e6, 0, 640.0, " m", "Centre of the sphere along y");
  saltZ_ = realSpin(0.0, 1.0e6, 0, 900.0, " m", "Centre of the sphere along z (depth)");
  saltForm->addRow("Centre x, y, z:", rowWidget({saltX_, saltY_, saltZ_}));
  saltRadius_ = realSpin(0.0, 1.0e6, 0, 200.0, " m", "Radius of the sphere");
  saltVelocity_ = realSpin(100.0, 10000.0, 0, 4500.0, " m/s", "Velocity inside the sphere");
  saltForm->addRow("Radius, velocity:", rowWidget({saltRadius_, saltVelocity_}));
  model->addLayout(saltForm);
  page->addWidget(modelBox);

  // Source.
  auto* sourceBox = new QGroupBox("Source");
  auto* source = new QFormLayout(sourceBox);
  sourceKind_ = combo({{"Ricker point source", "A Ricker wavelet injected at one cell"},
                       {"oneAPI cubes (initial condition)",
                        "The oneAPI sample's initial field: nested cubes of 1, 10, 100, … at a quarter of "
                        "x and y"},
                       {"None", "No source: the field stays as it starts"}},
                      "What excites the waves");
  source->addRow("Kind:", sourceKind_);
  const QString cellTip = "Interior cell of the source; 'centre' puts it at the middle of the axis.\n"
                          "A click on a slice in the view moves the source there.";
  sourceI_ = intSpin(-1, kMaxAxisCells - 1, -1, "", cellTip);
  sourceJ_ = intSpin(-1, kMaxAxisCells - 1, -1, "", cellTip);
  sourceK_ = intSpin(-1, kMaxAxisCells - 1, -1, "", cellTip);
  for (QSpinBox* s : {sourceI_, sourceJ_, sourceK_}) s->setSpecialValueText("centre");
  source->addRow("Cell (i, j, k):", rowWidget({sourceI_, sourceJ_, sourceK_}));
  frequency_ = realSpin(0.1, 1000.0, 1, 15.0, " Hz", "Peak frequency f0 of the Ricker wavelet");
  amplitude_ = realSpin(0.0, kMaxSourceAmplitude, 0, 1.0e6, "", "Amplitude A of the wavelet (source strength, m³ per unit of u)");
  delay_ = realSpin(-1.0, 10.0, 4, -1.0, " s", "Time of the wavelet's peak, t0");
  delay_->setSpecialValueText("auto (1.5 / f0)");
  source->addRow("Peak frequency:", frequency_);
  source->addRow("Amplitude:", amplitude_);
  source->addRow("Delay t0:", delay_);
  page->addWidget(sourceBox);

  // Boundary.
  auto* boundaryBox = new QGroupBox("Boundary");
  auto* boundary = new QFormLayout(boundaryBox);
  boundaryKind_ = combo({{"Absorbing", "A damping layer that absorbs outgoing waves"},
                         {"Reflecting", "Zero halo: waves bounce back (the oneAPI sample's boundary)"}},
                        "What happens to waves at the edges of the grid");
  boundary->addRow("Kind:", boundaryKind_);
  boundaryWidth_ = intSpin(0, 512, 0, " cells", "Width of the damping layer");
  boundaryWidth_->setSpecialValueText("auto (from the model)");
  reflection_ = realSpin(1e-6, 0.5, 6, 1e-3, "", "Target amplitude reflection of the layer (drives its strength)");
  boundary->addRow("Layer width:", boundaryWidth_);
  boundary->addRow("Reflection:", reflection_);
  page->addWidget(boundaryBox);
  page->addStretch(1);

  // A new grid size rescales the source, salt body, layers and receivers with it (resizedScenario), so
  // that they stay inside the grid and the picture stays the same.
  for (QSpinBox* size : {n1_, n2_, n3_})
    connect(size, &QSpinBox::valueChanged, this, [this] {
      if (filling_) return;
      Scenario s = scenario();
      s.n1 = base_.n1, s.n2 = base_.n2, s.n3 = base_.n3;
      setScenario(resizedScenario(s, n1_->value(), n2_->value(), n3_->value()));
      emit changed();
    });
  for (QWidget* w : std::initializer_list<QWidget*>{
           dx_, autoDt_, dtFraction_, dtMs_, coefficients_, modelKind_, constantVelocity_,
           gradientTop_, gradientBottom_, randomMean_, randomStdDev_, randomLength_, randomSeed_, modelPath_,
           fileN1_, fileN2_, fileN3_, fileUnit_, salt_, saltX_, saltY_, saltZ_, saltRadius_, saltVelocity_, sourceKind_,
           sourceI_, sourceJ_, sourceK_, frequency_, amplitude_, delay_, boundaryKind_, boundaryWidth_,
           reflection_})
    connectChanges(w);
  connect(modelKind_, &QComboBox::currentIndexChanged, modelPages_, &QStackedWidget::setCurrentIndex);
  // The stack takes the height of its current page, not of its tallest (the layer table), so that a
  // short page leaves no gap above the salt body.
  auto fitToCurrentPage = [this](int current) {
    for (int n = 0; n < modelPages_->count(); ++n)
      modelPages_->widget(n)->setSizePolicy(QSizePolicy::Preferred, n == current ? QSizePolicy::Preferred : QSizePolicy::Ignored);
    modelPages_->adjustSize();
  };
  connect(modelPages_, &QStackedWidget::currentChanged, modelPages_, fitToCurrentPage);
  fitToCurrentPage(modelPages_->currentIndex());
}

void ScenarioForm::buildStagePage() {
  stagePage_ = new QWidget;
  auto* page = new QVBoxLayout(stagePage_);
  auto* form = new QFormLayout;
  stage_ = new QComboBox;
  stage_->setObjectName("stage");
  for (const auto& s : StageRegistry::all()) {
    stage_->addItem(QString::fromStdString(s.title), QString::fromStdString(s.id));
    QString tip = QString::fromStdString(s.description);
    if (!s.sampleName.empty()) tip += QStringLiteral("\n(oneAPI sample: %1)").arg(QString::fromStdString(s.sampleName));
    stage_->setItemData(stage_->count() - 1, tip, Qt::ToolTipRole);
  }
  stage_->setToolTip("Optimisation stage of the stencil: CPU stages run natively, GPU stages as OpenCL kernels");
  form->addRow("Stage:", stage_);
  stageDescription_ = new QLabel;
  stageDescription_->setWordWrap(true);
  form->addRow(stageDescription_);
  device_ = new QComboBox;
  device_->setToolTip("OpenCL device for the GPU stages (the CPU stages run natively)");
  form->addRow("Device:", device_);
  page->addLayout(form);

  auto* paramsBox = new QGroupBox("Stage parameters");
  auto* params = new QFormLayout(paramsBox);
  auto* threads = intSpin(0, 1024, 0, "", "Threads of the cpu-parallel stage; leave one core free for smooth drawing");
  threads->setSpecialValueText("all cores");
  auto* tileX = intSpin(0, 1024, 0, "",
                        "Tile width along x: the cache block of cpu-parallel (block_x), the work-group of the\n"
                        "simple GPU stages (wg_x), the local-memory tile of gpu-slm and gpu-optimized (tile_x)");
  auto* tileY = intSpin(0, 1024, 0, "",
                        "Tile height along y: the cache block of cpu-parallel (block_y), the work-group of the\n"
                        "simple GPU stages (wg_y), the local-memory tile of gpu-slm and gpu-optimized (tile_y)");
  auto* zChunk = intSpin(0, kMaxAxisCells, 0, " planes",
                         "Planes along z that one tile (cpu-parallel: block_z) or one work-item (GPU stages:\n"
                         "z_chunk) streams through");
  for (QSpinBox* s : {tileX, tileY, zChunk}) s->setSpecialValueText("tuned default");
  params->addRow("CPU threads:", threads);
  params->addRow("Tile x:", tileX);
  params->addRow("Tile y:", tileY);
  params->addRow("z-chunk:", zChunk);
  page->addWidget(paramsBox);
  page->addStretch(1);
  paramBoxes_ = {{threads, {"threads"}},
                 {tileX, {"tile_x", "wg_x", "block_x"}},
                 {tileY, {"tile_y", "wg_y", "block_y"}},
                 {zChunk, {"z_chunk", "block_z"}}};
  for (const ParamBox& p : paramBoxes_) p.box->setObjectName(QString::fromStdString(p.keys.front()));

  // A value chosen for one stage means something else, or nothing, to another: a new stage starts from
  // its tuned defaults. (Connected before connectChanges, so the scenario emitted already has them.)
  connect(stage_, &QComboBox::currentIndexChanged, this, [this, threads] {
    if (filling_) return;
    for (const ParamBox& p : paramBoxes_) {
      if (p.box == threads) continue;  // the same meaning wherever it applies
      const QSignalBlocker quiet(p.box);
      p.box->setValue(0);
    }
  });
  for (QWidget* w : std::initializer_list<QWidget*>{stage_, device_, threads, tileX, tileY, zChunk}) connectChanges(w);
}

void ScenarioForm::addLayerRow(double top, double velocity) {
  const int r = layers_->rowCount();
  layers_->insertRow(r);
  layers_->setItem(r, 0, new QTableWidgetItem(QString::number(top)));
  layers_->setItem(r, 1, new QTableWidgetItem(QString::number(velocity)));
}

void ScenarioForm::updateEnabledControls() {
  dtFraction_->setEnabled(autoDt_->isChecked());
  dtMs_->setEnabled(!autoDt_->isChecked());
  const bool saltOn = salt_->isChecked();
  for (QWidget* w : {saltX_, saltY_, saltZ_, saltRadius_, saltVelocity_}) w->setEnabled(saltOn);
  const bool ricker = sourceKind_->currentIndex() == indexOf(kSourceKinds, SourceKind::Ricker);
  for (QWidget* w : std::initializer_list<QWidget*>{sourceI_, sourceJ_, sourceK_, frequency_, amplitude_, delay_})
    w->setEnabled(ricker);
  const bool absorbing = boundaryKind_->currentIndex() == 0;
  boundaryWidth_->setEnabled(absorbing);
  reflection_->setEnabled(absorbing);
  const std::string stage = stage_->currentData().toString().toStdString();
  const StageInfo* info = StageRegistry::find(stage);
  stageDescription_->setText(info ? QString::fromStdString(info->description) : QString());
  device_->setEnabled(info && info->opencl);
  const std::vector<std::string> accepted = acceptedParams(stage);
  for (const ParamBox& p : paramBoxes_) p.box->setEnabled(!keyAmong(p.keys, accepted).empty());
}

void ScenarioForm::setScenario(const Scenario& s) {
  filling_ = true;
  base_ = s;
  n1_->setValue(s.n1);
  n2_->setValue(s.n2);
  n3_->setValue(s.n3);
  dx_->setValue(s.dx);
  autoDt_->setChecked(s.dt <= 0.0);
  dtFraction_->setValue(s.dtAutoFraction);
  if (s.dt > 0.0) dtMs_->setValue(s.dt * 1e3);
  coefficients_->setCurrentIndex(s.coefficients == "oneapi" ? 1 : 0);

  const VelocityModelSpec& m = s.model;
  modelKind_->setCurrentIndex(indexOf(kModelKinds, m.kind));
  modelPages_->setCurrentIndex(modelKind_->currentIndex());
  constantVelocity_->setValue(m.velocity);
  layers_->setRowCount(0);
  for (const Layer& l : m.layers) addLayerRow(l.top, l.velocity);
  if (m.layers.empty()) addLayerRow(0.0, 1500.0);
  gradientTop_->setValue(m.topVelocity);
  gradientBottom_->setValue(m.bottomVelocity);
  randomMean_->setValue(m.velocity);
  randomStdDev_->setValue(m.randomStdDev);
  randomLength_->setValue(m.randomCorrelationLength);
  randomSeed_->setValue(int(m.randomSeed));
  modelPath_->setText(QString::fromStdString(m.path));
  fileN1_->setValue(m.fileN1);
  fileN2_->setValue(m.fileN2);
  fileN3_->setValue(m.fileN3);
  fileUnit_->setCurrentText(QString::fromStdString(toString(m.fileUnit)));
  salt_->setChecked(m.salt.enabled);
  saltX_->setValue(m.salt.centerX);
  saltY_->setValue(m.salt.centerY);
  saltZ_->setValue(m.salt.centerZ);
  saltRadius_->setValue(m.salt.radius);
  saltVelocity_->setValue(m.salt.velocity);

  sourceKind_->setCurrentIndex(indexOf(kSourceKinds, s.source.kind));
  sourceI_->setValue(s.source.i);
  sourceJ_->setValue(s.source.j);
  sourceK_->setValue(s.source.k);
  frequency_->setValue(s.source.frequency);
  amplitude_->setValue(s.source.amplitude);
  delay_->setValue(s.source.delay < 0.0 ? -1.0 : s.source.delay);

  boundaryKind_->setCurrentIndex(s.boundary.kind == BoundaryKind::Absorbing ? 0 : 1);
  boundaryWidth_->setValue(s.boundary.width);
  reflection_->setValue(s.boundary.reflection);

  const int stageIndex = stage_->findData(QString::fromStdString(s.stage));
  stage_->setCurrentIndex(std::max(0, stageIndex));
  int deviceIndex = device_->findData(QString::fromStdString(s.device));
  if (deviceIndex < 0) {  // a selector that is not in the list (a name substring): keep it as typed
    device_->addItem(QString::fromStdString(s.device), QString::fromStdString(s.device));
    deviceIndex = device_->count() - 1;
  }
  device_->setCurrentIndex(deviceIndex);
  auto param = [&](const char* key) {
    const auto it = s.stageParams.find(key);
    return it == s.stageParams.end() ? 0 : it->second;
  };
  const std::vector<std::string> accepted = acceptedParams(s.stage);
  for (const ParamBox& p : paramBoxes_) {
    const std::string key = keyAmong(p.keys, accepted);
    p.box->setValue(key.empty() ? 0 : param(key.c_str()));
  }
  updateEnabledControls();
  filling_ = false;
}

Scenario ScenarioForm::scenario() const {
  Scenario s = base_;
  s.n1 = n1_->value();
  s.n2 = n2_->value();
  s.n3 = n3_->value();
  s.dx = dx_->value();
  s.dt = autoDt_->isChecked() ? 0.0 : dtMs_->value() * 1e-3;
  s.dtAutoFraction = dtFraction_->value();
  s.coefficients = coefficients_->currentIndex() == 1 ? "oneapi" : "exact";

  VelocityModelSpec& m = s.model;
  m.kind = kModelKinds[modelKind_->currentIndex()];
  switch (m.kind) {
    case ModelKind::Constant: m.velocity = constantVelocity_->value(); break;
    case ModelKind::Random: m.velocity = randomMean_->value(); break;
    default: break;
  }
  m.layers.clear();
  for (int r = 0; r < layers_->rowCount(); ++r)
    m.layers.push_back({layers_->item(r, 0)->text().toDouble(), layers_->item(r, 1)->text().toDouble()});
  std::stable_sort(m.layers.begin(), m.layers.end(), [](const Layer& a, const Layer& b) { return a.top < b.top; });
  m.topVelocity = gradientTop_->value();
  m.bottomVelocity = gradientBottom_->value();
  m.randomStdDev = randomStdDev_->value();
  m.randomCorrelationLength = randomLength_->value();
  m.randomSeed = unsigned(randomSeed_->value());
  m.path = modelPath_->text().trimmed().toStdString();
  m.fileN1 = fileN1_->value();
  m.fileN2 = fileN2_->value();
  m.fileN3 = fileN3_->value();
  m.fileUnit = velocityUnitFromString(fileUnit_->currentText().toStdString());
  m.salt.enabled = salt_->isChecked();
  m.salt.centerX = saltX_->value();
  m.salt.centerY = saltY_->value();
  m.salt.centerZ = saltZ_->value();
  m.salt.radius = saltRadius_->value();
  m.salt.velocity = saltVelocity_->value();

  s.source.kind = kSourceKinds[sourceKind_->currentIndex()];
  s.source.i = sourceI_->value();
  s.source.j = sourceJ_->value();
  s.source.k = sourceK_->value();
  s.source.frequency = frequency_->value();
  s.source.amplitude = amplitude_->value();
  s.source.delay = delay_->value();

  s.boundary.kind = boundaryKind_->currentIndex() == 0 ? BoundaryKind::Absorbing : BoundaryKind::Reflecting;
  s.boundary.width = boundaryWidth_->value();
  s.boundary.reflection = reflection_->value();

  s.stage = stage_->currentData().toString().toStdString();
  s.device = device_->currentData().toString().toStdString();
  // Keys the stage does not take (left from another stage) go; zero means "the stage's tuned default":
  // such keys are left out too, so the stage picks.
  const std::vector<std::string> accepted = acceptedParams(s.stage);
  std::erase_if(s.stageParams,
                [&](const auto& kv) { return std::find(accepted.begin(), accepted.end(), kv.first) == accepted.end(); });
  for (const ParamBox& p : paramBoxes_) {
    const std::string key = keyAmong(p.keys, accepted);
    if (key.empty()) continue;
    if (p.box->value() > 0) s.stageParams[key] = p.box->value();
    else s.stageParams.erase(key);
  }
  return s;
}

void ScenarioForm::setDevices(const QStringList& selectors, const QStringList& summaries) {
  const QString current = device_->currentData().toString();
  filling_ = true;
  device_->clear();
  device_->addItem("automatic (first GPU, else CPU)", QString());
  for (int n = 0; n < selectors.size() && n < summaries.size(); ++n) device_->addItem(summaries[n], selectors[n]);
  device_->setCurrentIndex(std::max(0, device_->findData(current)));
  filling_ = false;
}

void ScenarioForm::setSourceCell(int i, int j, int k) {
  filling_ = true;
  sourceI_->setValue(i);
  sourceJ_->setValue(j);
  sourceK_->setValue(k);
  if (sourceKind_->currentIndex() != indexOf(kSourceKinds, SourceKind::Ricker))
    sourceKind_->setCurrentIndex(indexOf(kSourceKinds, SourceKind::Ricker));
  filling_ = false;
  updateEnabledControls();
  emit changed();
}

void ScenarioForm::setStability(const StabilityReport& r) {
  QString text = QStringLiteral("stability limit: dt ≤ %1 ms (Courant %2 of %3)")
                     .arg(r.dtLimit * 1e3, 0, 'f', 4)
                     .arg(r.courant, 0, 'f', 3)
                     .arg(r.courantLimit, 0, 'f', 3);
  if (r.pointsPerWavelength > 0.0)
    text += QStringLiteral("\n%1 points per wavelength at f_max%2")
                .arg(r.pointsPerWavelength, 0, 'f', 1)
                .arg(r.pointsPerWavelength < 6.0 ? " (dispersive!)" : "");
  else
    text += QStringLiteral("\npoints per wavelength: no Ricker source");
  stabilityLabel_->setText(text);
}

void ScenarioForm::setModelFile(const QString& path) {
  filling_ = true;
  modelPath_->setText(path);
  modelKind_->setCurrentIndex(indexOf(kModelKinds, ModelKind::File));
  filling_ = false;
  emit changed();
}

}  // namespace iso
