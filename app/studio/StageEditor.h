#pragma once
// The stage of a scenario: which implementation of the stencil runs, on which OpenCL device, with which
// stage parameters (CPU threads, x/y tile, z chunk).
#include <QStringList>
#include <string>
#include <vector>

#include "app/studio/ScenarioSection.h"

class QComboBox;
class QLabel;
class QSpinBox;

namespace iso {

class StageEditor : public ScenarioSection {
  Q_OBJECT
 public:
  explicit StageEditor(QWidget* parent = nullptr);

  void setFromScenario(const Scenario& scenario) override;
  void applyTo(Scenario& scenario) const override;
  // Device choices: "" (automatic) first, then each selector with its summary.
  void setDevices(const QStringList& selectors, const QStringList& summaries);

 signals:
  void stageChanged();  // the stage, its device or a stage parameter

 private:
  void updateEnabledControls();

  QComboBox *stage_ = nullptr, *device_ = nullptr;
  QLabel* description_ = nullptr;
  QSpinBox* threads_ = nullptr;
  // A stage-parameter box and the keys it stands for, of which a stage takes at most one (the x tile is
  // block_x for cpu-parallel, wg_x for the simple GPU stages, tile_x for gpu-slm and gpu-optimized).
  struct ParamBox {
    QSpinBox* box;
    std::vector<std::string> keys;
    QString generalTip;  // what the box means for every stage; the chosen stage's own line follows
  };
  std::vector<ParamBox> paramBoxes_;
};

}  // namespace iso
