#pragma once
// The editable parameters of a run (a Scenario), as two pages of controls for the main window's docks:
// the physics (grid, time step, velocity model, source, boundary) and the stage (stage, device, stage
// parameters). Every control has its unit, range and a tooltip; changes emit changed().
#include <QObject>
#include <QPointer>
#include <QString>
#include <QStringList>

#include "Problem.h"
#include "Scenario.h"

class QCheckBox;
class QComboBox;
class QDoubleSpinBox;
class QLabel;
class QLineEdit;
class QPushButton;
class QSpinBox;
class QStackedWidget;
class QTableWidget;
class QWidget;

namespace iso {

class ScenarioForm : public QObject {
  Q_OBJECT
 public:
  explicit ScenarioForm(QObject* parent = nullptr);
  ~ScenarioForm() override;

  // The pages (parentless until a dock takes them).
  QWidget* physicsPage() const { return physicsPage_; }
  QWidget* stagePage() const { return stagePage_; }

  void setScenario(const Scenario& scenario);  // fills every control; emits nothing
  Scenario scenario() const;                   // the controls over the last scenario set (keeps the rest)

  // Device choices: "" (automatic) first, then each selector with its summary.
  void setDevices(const QStringList& selectors, const QStringList& summaries);
  void setSourceCell(int i, int j, int k);  // e.g. from a click on a slice; emits changed()
  void setStability(const StabilityReport& report);  // the limits of the running model, shown next to dt

 signals:
  void changed();
  void presetRequested(const QString& name);
  void browseModelFile();  // the window opens the file dialog (so the form stays free of dialogs)

 public slots:
  void setModelFile(const QString& path);

 private:
  void buildPhysicsPage();
  void buildStagePage();
  void updateEnabledControls();
  void addLayerRow(double top, double velocity);
  void connectChanges(QWidget* w);

  QPointer<QWidget> physicsPage_, stagePage_;
  Scenario base_;  // fields without controls (name, steps, receivers) come from here

  QComboBox* preset_ = nullptr;
  QSpinBox *n1_ = nullptr, *n2_ = nullptr, *n3_ = nullptr;
  QDoubleSpinBox* dx_ = nullptr;
  QCheckBox* autoDt_ = nullptr;
  QDoubleSpinBox *dtFraction_ = nullptr, *dtMs_ = nullptr;
  QLabel* stabilityLabel_ = nullptr;
  QComboBox* coefficients_ = nullptr;

  QComboBox* modelKind_ = nullptr;
  QStackedWidget* modelPages_ = nullptr;
  QDoubleSpinBox* constantVelocity_ = nullptr;
  QTableWidget* layers_ = nullptr;
  QDoubleSpinBox *gradientTop_ = nullptr, *gradientBottom_ = nullptr;
  QDoubleSpinBox *randomMean_ = nullptr, *randomStdDev_ = nullptr, *randomLength_ = nullptr;
  QSpinBox* randomSeed_ = nullptr;
  QLineEdit* modelPath_ = nullptr;
  QSpinBox *fileN1_ = nullptr, *fileN2_ = nullptr, *fileN3_ = nullptr;
  QComboBox* fileUnit_ = nullptr;
  QCheckBox* salt_ = nullptr;
  QDoubleSpinBox *saltX_ = nullptr, *saltY_ = nullptr, *saltZ_ = nullptr, *saltRadius_ = nullptr,
                 *saltVelocity_ = nullptr;

  QComboBox* sourceKind_ = nullptr;
  QSpinBox *sourceI_ = nullptr, *sourceJ_ = nullptr, *sourceK_ = nullptr;
  QDoubleSpinBox *frequency_ = nullptr, *amplitude_ = nullptr, *delay_ = nullptr;

  QComboBox* boundaryKind_ = nullptr;
  QSpinBox* boundaryWidth_ = nullptr;
  QDoubleSpinBox* reflection_ = nullptr;

  QComboBox *stage_ = nullptr, *device_ = nullptr;
  QLabel* stageDescription_ = nullptr;
  // A stage-parameter box and the keys it stands for, of which a stage takes at most one (the x tile is
  // block_x for cpu-parallel, wg_x for the simple GPU stages, tile_x for gpu-slm and gpu-optimized).
  struct ParamBox {
    QSpinBox* box;
    std::vector<std::string> keys;
  };
  std::vector<ParamBox> paramBoxes_;

  bool filling_ = false;  // true while setScenario fills the controls: no changed() then
};

}  // namespace iso
