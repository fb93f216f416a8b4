#include "app/studio/BoundaryEditor.h"

#include <QFormLayout>
#include <QGroupBox>
#include <QSignalBlocker>
#include <QVBoxLayout>

#include "app/studio/FormControls.h"

namespace iso {

BoundaryEditor::BoundaryEditor(QWidget* parent) : ScenarioSection(parent) {
  auto* outer = new QVBoxLayout(this);
  outer->setContentsMargins(0, 0, 0, 0);
  auto* box = new QGroupBox("Boundary");
  outer->addWidget(box);
  auto* boundary = new QFormLayout(box);
  kind_ = combo({{"Absorbing", "A perfectly matched layer: absorbs outgoing waves at every angle and frequency,\n"
                               "reflecting under 0.1 % at its default 10 cells"},
                 {"Sponge", "A simpler damping layer (Cerjan): cheaper, but it needs about 2.5 wavelengths\n"
                            "to reflect under 2 %"},
                 {"Reflecting", "Zero halo: waves bounce back (the oneAPI sample's boundary)"}},
                "What happens to waves at the edges of the grid");
  kind_->setObjectName("boundary_kind");
  boundary->addRow("Kind:", kind_);
  width_ = intSpin(0, 512, 0, " cells",
                   "Width of the layer, at most a quarter of each axis. Auto: 10 cells for the absorbing layer;\n"
                   "for the sponge 2.5 dominant wavelengths at the fastest velocity (at least 20 cells).\n"
                   "Echo against width and angle: docs/NUMERICS.md");
  width_->setObjectName("boundary_width");
  width_->setSpecialValueText("auto (from the model)");
  reflection_ = realSpin(1e-6, 0.5, 6, 1e-3, "", "Target amplitude reflection of the layer (drives its strength)");
  reflection_->setObjectName("reflection");
  boundary->addRow("Layer width:", width_);
  boundary->addRow("Reflection:", reflection_);
  for (QWidget* w : std::initializer_list<QWidget*>{kind_, width_, reflection_})
    onValueChanged(w, this, [this] {
      updateEnabledControls();
      emit boundaryChanged();
    });
  updateEnabledControls();
}

void BoundaryEditor::updateEnabledControls() {
  const bool layer = kind_->currentIndex() != 2;
  width_->setEnabled(layer);
  reflection_->setEnabled(layer);
}

void BoundaryEditor::setFromScenario(const Scenario& s) {
  const QSignalBlocker quiet(this);
  kind_->setCurrentIndex(s.boundary.kind == BoundaryKind::Absorbing ? 0 : s.boundary.kind == BoundaryKind::Sponge ? 1 : 2);
  width_->setValue(s.boundary.width);
  reflection_->setValue(s.boundary.reflection);
  updateEnabledControls();
}

void BoundaryEditor::applyTo(Scenario& s) const {
  const BoundaryKind kinds[] = {BoundaryKind::Absorbing, BoundaryKind::Sponge, BoundaryKind::Reflecting};
  s.boundary.kind = kinds[kind_->currentIndex()];
  s.boundary.width = width_->value();
  s.boundary.reflection = reflection_->value();
}

}  // namespace iso
