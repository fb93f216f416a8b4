#pragma once
// The source of a scenario: a Ricker point source (cell, frequency, amplitude, delay), the oneAPI
// sample's initial cubes, or none.
#include <QString>
#include <array>

#include "app/studio/ScenarioSection.h"

class QComboBox;
class QDoubleSpinBox;
class QSpinBox;

namespace iso {

class SourceEditor : public ScenarioSection {
  Q_OBJECT
 public:
  explicit SourceEditor(QWidget* parent = nullptr);

  void setFromScenario(const Scenario& scenario) override;
  void applyTo(Scenario& scenario) const override;
  void setCell(int i, int j, int k);  // a Ricker source at that cell (e.g. a click on a slice); emits sourceChanged()
  // The running grid's size and absorbing layer (cells along x, y, z): a source cell inside the layer
  // is tinted with a warning in its tooltip.
  void setAbsorbingLayer(const std::array<int, 3>& grid, const std::array<int, 3>& layer);

 signals:
  void sourceChanged();

 private:
  void updateEnabledControls();

  QComboBox* kind_ = nullptr;
  QSpinBox *i_ = nullptr, *j_ = nullptr, *k_ = nullptr;
  QString cellTip_;
  QDoubleSpinBox *frequency_ = nullptr, *amplitude_ = nullptr, *delay_ = nullptr;
};

}  // namespace iso
