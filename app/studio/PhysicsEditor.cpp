#include "app/studio/PhysicsEditor.h"

#include <QCheckBox>
#include <QFormLayout>
#include <QGroupBox>
#include <QLabel>
#include <QSignalBlocker>
#include <QVBoxLayout>

#include "app/studio/FormControls.h"
#include "core/Grid.h"

namespace iso {

PhysicsEditor::PhysicsEditor(QWidget* parent) : ScenarioSection(parent) {
  auto* outer = new QVBoxLayout(this);
  outer->setContentsMargins(0, 0, 0, 0);
  auto* box = new QGroupBox("Grid and time step");
  outer->addWidget(box);
  auto* grid = new QFormLayout(box);
  n1_ = intSpin(1, kMaxAxisCells, 128, "", "Interior cells along x (n1, the fastest axis)");
  n2_ = intSpin(1, kMaxAxisCells, 128, "", "Interior cells along y (n2)");
  n3_ = intSpin(1, kMaxAxisCells, 128, "", "Interior cells along z (n3, depth)");
  n1_->setObjectName("n1");
  n2_->setObjectName("n2");
  n3_->setObjectName("n3");
  grid->addRow("Cells (n1 × n2 × n3):", rowWidget({n1_, n2_, n3_}));
  dx_ = realSpin(0.1, 1000.0, 2, 10.0, " m", "Grid spacing, the same along every axis");
  dx_->setObjectName("dx");
  grid->addRow("Spacing dx:", dx_);
  autoDt_ = new QCheckBox("auto:");
  autoDt_->setObjectName("auto_dt");
  autoDt_->setToolTip("Choose dt as a fraction of the stability limit of the model");
  dtFraction_ = realSpin(0.05, 1.0, 2, 0.5, " × limit", "Auto dt = this fraction of the stability limit");
  dtFraction_->setObjectName("dt_auto_fraction");
  grid->addRow("Time step:", rowWidget({autoDt_, dtFraction_}));
  dtMs_ = realSpin(0.0001, 1000.0, 4, 1.0, " ms",
                   "Manual time step. Above the stability limit the run would blow up, so it is refused.");
  dtMs_->setObjectName("dt");
  grid->addRow("Manual dt:", dtMs_);
  // Always three explicit lines, not word wrap: inside the scroll area the form does not grow when a
  // label gains a line after the window is shown, and the second line was cut off.
  stabilityLabel_ = new QLabel("stability limit: (not built yet)\nCourant number: (not built yet)\npoints per wavelength: (not built yet)");
  stabilityLabel_->setToolTip("Limits of the running model: the largest stable dt, the Courant number and\n"
                              "the points per wavelength at the highest frequency (below ~6 the waves\n"
                              "disperse visibly; 10 or more is accurate)");
  grid->addRow(stabilityLabel_);
  coefficients_ = combo({{"exact", "The exact 16th-order central-difference weights"},
                         {"oneapi", "The oneAPI sample's literal table (its c3 has a digit slip); only for "
                                    "bit-compatible comparisons"}},
                        "Stencil weights");
  grid->addRow("Coefficients:", coefficients_);

  for (QSpinBox* size : {n1_, n2_, n3_})
    onValueChanged(size, this, [this] { emit gridResized(n1_->value(), n2_->value(), n3_->value()); });
  for (QWidget* w : std::initializer_list<QWidget*>{dx_, autoDt_, dtFraction_, dtMs_, coefficients_})
    onValueChanged(w, this, [this] {
      updateEnabledControls();
      emit physicsChanged();
    });
  updateEnabledControls();
}

void PhysicsEditor::updateEnabledControls() {
  dtFraction_->setEnabled(autoDt_->isChecked());
  dtMs_->setEnabled(!autoDt_->isChecked());
}

void PhysicsEditor::setFromScenario(const Scenario& s) {
  const QSignalBlocker quiet(this);
  n1_->setValue(s.n1);
  n2_->setValue(s.n2);
  n3_->setValue(s.n3);
  dx_->setValue(s.dx);
  autoDt_->setChecked(s.dt <= 0.0);
  dtFraction_->setValue(s.dtAutoFraction);
  if (s.dt > 0.0) dtMs_->setValue(s.dt * 1e3);
  coefficients_->setCurrentIndex(s.coefficients == "oneapi" ? 1 : 0);
  updateEnabledControls();
}

void PhysicsEditor::applyTo(Scenario& s) const {
  s.n1 = n1_->value();
  s.n2 = n2_->value();
  s.n3 = n3_->value();
  s.dx = dx_->value();
  s.dt = autoDt_->isChecked() ? 0.0 : dtMs_->value() * 1e-3;
  s.dtAutoFraction = dtFraction_->value();
  s.coefficients = coefficients_->currentIndex() == 1 ? "oneapi" : "exact";
}

void PhysicsEditor::setStability(const StabilityReport& r) {
  QString text = QStringLiteral("stability limit: dt ≤ %1 ms\nCourant number %2 of at most %3")
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

}  // namespace iso
