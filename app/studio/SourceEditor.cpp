#include "app/studio/SourceEditor.h"

#include <QFormLayout>
#include <QGroupBox>
#include <QPalette>
#include <QSignalBlocker>
#include <QSpinBox>
#include <QVBoxLayout>

#include <algorithm>

#include "app/studio/FormControls.h"
#include "core/Grid.h"

namespace iso {
namespace {

// Order of the kind combo box.
const SourceKind kSourceKinds[] = {SourceKind::Ricker, SourceKind::OneApiCubes, SourceKind::None};

int indexOf(SourceKind k) { return int(std::find(std::begin(kSourceKinds), std::end(kSourceKinds), k) - kSourceKinds); }

}  // namespace

SourceEditor::SourceEditor(QWidget* parent) : ScenarioSection(parent) {
  auto* outer = new QVBoxLayout(this);
  outer->setContentsMargins(0, 0, 0, 0);
  auto* box = new QGroupBox("Source");
  outer->addWidget(box);
  auto* source = new QFormLayout(box);
  kind_ = combo({{"Ricker point source", "A Ricker wavelet injected at one cell"},
                 {"oneAPI cubes (initial condition)",
                  "The oneAPI sample's initial field: nested cubes of 1, 10, 100, … at a quarter of "
                  "x and y"},
                 {"None", "No source: the field stays as it starts"}},
                "What excites the waves");
  kind_->setObjectName("source_kind");
  source->addRow("Kind:", kind_);
  cellTip_ = "Interior cell of the source; 'centre' puts it at the middle of the axis.\n"
             "A click on a slice in the view moves the source there.";
  i_ = intSpin(-1, kMaxAxisCells - 1, -1, "", cellTip_);
  j_ = intSpin(-1, kMaxAxisCells - 1, -1, "", cellTip_);
  k_ = intSpin(-1, kMaxAxisCells - 1, -1, "", cellTip_);
  i_->setObjectName("source_i");
  j_->setObjectName("source_j");
  k_->setObjectName("source_k");
  for (QSpinBox* s : {i_, j_, k_}) s->setSpecialValueText("centre");
  source->addRow("Cell (i, j, k):", rowWidget({i_, j_, k_}));
  frequency_ = realSpin(0.1, 1000.0, 1, 15.0, " Hz", "Peak frequency f0 of the Ricker wavelet");
  frequency_->setObjectName("frequency");
  amplitude_ = realSpin(0.0, kMaxSourceAmplitude, 0, 1.0e6, "", "Amplitude A of the wavelet (source strength, m³ per unit of u)");
  delay_ = realSpin(-1.0, 10.0, 4, -1.0, " s", "Time of the wavelet's peak, t0");
  delay_->setSpecialValueText("auto (1.5 / f0)");
  source->addRow("Peak frequency:", frequency_);
  source->addRow("Amplitude:", amplitude_);
  source->addRow("Delay t0:", delay_);

  for (QWidget* w : std::initializer_list<QWidget*>{kind_, i_, j_, k_, frequency_, amplitude_, delay_})
    onValueChanged(w, this, [this] {
      updateEnabledControls();
      emit sourceChanged();
    });
  updateEnabledControls();
}

void SourceEditor::updateEnabledControls() {
  const bool ricker = kind_->currentIndex() == indexOf(SourceKind::Ricker);
  for (QWidget* w : std::initializer_list<QWidget*>{i_, j_, k_, frequency_, amplitude_, delay_}) w->setEnabled(ricker);
}

void SourceEditor::setFromScenario(const Scenario& s) {
  const QSignalBlocker quiet(this);
  kind_->setCurrentIndex(indexOf(s.source.kind));
  i_->setValue(s.source.i);
  j_->setValue(s.source.j);
  k_->setValue(s.source.k);
  frequency_->setValue(s.source.frequency);
  amplitude_->setValue(s.source.amplitude);
  delay_->setValue(s.source.delay < 0.0 ? -1.0 : s.source.delay);
  updateEnabledControls();
}

void SourceEditor::applyTo(Scenario& s) const {
  s.source.kind = kSourceKinds[kind_->currentIndex()];
  s.source.i = i_->value();
  s.source.j = j_->value();
  s.source.k = k_->value();
  s.source.frequency = frequency_->value();
  s.source.amplitude = amplitude_->value();
  s.source.delay = delay_->value();
}

void SourceEditor::setCell(int i, int j, int k) {
  {
    const QSignalBlocker quiet(this);  // one change, one rebuild
    i_->setValue(i);
    j_->setValue(j);
    k_->setValue(k);
    kind_->setCurrentIndex(indexOf(SourceKind::Ricker));
  }
  emit sourceChanged();
}

void SourceEditor::setAbsorbingLayer(const std::array<int, 3>& grid, const std::array<int, 3>& layer) {
  const std::array<QSpinBox*, 3> boxes{i_, j_, k_};
  for (std::size_t a = 0; a < 3; ++a) {
    const int cell = boxes[a]->value();  // -1: the centre, never in the layer
    const bool inside = cell >= 0 && layer[a] > 0 && (cell < layer[a] || cell >= grid[a] - layer[a]);
    QPalette palette;  // the inherited one
    QString tip = cellTip_;
    if (inside) {
      palette = boxes[a]->palette();
      palette.setColor(QPalette::Base, QColor(255, 228, 170));
      tip = QStringLiteral("Inside the absorbing layer (%1 cells from each face along this axis): the source's wave\n"
                           "is damped as it starts.\n\n").arg(layer[a]) + cellTip_;
    }
    boxes[a]->setPalette(palette);
    boxes[a]->setToolTip(tip);
  }
}

}  // namespace iso
