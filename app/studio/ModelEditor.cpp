#include "app/studio/ModelEditor.h"

#include <QCheckBox>
#include <QFormLayout>
#include <QGroupBox>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QSignalBlocker>
#include <QStackedWidget>
#include <QTableWidget>
#include <QVBoxLayout>

#include <algorithm>

#include "app/studio/FormControls.h"

namespace iso {
namespace {

// Order of the kind combo box and of the pages (the enum's order).
const ModelKind kModelKinds[] = {ModelKind::Constant, ModelKind::Layered, ModelKind::Gradient, ModelKind::Random,
                                 ModelKind::File};

int indexOf(ModelKind k) { return int(std::find(std::begin(kModelKinds), std::end(kModelKinds), k) - kModelKinds); }

}  // namespace

ModelEditor::ModelEditor(QWidget* parent) : ScenarioSection(parent) {
  auto* outer = new QVBoxLayout(this);
  outer->setContentsMargins(0, 0, 0, 0);
  auto* box = new QGroupBox("Velocity model");
  outer->addWidget(box);
  auto* model = new QVBoxLayout(box);
  kind_ = combo({{"Constant", "One velocity everywhere"},
                 {"Layered", "Horizontal layers, each from its top depth down to the next"},
                 {"Gradient", "Velocity growing linearly with depth"},
                 {"Random", "Gaussian-correlated random velocities (deterministic for a seed)"},
                 {"File", "A model file (.npy, raw float32, SEG-Y), resampled to the grid"}},
                "Kind of velocity model");
  kind_->setObjectName("model_kind");
  model->addLayout(row({new QLabel("Kind:"), kind_}));
  pages_ = new QStackedWidget;
  {
    auto* p = new QWidget;
    auto* f = new QFormLayout(p);
    constantVelocity_ = realSpin(100.0, 10000.0, 0, 1500.0, " m/s", "Velocity everywhere");
    f->addRow("Velocity:", constantVelocity_);
    pages_->addWidget(p);
  }
  pages_->addWidget(buildLayersPage());
  {
    auto* p = new QWidget;
    auto* f = new QFormLayout(p);
    gradientTop_ = realSpin(100.0, 10000.0, 0, 1500.0, " m/s", "Velocity at the top (z = 0)");
    gradientBottom_ = realSpin(100.0, 10000.0, 0, 3000.0, " m/s", "Velocity at the bottom of the grid");
    f->addRow("Top:", gradientTop_);
    f->addRow("Bottom:", gradientBottom_);
    pages_->addWidget(p);
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
    pages_->addWidget(p);
  }
  pages_->addWidget(buildFilePage());
  model->addWidget(pages_);

  salt_ = new QCheckBox("Salt body (a fast sphere over the model)");
  salt_->setObjectName("salt");
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

  for (QWidget* w : std::initializer_list<QWidget*>{
           kind_, constantVelocity_, gradientTop_, gradientBottom_, randomMean_, randomStdDev_, randomLength_,
           randomSeed_, path_, fileN1_, fileN2_, fileN3_, fileUnit_, salt_, saltX_, saltY_, saltZ_, saltRadius_,
           saltVelocity_})
    onValueChanged(w, this, [this] {
      updateEnabledControls();
      emit modelChanged();
    });
  connect(kind_, &QComboBox::currentIndexChanged, pages_, &QStackedWidget::setCurrentIndex);
  // The stack takes the height of its current page, not of its tallest (the layer table), so that a
  // short page leaves no gap above the salt body.
  auto fitToCurrentPage = [this](int current) {
    for (int n = 0; n < pages_->count(); ++n)
      pages_->widget(n)->setSizePolicy(QSizePolicy::Preferred, n == current ? QSizePolicy::Preferred : QSizePolicy::Ignored);
    pages_->adjustSize();
  };
  connect(pages_, &QStackedWidget::currentChanged, pages_, fitToCurrentPage);
  fitToCurrentPage(pages_->currentIndex());
  updateEnabledControls();
}

QWidget* ModelEditor::buildLayersPage() {
  auto* p = new QWidget;
  auto* v = new QVBoxLayout(p);
  v->setContentsMargins(0, 0, 0, 0);
  layers_ = new QTableWidget(0, 2);
  layers_->setObjectName("layers");
  layers_->setHorizontalHeaderLabels({"top (m)", "velocity (m/s)"});
  layers_->horizontalHeader()->setSectionResizeMode(QHeaderView::Stretch);
  layers_->verticalHeader()->setVisible(false);
  // Room for the header and five layers without scrolling (the default model has four): the dock's
  // scroll area gives the form its minimum height, so this is the height the table gets.
  layers_->setMinimumHeight(layers_->horizontalHeader()->sizeHint().height() +
                            5 * layers_->verticalHeader()->defaultSectionSize() + 2 * layers_->frameWidth());
  layers_->setToolTip("Each layer holds from its top depth down to the next layer's top; the first "
                      "starts at 0 m.\nVelocities 100 to 10000 m/s.");
  connect(layers_, &QTableWidget::cellChanged, this, &ModelEditor::modelChanged);
  auto* add = new QPushButton("Add layer");
  add->setToolTip("Append a layer 200 m below the last one");
  auto* remove = new QPushButton("Remove");
  remove->setToolTip("Remove the selected layer (the last one if none is selected)");
  connect(add, &QPushButton::clicked, this, [this] {
    const int n = layers_->rowCount();
    const double lastTop = n ? layers_->item(n - 1, 0)->text().toDouble() : -200.0;
    const double lastVelocity = n ? layers_->item(n - 1, 1)->text().toDouble() : 1500.0;
    addLayerRow(lastTop + 200.0, lastVelocity + 500.0);
    emit modelChanged();
  });
  connect(remove, &QPushButton::clicked, this, [this] {
    if (layers_->rowCount() <= 1) return;  // a layered model needs a layer
    const int r = layers_->currentRow() >= 0 ? layers_->currentRow() : layers_->rowCount() - 1;
    layers_->removeRow(r);
    emit modelChanged();
  });
  v->addWidget(layers_);
  v->addLayout(row({add, remove}));
  return p;
}

QWidget* ModelEditor::buildFilePage() {
  auto* p = new QWidget;
  auto* f = new QFormLayout(p);
  path_ = new QLineEdit;
  path_->setObjectName("model_path");
  path_->setPlaceholderText("model file");
  path_->setToolTip("Velocity model file: .npy (float32, shape n3×n2×n1), .bin/.raw (float32,\n"
                    "x fastest, give its dimensions below), .sgy/.segy. Resampled to the grid.");
  auto* browse = new QPushButton("Browse…");
  browse->setToolTip("Choose a model file");
  connect(browse, &QPushButton::clicked, this, &ModelEditor::browseModelFileRequested);
  f->addRow("File:", rowWidget({path_, browse}));
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
  return p;
}

void ModelEditor::addLayerRow(double top, double velocity) {
  const QSignalBlocker quiet(layers_);  // the caller reports the new row once
  const int r = layers_->rowCount();
  layers_->insertRow(r);
  layers_->setItem(r, 0, new QTableWidgetItem(QString::number(top)));
  layers_->setItem(r, 1, new QTableWidgetItem(QString::number(velocity)));
}

void ModelEditor::updateEnabledControls() {
  const bool saltOn = salt_->isChecked();
  for (QWidget* w : {saltX_, saltY_, saltZ_, saltRadius_, saltVelocity_}) w->setEnabled(saltOn);
}

void ModelEditor::setFromScenario(const Scenario& s) {
  const QSignalBlocker quiet(this);
  const VelocityModelSpec& m = s.model;
  kind_->setCurrentIndex(indexOf(m.kind));
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
  path_->setText(QString::fromStdString(m.path));
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
  updateEnabledControls();
}

void ModelEditor::applyTo(Scenario& s) const {
  VelocityModelSpec& m = s.model;
  m.kind = kModelKinds[kind_->currentIndex()];
  switch (m.kind) {  // one field, two pages: the constant velocity and the random model's mean
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
  m.path = path_->text().trimmed().toStdString();
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
}

void ModelEditor::setModelFile(const QString& path) {
  {
    const QSignalBlocker quiet(this);
    path_->setText(path);
    kind_->setCurrentIndex(indexOf(ModelKind::File));
  }
  emit modelChanged();
}

}  // namespace iso
