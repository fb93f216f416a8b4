#pragma once
// The run's progress in the status bar: a bar of step / steps with the time left (from the measured
// rate of steps per second), the run's length (the scenario's `steps`) and whether the run stops or
// loops (starts again from step 0) at the end.
#include <QElapsedTimer>
#include <QWidget>

#include "app/controller/SimulationController.h"

class QCheckBox;
class QProgressBar;
class QSpinBox;

namespace iso {

class RunProgress : public QWidget {
  Q_OBJECT
 public:
  explicit RunProgress(QWidget* parent = nullptr);

  void showStatus(const ControllerStatus& status);  // a few times a second
  void setSteps(int steps);                          // the box, without stepsEdited
  RunEnd runEnd() const;

  QProgressBar* bar() const { return bar_; }
  QCheckBox* loopBox() const { return loop_; }
  QSpinBox* stepsBox() const { return steps_; }
  double stepsPerSecond() const { return rate_; }  // measured while playing (0: not yet)

  // "12 s", "3:07", "1:02:03".
  static QString formatDuration(double seconds);

 signals:
  void runEndChanged(iso::RunEnd end);
  void stepsEdited(int steps);

 private:
  QProgressBar* bar_ = nullptr;
  QSpinBox* steps_ = nullptr;
  QCheckBox* loop_ = nullptr;
  // Rate: steps over wall time between status updates while playing, smoothed.
  QElapsedTimer sinceLast_;
  long lastStep_ = -1, lastGeneration_ = -1, lastLoops_ = 0;
  double rate_ = 0.0;
};

}  // namespace iso
