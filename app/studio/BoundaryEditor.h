#pragma once
// The boundary of a scenario: absorbing (a perfectly matched layer) or sponge (a damping layer), each
// of some width and target reflection, or reflecting.
#include "app/studio/ScenarioSection.h"

class QComboBox;
class QDoubleSpinBox;
class QSpinBox;

namespace iso {

class BoundaryEditor : public ScenarioSection {
  Q_OBJECT
 public:
  explicit BoundaryEditor(QWidget* parent = nullptr);

  void setFromScenario(const Scenario& scenario) override;
  void applyTo(Scenario& scenario) const override;

 signals:
  void boundaryChanged();

 private:
  void updateEnabledControls();

  QComboBox* kind_ = nullptr;
  QSpinBox* width_ = nullptr;
  QDoubleSpinBox* reflection_ = nullptr;
};

}  // namespace iso
