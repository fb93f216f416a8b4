#pragma once
// The benchmark panel: times the chosen stages on the current scenario or a cube (BenchmarkRunner) on a
// worker thread, with progress and Cancel; shows the rows as they complete, the throughput, roofline
// and tuning-sweep charts, the devices' measured ceilings with their spread and date (Re-measure), and
// runs loaded from `iso3dfd bench --json` files next to this one. Every completed run is kept as JSON in
// the cache dir (benchmarks/), which Load results… opens first. Exports the table (CSV, JSON) and each
// chart (PNG, SVG).
#include <QMainWindow>
#include <atomic>
#include <deque>
#include <memory>
#include <optional>
#include <thread>
#include <vector>

#include "app/studio/BenchmarkCharts.h"
#include "core/Scenario.h"

class QCheckBox;
class QComboBox;
class QLabel;
class QListWidget;
class QProgressBar;
class QPushButton;
class QRadioButton;
class QSpinBox;
class QTableWidget;

namespace iso {

struct StudioOptions;

class BenchmarkPanel : public QMainWindow {
  Q_OBJECT
 public:

  explicit BenchmarkPanel(const Scenario& scenario, QWidget* parent = nullptr);
  ~BenchmarkPanel() override;  // cancels a run in progress and waits for it (about 0.1 s)

  void setScenario(const Scenario& scenario);  // "current scenario" refers to this one
  // Which stages run (unknown ids are ignored); the others are unchecked.
  void setStages(const std::vector<std::string>& stages);
  std::vector<std::string> checkedStages() const;
  void setCubeSize(int n);  // 0: the current scenario's grid
  void setSteps(int steps);
  void setSweepEnabled(bool on);  // the tuning sweep after the stages (on by default)

  // Starts a run (false with the reason in the status line when one is running or nothing is chosen).
  bool start();
  void cancel();
  bool running() const { return worker_.joinable(); }

  // The run made here (null before the first row) and every run shown.
  const BenchmarkRun* currentRun() const { return current_ ? &*current_ : nullptr; }
  int runCount() const { return int(runs_.size()); }

  // Files; false with the reason in `error`. A file with several grids adds a run per grid.
  bool loadResults(const QString& path, QString& error);
  bool exportTable(const QString& path, QString& error);  // .csv or .json, the run the table shows

  QTableWidget* table() const { return table_; }
  ThroughputChart* throughputChart() const { return throughput_; }
  RooflineChart* rooflineChart() const { return roofline_; }
  SweepChart* sweepChart() const { return sweep_; }
  const SweepResult* sweep(const QString& stage) const;
  QProgressBar* progressBar() const { return progress_; }
  QString statusText() const;
  // Stores the chosen candidate of the sweep shown in the tuning database; false with `error`.
  bool useChosenCandidate(QString& error);

  // True when every row ran and agrees with cpu-serial (rows without a comparison count as agreeing).
  static bool allPassed(const BenchmarkReport& report);

 signals:
  void rowAdded(int row);
  void finished(bool cancelled);  // the run ended: completed, failed or cancelled

 protected:
  void closeEvent(QCloseEvent* event) override;

 private:
  QWidget* buildControls();
  QWidget* buildResults();
  QWidget* chartBox(BenchmarkChart* chart, QWidget* extra);
  void runInBackground(std::function<void()> work);
  // From the worker to the GUI thread. The destructor joins the worker before QObject's removes what
  // is still queued, so an update never reaches a deleted panel.
  void post(std::function<void()> update);
  void onRow(const BenchmarkRow& row);
  // The bar's fraction of the whole run and `current` (the stage or sweep) in it; `text` below it.
  void onProgress(double fraction, const QString& text, const QString& current);
  void onSweepCandidate(const QString& stage, const StageTiming& timing, int done, int total, double fraction);
  void onSweepDone(SweepResult sweep);
  void onCeilings(const std::vector<DeviceRoofline>& rooflines);
  // `message`: why the run failed ("" when it did not); `note`: what else went wrong (the history file).
  void onFinished(bool cancelled, const QString& message, const QString& note);
  void remeasure();
  void refreshRuns();    // the runs list → the charts
  void refreshTable();   // the run chosen above the table → the table
  void refreshSweep();
  void showCeilings(const std::vector<DeviceRoofline>& rooflines);
  void setBusy(bool busy);
  std::vector<const BenchmarkRun*> shownRuns() const;
  void saveChart(BenchmarkChart* chart, const QString& name);

  Scenario scenario_;
  std::optional<BenchmarkRun> current_;
  std::deque<BenchmarkRun> runs_;  // loaded ones (stable addresses for the charts)
  std::vector<SweepResult> sweeps_;
  int chosen_ = -1;  // candidate of the sweep shown that "Use this" stores

  std::thread worker_;
  std::atomic<bool> cancel_{false};
  std::shared_ptr<BenchmarkRunner> runner_;  // of the run in progress; cancel() reaches it

  QListWidget* stages_ = nullptr;
  QRadioButton *useScenario_ = nullptr, *useCube_ = nullptr;
  QSpinBox *cube_ = nullptr, *steps_ = nullptr;
  QCheckBox* sweepBox_ = nullptr;
  QPushButton *run_ = nullptr, *cancel_button_ = nullptr, *remeasure_ = nullptr, *useThis_ = nullptr;
  QProgressBar* progress_ = nullptr;
  QLabel *status_ = nullptr, *ceilings_ = nullptr, *chosenLabel_ = nullptr;
  QListWidget* runsList_ = nullptr;
  QComboBox *tableRun_ = nullptr, *sweepStage_ = nullptr;
  QTableWidget* table_ = nullptr;
  ThroughputChart* throughput_ = nullptr;
  RooflineChart* roofline_ = nullptr;
  SweepChart* sweep_ = nullptr;
};

// iso3dfd-studio --bench-panel: the panel alone on the options' scenario; runs, saves the window as PNG
// and the results as JSON, and returns 0, or 1 when a stage failed or disagreed with cpu-serial.
int runBenchmarkPanel(const StudioOptions& options);

}  // namespace iso
