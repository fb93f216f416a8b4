#pragma once
// The grid and the time step of a scenario: cells, spacing, auto or manual dt (with the running model's
// stability limit beside it) and the stencil weights.
#include "core/Problem.h"
#include "app/studio/ScenarioSection.h"

class QCheckBox;
class QComboBox;
class QDoubleSpinBox;
class QLabel;
class QSpinBox;

namespace iso {

class PhysicsEditor : public ScenarioSection {
  Q_OBJECT
 public:
  explicit PhysicsEditor(QWidget* parent = nullptr);

  void setFromScenario(const Scenario& scenario) override;
  void applyTo(Scenario& scenario) const override;
  void setStability(const StabilityReport& report);  // the limits of the running model

 signals:
  void physicsChanged();  // spacing, time step or coefficients
  // A cell count changed: the form rescales what sits in the grid (source, salt, layers) with it.
  void gridResized(int n1, int n2, int n3);

 private:
  void updateEnabledControls();

  QSpinBox *n1_ = nullptr, *n2_ = nullptr, *n3_ = nullptr;
  QDoubleSpinBox* dx_ = nullptr;
  QCheckBox* autoDt_ = nullptr;
  QDoubleSpinBox *dtFraction_ = nullptr, *dtMs_ = nullptr;
  QLabel* stabilityLabel_ = nullptr;
  QComboBox* coefficients_ = nullptr;
};

}  // namespace iso
