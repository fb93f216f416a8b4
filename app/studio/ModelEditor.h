#pragma once
// The velocity model of a scenario: its kind, one page of parameters per kind (constant, layers,
// gradient, random, file) and the salt body drawn over any of them.
#include "app/studio/ScenarioSection.h"

class QCheckBox;
class QComboBox;
class QDoubleSpinBox;
class QLineEdit;
class QSpinBox;
class QStackedWidget;
class QTableWidget;

namespace iso {

class ModelEditor : public ScenarioSection {
  Q_OBJECT
 public:
  explicit ModelEditor(QWidget* parent = nullptr);

  void setFromScenario(const Scenario& scenario) override;
  void applyTo(Scenario& scenario) const override;
  void setModelFile(const QString& path);  // a file model from that path; emits modelChanged()

 signals:
  void modelChanged();
  void browseModelFileRequested();  // the window opens the file dialog (the form stays free of dialogs)

 private:
  QWidget* buildLayersPage();
  QWidget* buildFilePage();
  void addLayerRow(double top, double velocity);
  void updateEnabledControls();

  QComboBox* kind_ = nullptr;
  QStackedWidget* pages_ = nullptr;
  QDoubleSpinBox* constantVelocity_ = nullptr;
  QTableWidget* layers_ = nullptr;
  QDoubleSpinBox *gradientTop_ = nullptr, *gradientBottom_ = nullptr;
  QDoubleSpinBox *randomMean_ = nullptr, *randomStdDev_ = nullptr, *randomLength_ = nullptr;
  QSpinBox* randomSeed_ = nullptr;
  QLineEdit* path_ = nullptr;
  QSpinBox *fileN1_ = nullptr, *fileN2_ = nullptr, *fileN3_ = nullptr;
  QComboBox* fileUnit_ = nullptr;
  QCheckBox* salt_ = nullptr;
  QDoubleSpinBox *saltX_ = nullptr, *saltY_ = nullptr, *saltZ_ = nullptr, *saltRadius_ = nullptr,
                 *saltVelocity_ = nullptr;
};

}  // namespace iso
