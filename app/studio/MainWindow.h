#pragma once
// The main window: the simulation view in the middle, the run's parameters in docks around it, the live
// counters in the status bar (and over the view), errors in a message panel that never blocks. Edits in
// the form go to the compute thread after a short pause; a change it refuses puts the form back to the
// running scenario and shows the reason on the fields that caused it (else in the message panel).
#include <QElapsedTimer>
#include <QMainWindow>
#include <QPointer>
#include <QStringList>
#include <QTimer>
#include <array>
#include <optional>

#include "core/Checkpoint.h"
#include "app/studio/PresetPicker.h"
#include "app/studio/StageExplanation.h"
#include "core/Scenario.h"
#include "app/controller/SimulationController.h"

class QAction;
class QActionGroup;
class QDockWidget;
class QLabel;
class QListWidget;
class QMenu;

namespace iso {

class DataExportActions;
class ElidedLabel;
class ExportActions;
class CompareWindow;
class HelpWindow;
class LessonWindow;
class RunProgress;
class ScenarioForm;
class SimulationPane;
class ViewControls;
class StageExplorer;
class TracePlotPanel;

class MainWindow : public QMainWindow {
  Q_OBJECT
 public:
  // `origin`: where `initial` comes from (the preset box names it); by default its name's, unedited.
  explicit MainWindow(const Scenario& initial, const std::optional<ScenarioOrigin>& origin = {}, QWidget* parent = nullptr);
  ~MainWindow() override;

  SimulationPane* pane() const { return pane_; }
  ScenarioForm* form() const { return form_; }
  ExportActions* exportActions() const { return exportActions_; }
  DataExportActions* dataExport() const { return dataExport_; }
  QListWidget* messages() const { return messages_; }
  ViewControls* viewControls() const { return viewControls_; }
  TracePlotPanel* traces() const { return traces_; }
  RunProgress* progress() const { return progress_; }
  QMenu* fileMenu() const { return fileMenu_; }
  QMenu* viewMenu() const { return viewMenu_; }

  // A dock around the view, with its show/hide action in the View menu.
  QDockWidget* addPanel(const QString& title, const QString& objectName, QWidget* content, Qt::DockWidgetArea area);

  // Scenario files; errors go to the message panel (false on failure). A file that loads but does not
  // run is refused like any change (the form goes back to the running scenario) and not kept in Open
  // Recent.
  bool openScenario(const QString& path);
  bool saveScenario(const QString& path);
  // Fills the controls and rebuilds the run; without an origin the scenario is its name's.
  void applyScenario(const Scenario& scenario);
  void applyScenario(const Scenario& scenario, const ScenarioOrigin& origin);
  // Shows the checkpoint's scenario in the form and continues the run from its state.
  void restoreCheckpoint(Checkpoint checkpoint);
  void setPlaying(bool playing);
  bool playButtonChecked() const;  // what the Play button says the user asked for
  void setViewMode(int mode);  // an index of viewModes() (keys 1–5)
  void showMessage(const QString& text, const QString& details = {}, bool error = true);
  // Teach ▸ Stages: the stage explorer on the running stage, with its live throughput.
  void showStageExplorer();
  // The compare view on the active scenario (raised when open); this window's run pauses.
  CompareWindow* openCompareWindow();
  // Teach ▸ Lesson: the guided path through the stages on the active scenario (raised when open); this
  // window's run pauses.
  LessonWindow* openLesson();
  // Help ▸ User guide (tab 0) and Keyboard shortcuts (tab 1): one window, raised when open.
  HelpWindow* showHelp(int tab);

 protected:
  void closeEvent(QCloseEvent* event) override;

 private:
  void buildActions();
  void buildMenus();
  void buildDocks();
  void requestRun(const Scenario& scenario, const ScenarioOrigin& origin);
  void onRebuilt(const Scenario& active);
  void onRefused(const ControllerEvent& event);
  void onControllerEvent(const ControllerEvent& event);
  void onStatus(const ControllerStatus& status);
  void addMessage(const QString& text, const QString& details, bool error);  // to the panel only
  void addRecentFile(const QString& path);
  void updateRecentMenu();
  void showPlaying(bool playing);  // the play action's icon and text
  void playRun(bool playing);      // the controller's, or through a recording that holds the run
  void showProbe(int i, int j, int k);  // the cell under the pointer in the status bar; i < 0 clears it

  // A scenario sent to the controller, with where it comes from.
  struct Run {
    Scenario scenario;
    ScenarioOrigin origin;
  };

  SimulationPane* pane_ = nullptr;
  ScenarioForm* form_ = nullptr;
  ViewControls* viewControls_ = nullptr;
  TracePlotPanel* traces_ = nullptr;  // the receivers' live traces and seismogram
  RunProgress* progress_ = nullptr;   // step / steps, the run's length, Loop
  StageExplorer* stageExplorer_ = nullptr;  // made on first use
  StageMeasurements benchmarkFigures_;       // the benchmark panel's last results, for the explanations
  ExportActions* exportActions_ = nullptr;  // Record…, Save image…
  DataExportActions* dataExport_ = nullptr;  // Export data, Save/Restore state
  QListWidget* messages_ = nullptr;
  QTimer rebuildDelay_;  // coalesces bursts of edits into one rebuild
  Run requested_;        // the last scenario sent
  Run running_;          // the scenario of the running solver
  long selfPauses_ = 0;
  QPointer<CompareWindow> compareWindow_;
  QPointer<LessonWindow> lesson_;
  QPointer<HelpWindow> help_;

  QAction *playAction_ = nullptr, *stepAction_ = nullptr, *resetAction_ = nullptr;
  QMenu *fileMenu_ = nullptr, *recentMenu_ = nullptr, *viewMenu_ = nullptr;
  QActionGroup* modeActions_ = nullptr;  // the View menu's modes, keys 1–5
  ElidedLabel* counters_ = nullptr;
  QLabel* probe_ = nullptr;  // the value under the pointer
  std::array<int, 3> probed_{-1, -1, -1};  // the cell it is about (i < 0: none)
  QElapsedTimer explorerFigures_;  // since the stage explorer last got live figures
};

}  // namespace iso
