#pragma once
// The main window: the simulation view in the middle, the run's parameters in docks around it, the live
// counters in the status bar (and over the view), errors in a message panel that never blocks.
#include <QMainWindow>
#include <QStringList>
#include <QTimer>

#include "Scenario.h"
#include "SimulationController.h"

class QAction;
class QActionGroup;
class QCheckBox;
class QComboBox;
class QDoubleSpinBox;
class QLabel;
class QListWidget;
class QMenu;
class QSlider;
class QSpinBox;

namespace iso {

class ScenarioForm;
class SimulationPane;

class MainWindow : public QMainWindow {
  Q_OBJECT
 public:
  explicit MainWindow(const Scenario& initial, QWidget* parent = nullptr);
  ~MainWindow() override;

  SimulationPane* pane() const { return pane_; }
  ScenarioForm* form() const { return form_; }
  QListWidget* messages() const { return messages_; }

  // Scenario files; errors go to the message panel (false on failure).
  bool openScenario(const QString& path);
  bool saveScenario(const QString& path);
  void applyScenario(const Scenario& scenario);  // fills the controls and rebuilds the run
  void setPlaying(bool playing);
  void setViewMode(int mode);  // 0 3D, 1 XY, 2 XZ, 3 YZ (keys 1–4)
  bool saveScreenshot(const QString& path);       // PNG of the view
  void showMessage(const QString& text, const QString& details = {}, bool error = true);

 protected:
  void closeEvent(QCloseEvent* event) override;

 private:
  void buildActions();
  void buildMenus();
  void buildDocks();
  QWidget* buildViewControls();
  void onControllerEvent(const ControllerEvent& event);
  void onStatus(const ControllerStatus& status);
  void addRecentFile(const QString& path);
  void updateRecentMenu();
  void scheduleRebuild();
  void showPlaying(bool playing);  // the play action's icon and text

  SimulationPane* pane_ = nullptr;
  ScenarioForm* form_ = nullptr;
  QListWidget* messages_ = nullptr;
  QTimer rebuildDelay_;  // coalesces bursts of edits into one rebuild
  QString scenarioPath_;
  long selfPauses_ = 0;

  QAction *playAction_ = nullptr, *stepAction_ = nullptr, *resetAction_ = nullptr;
  QMenu *recentMenu_ = nullptr, *viewMenu_ = nullptr;
  QActionGroup* modeActions_ = nullptr;  // the View menu's modes, keys 1–4
  QLabel* counters_ = nullptr;
  QSpinBox *stepsPerFrame_ = nullptr, *sliceI_ = nullptr, *sliceJ_ = nullptr, *sliceK_ = nullptr;
  QComboBox *viewMode_ = nullptr, *colormap_ = nullptr, *gainMode_ = nullptr;
  QCheckBox* overlay_ = nullptr;
  QDoubleSpinBox* clip_ = nullptr;
  QSlider* overlayOpacity_ = nullptr;
};

}  // namespace iso
