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
  kind_ = combo({{"Absorbing", "A damping layer that absorbs outgoing waves"},
                 {"Reflecting", "Zero halo: waves bounce back (the oneAPI sample's boundary)"}},
                "What happens to waves at the edges of the grid");
  kind_->setObjectName("boundary_kind");
  boundary->addRow("Kind:", kind_);
  width_ = intSpin(0, 512, 0, " cells",
                   "Width of the damping layer. Auto: 2.5 dominant wavelengths at the fastest velocity (at least\n"
                   "20 cells, at most a quarter of each axis), which reflects under 2 % of a wave; one wavelength\n"
                   "reflects about 9 %, two about 2.4 % (docs/NUMERICS.md)");
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
  const bool absorbing = kind_->currentIndex() == 0;
  width_->setEnabled(absorbing);
  reflection_->setEnabled(absorbing);
}

void BoundaryEditor::setFromScenario(const Scenario& s) {
  const QSignalBlocker quiet(this);
  kind_->setCurrentIndex(s.boundary.kind == BoundaryKind::Absorbing ? 0 : 1);
  width_->setValue(s.boundary.width);
  reflection_->setValue(s.boundary.reflection);
  updateEnabledControls();
}

void BoundaryEditor::applyTo(Scenario& s) const {
  s.boundary.kind = kind_->currentIndex() == 0 ? BoundaryKind::Absorbing : BoundaryKind::Reflecting;
  s.boundary.width = width_->value();
  s.boundary.reflection = reflection_->value();
}

}  // namespace iso
